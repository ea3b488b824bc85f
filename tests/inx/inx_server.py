#!/usr/bin/env python3
"""A test INX server: a Hornet 2.x (Stardust) node as its INX extensions see it, serving a
ledger read from milestone bundle files (client/cli/BUNDLE_FORMAT.md), so that a real gRPC
client such as `permanode sync --inx HOST:PORT` can follow it.

    tests/inx/inx_server.py [options] BUNDLE_FILE...      (options: --help)

It speaks the wire protocol of client/sync/inx.proto, which it compiles with protoc at start;
handlers are registered generically (no generated service stubs). RPCs it does not implement
answer UNIMPLEMENTED. Needs Debian's python3-grpcio and python3-protobuf; a `python3` without
them (pyenv, a venv) runs the script again under /usr/bin/python3.

Bundle lines must be Stardust (protocol_version 2 or absent) and, taken together, hold one
line per milestone without gaps, as a node's confirmed milestones are.

Node fields
-----------
A line may carry fields that `permanode ingest` ignores but a node has. With them the server
answers as a node would; without them, only what the bundle alone tells.

  milestone_id         "0x" + 64 hex: the ID of milestone N's own milestone payload.
  milestone            "0x" + hex: milestone N's payload, serialized as inside a block
                       (u32 payload type 7 first).
  protocol_parameters  {"protocol_version": 2, "params": "0x..."}: the protocol parameters in
                       force from this milestone on. Present on the first line and whenever
                       they change; on the lines between, the last given ones hold.
  created              [{"output_id", "block_id", "output"}], hex strings: every output the
                       node booked at this milestone (the snapshot_outputs included).
  consumed             [{"output_id", "block_id", "output", "milestone_index_booked",
                       "milestone_timestamp_booked", "transaction_id_spent"}]: every output
                       this milestone spent, with the booking it had.

Without `created`/`consumed` on a line, its ledger update is created = the line's
snapshot_outputs, consumed = none (the server has no codec to derive them from the cone; it
logs this). Without `milestone`/`milestone_id`, ReadMilestone answers NOT_FOUND for the line
and streamed milestones carry only index and timestamp. Without `protocol_parameters` on the
first line, Shimmer's are served.
"""

import argparse
import dataclasses
import hashlib
import importlib
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent import futures

SYSTEM_PYTHON = "/usr/bin/python3"


def import_grpc():
    """Debian's grpcio lives in the system interpreter's packages; a python3 from pyenv or a
    venv that comes first on PATH lacks it, so run the same script again under the system one."""
    try:
        import grpc
    except ImportError:
        if os.path.exists(SYSTEM_PYTHON) and \
                os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON):
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        sys.exit("inx_server: needs python3-grpcio (import grpc failed)")
    return grpc


grpc = import_grpc()

DEFAULT_PROTO = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "client", "sync", "inx.proto")

STARDUST = 2
MILESTONE_PAYLOAD_TYPE = 7
INCLUSION_STATES = {"no_transaction": 0, "noTransaction": 0, "included": 1, "conflicting": 2}


def log(message):
    print(f"inx_server: {message}", file=sys.stderr, flush=True)


def load_inx_messages(proto_path):
    """Compiles inx.proto with protoc and imports the generated message module."""
    proto_dir, proto_file = os.path.split(os.path.abspath(proto_path))
    module_name = os.path.splitext(proto_file)[0] + "_pb2"
    with tempfile.TemporaryDirectory(prefix="inx_pb2_") as out_dir:
        try:
            subprocess.run(["protoc", f"--python_out={out_dir}", f"-I{proto_dir}", proto_file],
                           check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            sys.exit(f"inx_server: protoc failed on {proto_path}: {error}")
        sys.path.insert(0, out_dir)
        try:
            return importlib.import_module(module_name)
        finally:
            sys.path.remove(out_dir)


# ---------------------------------------------------------------------------------------------
# Reading bundles


class BundleError(Exception):
    pass


@dataclasses.dataclass
class ConeBlock:
    data: bytes
    block_id: bytes
    parents: list
    milestone_index: int  # the index in the milestone payload the block carries, else 0
    inclusion_state: int
    conflict_reason: int


@dataclasses.dataclass
class BookedOutput:
    output_id: bytes
    block_id: bytes
    output: bytes
    index_booked: int
    timestamp_booked: int


@dataclasses.dataclass
class SpentOutput:
    output: BookedOutput
    transaction_id: bytes  # the transaction that spent it


@dataclasses.dataclass
class MilestoneLine:
    where: str  # FILE:LINE, for messages
    index: int
    timestamp: int
    blocks: list  # ConeBlock, in white-flag order
    milestone_id: bytes  # or None
    milestone_payload: bytes  # or None
    protocol_parameters: tuple  # (version, params) given on this line, or None
    created: list  # BookedOutput
    consumed: list  # SpentOutput
    has_ledger_fields: bool  # created/consumed came from the line, not from snapshot_outputs


def hex_bytes(value, where, length=None):
    if not isinstance(value, str) or value[:2].lower() != "0x":
        raise BundleError(f"{where}: expected a 0x-prefixed hex string")
    try:
        data = bytes.fromhex(value[2:])
    except ValueError:
        raise BundleError(f"{where}: not hex") from None
    if length is not None and len(data) != length:
        raise BundleError(f"{where}: {len(data)} bytes, expected {length}")
    return data


def integer(value, where, low=0, high=2**32 - 1):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BundleError(f"{where}: expected an integer in {low}..{high}")
    return value


def split_block(data, where):
    """Parents and payload of a Stardust block: u8 protocol version, u8 parent count,
    32-byte parents, u32 LE payload length, payload, u64 nonce."""
    if len(data) < 2:
        raise BundleError(f"{where}: truncated block header")
    count = data[1]
    length_at = 2 + 32 * count
    if len(data) < length_at + 4:
        raise BundleError(f"{where}: truncated before the payload length")
    parents = [data[2 + 32 * i:2 + 32 * (i + 1)] for i in range(count)]
    (length,) = struct.unpack_from("<I", data, length_at)
    if len(data) != length_at + 4 + length + 8:
        raise BundleError(f"{where}: payload length {length} does not fit the block's "
                          f"{len(data)} bytes")
    return parents, data[length_at + 4:length_at + 4 + length]


def milestone_index_in(payload):
    """A milestone payload starts u32 type 7, then its essence's u32 index."""
    if len(payload) >= 8 and struct.unpack_from("<I", payload)[0] == MILESTONE_PAYLOAD_TYPE:
        return struct.unpack_from("<I", payload, 4)[0]
    return 0


def parse_block(item, where):
    if not isinstance(item, dict):
        raise BundleError(f"{where}: expected an object")
    data = hex_bytes(item.get("block"), f"{where}.block")
    state = item.get("inclusion_state")
    if state not in INCLUSION_STATES:
        raise BundleError(f"{where}.inclusion_state: unknown {state!r}")
    reason = integer(item.get("conflict_reason", 0), f"{where}.conflict_reason", high=255)
    parents, payload = split_block(data, where)
    return ConeBlock(data, hashlib.blake2b(data, digest_size=32).digest(), parents,
                     milestone_index_in(payload), INCLUSION_STATES[state], reason)


def parse_booked(item, where, index, timestamp):
    """An output record; booked at (index, timestamp) unless it says otherwise."""
    if not isinstance(item, dict):
        raise BundleError(f"{where}: expected an object")
    return BookedOutput(
        hex_bytes(item.get("output_id"), f"{where}.output_id", 34),
        hex_bytes(item.get("block_id"), f"{where}.block_id", 32),
        hex_bytes(item.get("output"), f"{where}.output"),
        integer(item.get("milestone_index_booked", index), f"{where}.milestone_index_booked"),
        integer(item.get("milestone_timestamp_booked", timestamp),
                f"{where}.milestone_timestamp_booked"))


def parse_spent(item, where):
    if not isinstance(item, dict) or "milestone_index_booked" not in item or \
            "milestone_timestamp_booked" not in item:
        raise BundleError(f"{where}: expected an object with milestone_index_booked and "
                          "milestone_timestamp_booked")
    return SpentOutput(parse_booked(item, where, None, None),
                       hex_bytes(item.get("transaction_id_spent"),
                                 f"{where}.transaction_id_spent", 32))


def parse_list(value, where, parse_item):
    if not isinstance(value, list):
        raise BundleError(f"{where}: expected an array")
    return [parse_item(item, f"{where}[{i}]") for i, item in enumerate(value)]


def parse_protocol_parameters(value, where):
    if not isinstance(value, dict):
        raise BundleError(f"{where}: expected {{\"protocol_version\", \"params\"}}")
    version = value.get("protocol_version")
    if version != STARDUST:
        raise BundleError(f"{where}.protocol_version: {version!r}; only Stardust (2) is served")
    params = hex_bytes(value.get("params"), f"{where}.params")
    hrp_at = 2 + params[1] if len(params) >= 2 else len(params)
    if hrp_at >= len(params) or len(params) < hrp_at + 1 + params[hrp_at]:
        raise BundleError(f"{where}.params: too short for a version, network name and HRP")
    return version, params


def parse_milestone_payload(value, where, index):
    payload = hex_bytes(value, where)
    if milestone_index_in(payload) != index:
        raise BundleError(f"{where}: not a milestone payload (u32 type 7) of index {index}")
    return payload


def parse_line(record, where):
    if not isinstance(record, dict):
        raise BundleError(f"{where}: expected a JSON object")
    version = record.get("protocol_version", STARDUST)
    if version != STARDUST:
        raise BundleError(f"{where}: protocol_version {version!r}: this server is a Stardust "
                          "node and serves protocol_version 2 only")
    index = integer(record.get("milestone_index"), f"{where}: milestone_index", high=2**31 - 1)
    where = f"{where}: milestone {index}"
    timestamp = integer(record.get("milestone_timestamp"), f"{where}: milestone_timestamp")
    blocks = parse_list(record.get("blocks"), f"{where}: blocks", parse_block)

    def booked_here(item, item_where):
        return parse_booked(item, item_where, index, timestamp)

    snapshot = parse_list(record.get("snapshot_outputs", []), f"{where}: snapshot_outputs",
                          booked_here)
    created = parse_list(record["created"], f"{where}: created", booked_here) \
        if "created" in record else snapshot
    consumed = parse_list(record["consumed"], f"{where}: consumed", parse_spent) \
        if "consumed" in record else []
    milestone_id = hex_bytes(record["milestone_id"], f"{where}: milestone_id", 32) \
        if "milestone_id" in record else None
    payload = parse_milestone_payload(record["milestone"], f"{where}: milestone", index) \
        if "milestone" in record else None
    parameters = parse_protocol_parameters(record["protocol_parameters"],
                                           f"{where}: protocol_parameters") \
        if "protocol_parameters" in record else None
    return MilestoneLine(where, index, timestamp, blocks, milestone_id, payload, parameters,
                         created, consumed, "created" in record and "consumed" in record)


def read_bundle_files(paths):
    lines = {}
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for number, text in enumerate(file, 1):
                if not text.strip():
                    continue
                where = f"{path}:{number}"
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as error:
                    raise BundleError(f"{where}: not JSON: {error}") from None
                line = parse_line(record, where)
                if line.index in lines:
                    raise BundleError(f"{line.where}: already given at {lines[line.index].where}")
                lines[line.index] = line
    if not lines:
        raise BundleError("the bundle files hold no milestone")
    missing = [i for i in range(min(lines), max(lines)) if i not in lines]
    if missing:
        shown = ", ".join(str(index) for index in missing[:10])
        raise BundleError(f"milestones missing from the bundles: {shown}"
                          f"{', ...' if len(missing) > 10 else ''} (a node's confirmed "
                          "milestones have no gaps)")
    return lines


# ---------------------------------------------------------------------------------------------
# Protocol parameters


def shimmer_protocol_parameters():
    """Shimmer's since its launch, serialized: u8 version, (u8)network name, (u8)bech32 HRP,
    u32 min PoW score, u8 below max depth, u32 v byte cost, u8 factor data, u8 factor key,
    u64 token supply."""
    name, hrp = b"shimmer", b"smr"
    return (bytes([STARDUST, len(name)]) + name + bytes([len(hrp)]) + hrp +
            struct.pack("<IBIBBQ", 1500, 15, 100, 1, 10, 1813620509061365))


def network_strings(params):
    """(network name, bech32 HRP): the two length-prefixed strings after the version byte."""
    name_length = params[1]
    hrp_at = 2 + name_length
    return (params[2:hrp_at].decode(errors="replace"),
            params[hrp_at + 1:hrp_at + 1 + params[hrp_at]].decode(errors="replace"))


def rename_network(params, name):
    encoded = name.encode()
    if len(encoded) > 255:
        sys.exit("inx_server: --network-name is longer than 255 bytes")
    return params[:1] + bytes([len(encoded)]) + encoded + params[2 + params[1]:]


def rename_hrp(params, hrp):
    encoded = hrp.encode()
    if len(encoded) > 255:
        sys.exit("inx_server: --hrp is longer than 255 bytes")
    hrp_at = 2 + params[1]
    return params[:hrp_at] + bytes([len(encoded)]) + encoded + params[hrp_at + 1 + params[hrp_at]:]


# ---------------------------------------------------------------------------------------------
# The ledger: the bundle files, and what follows from them


class Ledger:
    """The milestones of the bundle files by index, with lookups built once."""

    def __init__(self, lines, network_name=None, hrp=None):
        self.lines = lines
        self.first = min(lines)
        self.last = max(lines)
        self.parameters = self._parameters_in_force(network_name, hrp)
        self.index_of_milestone_id = {line.milestone_id: index for index, line in lines.items()
                                      if line.milestone_id is not None}
        self.block_positions = {}  # block ID -> (milestone index, white-flag index)
        for index in range(self.first, self.last + 1):
            for position, block in enumerate(lines[index].blocks):
                self.block_positions.setdefault(block.block_id, (index, position))

    def _parameters_in_force(self, network_name, hrp):
        """Milestone index -> (protocol version, params bytes), each line's or the last given."""
        current = self.lines[self.first].protocol_parameters
        if current is None:
            log("the first line has no protocol_parameters: serving Shimmer's")
            current = (STARDUST, shimmer_protocol_parameters())
        in_force = {}
        for index in range(self.first, self.last + 1):
            current = self.lines[index].protocol_parameters or current
            version, params = current
            if network_name is not None:
                params = rename_network(params, network_name)
            if hrp is not None:
                params = rename_hrp(params, hrp)
            in_force[index] = (version, params)
        return in_force

    def outputs_at(self, ledger_index):
        """(unspent, spent) after the milestones up to ledger_index: output ID -> BookedOutput,
        output ID -> (SpentOutput, the MilestoneLine that spent it). A milestone's created
        outputs are booked before its consumed ones are removed, since a transaction may spend
        an output of the same milestone."""
        unspent, spent = {}, {}
        for index in range(self.first, ledger_index + 1):
            line = self.lines[index]
            for output in line.created:
                unspent[output.output_id] = output
            for spent_output in line.consumed:
                unspent.pop(spent_output.output.output_id, None)
                spent[spent_output.output.output_id] = (spent_output, line)
        return unspent, spent


# ---------------------------------------------------------------------------------------------
# The node: what changes while it runs


class Node:
    """How far the node has confirmed, and what it has pruned."""

    def __init__(self, ledger, pruning_index, confirmed):
        self.ledger = ledger
        self.pruning_index = pruning_index
        self._confirmed = confirmed
        self._changed = threading.Condition()
        self._stopping = False

    @property
    def confirmed(self):
        with self._changed:
            return self._confirmed

    def confirm_next(self):
        """Confirms one more milestone; False when the bundles hold no more."""
        with self._changed:
            if self._confirmed >= self.ledger.last:
                return False
            self._confirmed += 1
            self._changed.notify_all()
            return True

    def wait_until_confirmed(self, index, context):
        """True once milestone `index` is confirmed; False if the call or the server ends first."""
        with self._changed:
            while self._confirmed < index:
                if self._stopping or not context.is_active():
                    return False
                self._changed.wait(0.2)
            return True

    def stop(self):
        with self._changed:
            self._stopping = True
            self._changed.notify_all()

    def why_missing(self, index):
        """None if the node serves milestone `index`, else why not."""
        if index <= self.pruning_index:
            return f"milestone {index} is pruned (pruning index {self.pruning_index})"
        if index > self.confirmed:
            return f"milestone {index} is not confirmed (confirmed index {self.confirmed})"
        return None


class CrashSwitch:
    """--exit-after N: the node serves N cones whole, then dies (os._exit(3)) halfway through
    the next ReadMilestoneCone: a crash in the middle of a stream."""

    def __init__(self, limit):
        self.limit = limit
        self.started = 0
        self.lock = threading.Lock()

    def blocks_before_crash(self, cone_size):
        """None to stream the whole cone, else how many of its blocks to send before dying."""
        with self.lock:
            ticket = self.started
            self.started += 1
        if self.limit is None or ticket < self.limit:
            return None
        return cone_size // 2

    @staticmethod
    def crash(sent):
        log(f"--exit-after: crashing after {sent} blocks of this cone")
        os._exit(3)


# ---------------------------------------------------------------------------------------------
# Messages


class Messages:
    """Builds the INX messages of the ledger's records."""

    def __init__(self, pb, ledger):
        self.pb = pb
        self.ledger = ledger

    def protocol_parameters(self, index):
        version, params = self.ledger.parameters[index]
        return self.pb.RawProtocolParameters(protocol_version=version, params=params)

    def milestone(self, line):
        info = self.pb.MilestoneInfo(milestone_index=line.index,
                                     milestone_timestamp=line.timestamp)
        if line.milestone_id is not None:
            info.milestone_id.id = line.milestone_id
        message = self.pb.Milestone(milestone_info=info)
        if line.milestone_payload is not None:
            message.milestone.data = line.milestone_payload
        return message

    def block_metadata(self, line, position):
        block = line.blocks[position]
        return self.pb.BlockMetadata(
            block_id=self.pb.BlockId(id=block.block_id),
            parents=[self.pb.BlockId(id=parent) for parent in block.parents],
            solid=True,
            referenced_by_milestone_index=line.index,
            milestone_index=block.milestone_index,
            ledger_inclusion_state=block.inclusion_state,
            conflict_reason=block.conflict_reason,
            white_flag_index=position)

    def ledger_output(self, booked):
        return self.pb.LedgerOutput(
            output_id=self.pb.OutputId(id=booked.output_id),
            blockId=self.pb.BlockId(id=booked.block_id),
            milestone_index_booked=booked.index_booked,
            milestone_timestamp_booked=booked.timestamp_booked,
            output=self.pb.RawOutput(data=booked.output))

    def ledger_spent(self, spent, line):
        return self.pb.LedgerSpent(
            output=self.ledger_output(spent.output),
            transaction_id_spent=self.pb.TransactionId(id=spent.transaction_id),
            milestone_index_spent=line.index,
            milestone_timestamp_spent=line.timestamp)

    def batch_marker(self, index, marker_type, consumed_count, created_count):
        marker = self.pb.LedgerUpdate.Marker(milestone_index=index, marker_type=marker_type,
                                             consumed_count=consumed_count,
                                             created_count=created_count)
        return self.pb.LedgerUpdate(batch_marker=marker)


def flip_last_byte(booked):
    """--disagree-at: the same output ID with its serialized output's last byte inverted."""
    data = booked.output[:-1] + bytes([booked.output[-1] ^ 0xFF]) if booked.output else b"\xff"
    return dataclasses.replace(booked, output=data)


# ---------------------------------------------------------------------------------------------
# The INX service


class InxService:
    def __init__(self, pb, node, options):
        self.pb = pb
        self.node = node
        self.ledger = node.ledger
        self.messages = Messages(pb, node.ledger)
        self.delay = options.delay_ms / 1000.0
        self.disagree_at = options.disagree_at
        self.disagree_by = options.disagree_by
        self.crash_switch = CrashSwitch(options.exit_after)
        # The two streams that carry nearly every byte, serialized once before the server
        # listens, as a node holds its blocks and ledger diffs already in its database: a sync's
        # speed is then the sync's, not how fast this Python builds messages.
        self.cone_messages = {index: self.serialized_cone(line)
                              for index, line in self.ledger.lines.items()}
        self.update_messages = {index: self.serialized_updates(line)
                                for index, line in self.ledger.lines.items()}

    def serialized_cone(self, line):
        return [self.pb.BlockWithMetadata(metadata=self.messages.block_metadata(line, position),
                                          block=self.pb.RawBlock(data=block.data))
                .SerializeToString() for position, block in enumerate(line.blocks)]

    def serialized_updates(self, line):
        """A milestone's LedgerUpdate messages: BEGIN, consumed, created, END."""
        begin, finish = self.pb.LedgerUpdate.Marker.BEGIN, self.pb.LedgerUpdate.Marker.END
        consumed, created = self.ledger_changes(line)
        updates = [self.messages.batch_marker(line.index, begin, len(consumed), len(created))]
        updates += [self.pb.LedgerUpdate(consumed=self.messages.ledger_spent(spent, line))
                    for spent in consumed]
        updates += [self.pb.LedgerUpdate(created=self.messages.ledger_output(booked))
                    for booked in created]
        updates.append(self.messages.batch_marker(line.index, finish, len(consumed), len(created)))
        return [update.SerializeToString() for update in updates]

    def handlers(self):
        pb = self.pb

        def unary(method, request, response):
            return grpc.unary_unary_rpc_method_handler(
                method, request_deserializer=request.FromString,
                response_serializer=response.SerializeToString)

        def stream(method, request, response):
            return grpc.unary_stream_rpc_method_handler(
                method, request_deserializer=request.FromString,
                response_serializer=response.SerializeToString)

        def serialized_stream(method, request):
            return grpc.unary_stream_rpc_method_handler(
                method, request_deserializer=request.FromString,
                response_serializer=lambda data: data)

        return {
            "ReadNodeStatus": unary(self.read_node_status, pb.NoParams, pb.NodeStatus),
            "ReadNodeConfiguration": unary(self.read_node_configuration, pb.NoParams,
                                           pb.NodeConfiguration),
            "ReadProtocolParameters": unary(self.read_protocol_parameters, pb.MilestoneRequest,
                                            pb.RawProtocolParameters),
            "ReadMilestone": unary(self.read_milestone, pb.MilestoneRequest, pb.Milestone),
            "ListenToLatestMilestones": stream(self.listen_to_latest_milestones, pb.NoParams,
                                               pb.Milestone),
            "ListenToConfirmedMilestones": stream(self.listen_to_confirmed_milestones,
                                                  pb.MilestoneRangeRequest,
                                                  pb.MilestoneAndProtocolParameters),
            "ReadMilestoneCone": serialized_stream(self.read_milestone_cone, pb.MilestoneRequest),
            "ReadMilestoneConeMetadata": stream(self.read_milestone_cone_metadata,
                                                pb.MilestoneRequest, pb.BlockMetadata),
            "ReadBlock": unary(self.read_block, pb.BlockId, pb.RawBlock),
            "ReadBlockMetadata": unary(self.read_block_metadata, pb.BlockId, pb.BlockMetadata),
            "ReadUnspentOutputs": stream(self.read_unspent_outputs, pb.NoParams,
                                         pb.UnspentOutput),
            "ListenToLedgerUpdates": serialized_stream(self.listen_to_ledger_updates,
                                                       pb.MilestoneRangeRequest),
            "ReadOutput": unary(self.read_output, pb.OutputId, pb.OutputResponse),
        }

    # --- shared steps

    @staticmethod
    def abort(context, code, message):
        log(f"  -> {code.name}: {message}")
        context.abort(code, message)

    @staticmethod
    def named(request):
        """How a log line names the milestone a MilestoneRequest asks for."""
        if request.milestone_index or not request.HasField("milestone_id"):
            return str(request.milestone_index)
        return f"ID 0x{request.milestone_id.id.hex()}"

    @staticmethod
    def range_named(request):
        return f"{request.start_milestone_index}..{request.end_milestone_index or 'forever'}"

    def pace(self):
        """--delay-ms: a slow node, before each streamed message."""
        if self.delay > 0:
            time.sleep(self.delay)

    def requested_index(self, request, context):
        """The milestone a MilestoneRequest names: its index, or when that is 0 its ID."""
        if request.milestone_index:
            return request.milestone_index
        if request.HasField("milestone_id"):
            index = self.ledger.index_of_milestone_id.get(request.milestone_id.id)
            if index is None:
                self.abort(context, grpc.StatusCode.NOT_FOUND,
                           f"no milestone with ID 0x{request.milestone_id.id.hex()}")
            return index
        self.abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                   "the request names neither a milestone index nor a milestone ID")

    def served_line(self, index, context):
        """The line of milestone `index`, if the node has it (not pruned, confirmed)."""
        why = self.node.why_missing(index)
        if why is not None:
            self.abort(context, grpc.StatusCode.NOT_FOUND, why)
        return self.ledger.lines[index]

    def stream_range(self, request, context):
        """(start, end) of a MilestoneRangeRequest: start 0 means the milestones confirmed
        from now on, end 0 means forever."""
        start = request.start_milestone_index or self.node.confirmed + 1
        end = request.end_milestone_index
        if start <= self.node.pruning_index:
            self.abort(context, grpc.StatusCode.NOT_FOUND,
                       f"start milestone {start} is pruned (pruning index "
                       f"{self.node.pruning_index})")
        if end and end < start:
            self.abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                       f"end milestone {end} is before start milestone {start}")
        return start, end

    def confirmed_indexes(self, start, end, context):
        """start, start + 1, ... up to end (0: forever), each once the node has confirmed it.
        Past the bundles' last milestone it waits, as a node does for the next milestone."""
        index = start
        while end == 0 or index <= end:
            if not self.node.wait_until_confirmed(index, context):
                return
            yield index
            index += 1

    def block_position(self, request, context):
        position = self.ledger.block_positions.get(request.id)
        why = f"block 0x{request.id.hex()} is unknown" if position is None \
            else self.node.why_missing(position[0])
        if why is not None:
            self.abort(context, grpc.StatusCode.NOT_FOUND, why)
        return position

    # --- the node

    def read_node_status(self, request, context):
        confirmed = self.node.confirmed
        pruning = self.node.pruning_index
        log(f"ReadNodeStatus: confirmed {confirmed}, pruning {pruning}")
        milestone = self.messages.milestone(self.ledger.lines[confirmed])
        return self.pb.NodeStatus(
            is_healthy=True, is_synced=True, is_almost_synced=True,
            latest_milestone=milestone, confirmed_milestone=milestone,
            current_protocol_parameters=self.messages.protocol_parameters(confirmed),
            tangle_pruning_index=pruning, milestones_pruning_index=pruning,
            ledger_pruning_index=pruning, ledger_index=confirmed)

    def read_node_configuration(self, request, context):
        _, params = self.ledger.parameters[self.node.confirmed]
        network, hrp = network_strings(params)
        log(f"ReadNodeConfiguration: network {network}")
        if hrp in ("iota", "atoi"):
            token = self.pb.BaseToken(name="IOTA", ticker_symbol="IOTA", unit="IOTA",
                                      subunit="micro", decimals=6)
        else:
            token = self.pb.BaseToken(name="Shimmer", ticker_symbol="SMR", unit="SMR",
                                      subunit="glow", decimals=6)
        return self.pb.NodeConfiguration(milestone_public_key_count=0, base_token=token,
                                         supported_protocol_versions=[STARDUST])

    def read_protocol_parameters(self, request, context):
        """Index 0 without an ID, or an index past the confirmed one: the current parameters."""
        log(f"ReadProtocolParameters {self.named(request)}")
        confirmed = self.node.confirmed
        index = confirmed
        if request.milestone_index or request.HasField("milestone_id"):
            index = min(self.requested_index(request, context), confirmed)
        if index < self.ledger.first:
            self.abort(context, grpc.StatusCode.NOT_FOUND,
                       f"milestone {index} is before the node's history ({self.ledger.first})")
        return self.messages.protocol_parameters(index)

    # --- milestones

    def read_milestone(self, request, context):
        log(f"ReadMilestone {self.named(request)}")
        index = self.requested_index(request, context)
        line = self.served_line(index, context)
        if line.milestone_payload is None or line.milestone_id is None:
            self.abort(context, grpc.StatusCode.NOT_FOUND,
                       f"milestone {index}: its bundle line has no milestone/milestone_id")
        return self.messages.milestone(line)

    def listen_to_latest_milestones(self, request, context):
        log("ListenToLatestMilestones")
        for index in self.confirmed_indexes(self.node.confirmed + 1, 0, context):
            self.pace()
            yield self.messages.milestone(self.ledger.lines[index])

    def listen_to_confirmed_milestones(self, request, context):
        log(f"ListenToConfirmedMilestones {self.range_named(request)}")
        start, end = self.stream_range(request, context)
        for index in self.confirmed_indexes(start, end, context):
            self.pace()
            yield self.pb.MilestoneAndProtocolParameters(
                milestone=self.messages.milestone(self.ledger.lines[index]),
                current_protocol_parameters=self.messages.protocol_parameters(index))

    def read_milestone_cone(self, request, context):
        log(f"ReadMilestoneCone {self.named(request)}")
        index = self.requested_index(request, context)
        line = self.served_line(index, context)
        crash_after = self.crash_switch.blocks_before_crash(len(line.blocks))
        for position, message in enumerate(self.cone_messages[index]):
            if position == crash_after:
                self.crash_switch.crash(position)
            self.pace()
            yield message
        if crash_after is not None:  # an empty cone: nothing to cut in half
            self.crash_switch.crash(0)

    def read_milestone_cone_metadata(self, request, context):
        log(f"ReadMilestoneConeMetadata {self.named(request)}")
        index = self.requested_index(request, context)
        line = self.served_line(index, context)
        for position in range(len(line.blocks)):
            self.pace()
            yield self.messages.block_metadata(line, position)

    # --- blocks

    def read_block(self, request, context):
        log(f"ReadBlock 0x{request.id.hex()}")
        index, position = self.block_position(request, context)
        return self.pb.RawBlock(data=self.ledger.lines[index].blocks[position].data)

    def read_block_metadata(self, request, context):
        log(f"ReadBlockMetadata 0x{request.id.hex()}")
        index, position = self.block_position(request, context)
        return self.messages.block_metadata(self.ledger.lines[index], position)

    # --- the ledger

    def read_unspent_outputs(self, request, context):
        ledger_index = self.node.confirmed
        unspent, _ = self.ledger.outputs_at(ledger_index)
        log(f"ReadUnspentOutputs: {len(unspent)} outputs at ledger index {ledger_index}")
        for booked in unspent.values():
            self.pace()
            yield self.pb.UnspentOutput(ledgerIndex=ledger_index,
                                        output=self.messages.ledger_output(booked))

    def ledger_changes(self, line):
        """(consumed, created) of a milestone, as this node reports them."""
        if not line.has_ledger_fields:
            log(f"  milestone {line.index}: no created/consumed in its line: reporting its "
                "snapshot_outputs as created, nothing consumed")
        created = list(line.created)
        if line.index == self.disagree_at:
            if created and self.disagree_by == "id":
                created.pop()
                log(f"  milestone {line.index}: --disagree-at: last created output left out")
            elif created:
                created.append(flip_last_byte(created.pop()))
                log(f"  milestone {line.index}: --disagree-at: last created output altered")
            else:
                log(f"  milestone {line.index}: --disagree-at: no created output to alter")
        return line.consumed, created

    def listen_to_ledger_updates(self, request, context):
        log(f"ListenToLedgerUpdates {self.range_named(request)}")
        start, end = self.stream_range(request, context)
        for index in self.confirmed_indexes(start, end, context):
            for update in self.update_messages[index]:
                self.pace()
                yield update

    def read_output(self, request, context):
        log(f"ReadOutput 0x{request.id.hex()}")
        ledger_index = self.node.confirmed
        unspent, spent = self.ledger.outputs_at(ledger_index)
        if request.id in unspent:
            return self.pb.OutputResponse(
                ledger_index=ledger_index,
                output=self.messages.ledger_output(unspent[request.id]))
        if request.id in spent:
            return self.pb.OutputResponse(
                ledger_index=ledger_index,
                spent=self.messages.ledger_spent(*spent[request.id]))
        self.abort(context, grpc.StatusCode.NOT_FOUND,
                   f"output 0x{request.id.hex()} is unknown at ledger index {ledger_index}")


# ---------------------------------------------------------------------------------------------
# Running


def parse_arguments():
    parser = argparse.ArgumentParser(
        description="A test INX server (Hornet 2.x, Stardust) serving a ledger from bundle files.")
    parser.add_argument("bundles", nargs="+", metavar="BUNDLE_FILE",
                        help="NDJSON milestone bundles, Stardust, optionally with node fields")
    parser.add_argument("--proto", default=DEFAULT_PROTO, help="inx.proto (default: the repo's)")
    parser.add_argument("--port", type=int, default=0,
                        help="port on 127.0.0.1 (default 0: any free one)")
    parser.add_argument("--pruning-index", type=int, default=0,
                        help="milestones <= P are pruned (default: the one before the first)")
    parser.add_argument("--confirmed", type=int,
                        help="milestones up to N are confirmed at start (default: all)")
    parser.add_argument("--confirm-every", type=float, metavar="SECONDS",
                        help="confirm one more milestone every SECONDS, to the bundles' end")
    parser.add_argument("--exit-after", type=int, metavar="N",
                        help="exit abruptly (code 3) halfway through the cone after N whole ones")
    parser.add_argument("--delay-ms", type=float, default=0,
                        help="sleep D ms before each streamed message")
    parser.add_argument("--disagree-at", type=int, metavar="M",
                        help="milestone M's ledger update alters its last created output "
                             "(its output bytes' last byte inverted)")
    parser.add_argument("--disagree-by", choices=("bytes", "id"), default="bytes",
                        help="how --disagree-at alters the updates: the output's bytes (same "
                             "ID), or by leaving the output out (default: bytes)")
    parser.add_argument("--network-name", help="serve protocol parameters with this network name")
    parser.add_argument("--hrp", help="serve protocol parameters with this bech32 HRP")
    return parser.parse_args()


def make_node(ledger, options):
    """The node's starting state; pruning and confirmed indexes checked against the bundles."""
    pruning = max(options.pruning_index, ledger.first - 1)
    confirmed = ledger.last if options.confirmed is None else options.confirmed
    if not max(ledger.first, pruning) <= confirmed <= ledger.last:
        sys.exit(f"inx_server: --confirmed {confirmed} is outside {max(ledger.first, pruning)}.."
                 f"{ledger.last} (the bundles hold {ledger.first}..{ledger.last}, pruning "
                 f"index {pruning})")
    return Node(ledger, pruning, confirmed)


def confirm_periodically(node, seconds, stopped):
    while not stopped.wait(seconds):
        if not node.confirm_next():
            log("--confirm-every: every milestone of the bundles is confirmed")
            return
        log(f"confirmed milestone {node.confirmed}")


def start_server(service, port):
    # so_reuseport off: a second server on a port still in use must fail, not share it.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=32),
                         options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("inx.INX", service.handlers()),))
    try:
        bound = server.add_insecure_port(f"127.0.0.1:{port}")
    except RuntimeError:
        bound = 0
    if not bound:
        sys.exit(f"inx_server: cannot listen on 127.0.0.1:{port}")
    server.start()
    return server, bound


def main():
    options = parse_arguments()
    pb = load_inx_messages(options.proto)
    try:
        ledger = Ledger(read_bundle_files(options.bundles), options.network_name, options.hrp)
    except (BundleError, OSError) as error:
        sys.exit(f"inx_server: {error}")
    node = make_node(ledger, options)
    log(f"milestones {ledger.first}..{ledger.last}, confirmed {node.confirmed}, "
        f"pruning index {node.pruning_index}")
    server, port = start_server(InxService(pb, node, options), options.port)
    print(f"INX listening on 127.0.0.1:{port}", flush=True)

    stopped = threading.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signal_number, lambda *_: stopped.set())
    if options.confirm_every:
        threading.Thread(target=confirm_periodically, args=(node, options.confirm_every, stopped),
                         daemon=True).start()
    while not stopped.wait(0.5):
        pass
    log("stopping")
    node.stop()
    server.stop(grace=1).wait()


if __name__ == "__main__":
    main()
