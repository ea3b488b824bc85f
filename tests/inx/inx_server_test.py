#!/usr/bin/env python3
"""Smoke test of the test INX server (tests/inx/inx_server.py) against one bundle file:

    python3 tests/inx/inx_server_test.py BUNDLE_FILE

Starts the server (on a free port, with various switches), talks to it as an INX client built
from client/sync/inx.proto, and compares what it serves with the bundle file read here
independently. The last line printed is "N passed, N failed"; the exit code is 0 when none
failed.
"""

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import inx_server  # noqa: E402  (also runs this script under the system python3 if need be)

grpc = inx_server.grpc
SERVER = os.path.join(HERE, "inx_server.py")
CALL_TIMEOUT = 20
INCLUSION_STATES = {"no_transaction": 0, "noTransaction": 0, "included": 1, "conflicting": 2}


# ---------------------------------------------------------------------------------------------
# The bundle, read without the server's code


def hex_bytes(text):
    return bytes.fromhex(text[2:])


def read_bundle(path):
    with open(path, encoding="utf-8") as file:
        lines = [json.loads(text) for text in file if text.strip()]
    return sorted(lines, key=lambda line: line["milestone_index"])


def expected_created(line):
    """(output ID, block ID, output, index booked, timestamp booked) of a line's created."""
    records = line.get("created", line.get("snapshot_outputs", []))
    return [(hex_bytes(r["output_id"]), hex_bytes(r["block_id"]), hex_bytes(r["output"]),
             line["milestone_index"], line["milestone_timestamp"]) for r in records]


def expected_consumed(line):
    """(output ID, block ID, output, index booked, timestamp booked, transaction ID, index
    spent, timestamp spent) of a line's consumed."""
    return [(hex_bytes(r["output_id"]), hex_bytes(r["block_id"]), hex_bytes(r["output"]),
             r["milestone_index_booked"], r["milestone_timestamp_booked"],
             hex_bytes(r["transaction_id_spent"]), line["milestone_index"],
             line["milestone_timestamp"]) for r in line.get("consumed", [])]


def expected_unspent(lines, ledger_index):
    unspent = {}
    for line in lines:
        if line["milestone_index"] > ledger_index:
            break
        for created in expected_created(line):
            unspent[created[0]] = created
        for consumed in expected_consumed(line):
            unspent.pop(consumed[0], None)
    return sorted(unspent.values())


# ---------------------------------------------------------------------------------------------
# The server process and a client


class ServerProcess:
    """inx_server.py on a free port; stderr goes to a log file shown when a check fails."""

    def __init__(self, bundle, *switches, port=0):
        self.log = tempfile.NamedTemporaryFile(prefix="inx_server_", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [sys.executable, SERVER, "--port", str(port), *switches, bundle],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        first_line = self.process.stdout.readline().strip()
        prefix = "INX listening on "
        if not first_line.startswith(prefix):
            self.process.wait(5)
            raise RuntimeError(f"the server did not start: {first_line!r}\n{self.log_text()}")
        self.address = first_line[len(prefix):]

    def log_text(self):
        with open(self.log.name, encoding="utf-8", errors="replace") as file:
            return file.read()

    def stop(self):
        """SIGTERM, and the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(10)
        os.unlink(self.log.name)
        return code


class InxClient:
    def __init__(self, pb, address):
        self.pb = pb
        self.channel = grpc.insecure_channel(address)

    def unary(self, method, request, response_type):
        call = self.channel.unary_unary(f"/inx.INX/{method}",
                                        request_serializer=type(request).SerializeToString,
                                        response_deserializer=response_type.FromString)
        return call(request, timeout=CALL_TIMEOUT)

    def stream(self, method, request, response_type):
        call = self.channel.unary_stream(f"/inx.INX/{method}",
                                         request_serializer=type(request).SerializeToString,
                                         response_deserializer=response_type.FromString)
        return list(call(request, timeout=CALL_TIMEOUT))

    def status(self):
        return self.unary("ReadNodeStatus", self.pb.NoParams(), self.pb.NodeStatus)

    def cone(self, index):
        return self.stream("ReadMilestoneCone", self.pb.MilestoneRequest(milestone_index=index),
                           self.pb.BlockWithMetadata)

    def ledger_updates(self, start, end):
        return self.stream("ListenToLedgerUpdates",
                           self.pb.MilestoneRangeRequest(start_milestone_index=start,
                                                         end_milestone_index=end),
                           self.pb.LedgerUpdate)

    def confirmed_milestones(self, start, end):
        return self.stream("ListenToConfirmedMilestones",
                           self.pb.MilestoneRangeRequest(start_milestone_index=start,
                                                         end_milestone_index=end),
                           self.pb.MilestoneAndProtocolParameters)

    def close(self):
        self.channel.close()


def status_code(call):
    """The gRPC status code a call fails with, or None if it succeeds."""
    try:
        call()
    except grpc.RpcError as error:
        return error.code()
    return None


# ---------------------------------------------------------------------------------------------
# Checks


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}{': ' + detail if detail else ''}")


def created_tuple(output):
    return (output.output_id.id, output.blockId.id, output.output.data,
            output.milestone_index_booked, output.milestone_timestamp_booked)


def consumed_tuple(spent):
    return created_tuple(spent.output) + (spent.transaction_id_spent.id,
                                          spent.milestone_index_spent,
                                          spent.milestone_timestamp_spent)


def split_batches(pb, updates):
    """Milestone index -> (consumed, created) of a ledger update stream, checking the framing:
    BEGIN with counts, the consumed, the created, END with the same counts."""
    batches, errors = {}, []
    position = 0
    while position < len(updates):
        begin = updates[position].batch_marker
        if updates[position].WhichOneof("op") != "batch_marker" or \
                begin.marker_type != pb.LedgerUpdate.Marker.BEGIN:
            return batches, [f"element {position} is not a BEGIN marker"]
        body = updates[position + 1:position + 1 + begin.consumed_count + begin.created_count]
        consumed = [u.consumed for u in body[:begin.consumed_count]
                    if u.WhichOneof("op") == "consumed"]
        created = [u.created for u in body[begin.consumed_count:]
                   if u.WhichOneof("op") == "created"]
        if len(consumed) != begin.consumed_count or len(created) != begin.created_count:
            errors.append(f"milestone {begin.milestone_index}: batch does not match its counts")
        end_at = position + 1 + begin.consumed_count + begin.created_count
        end = updates[end_at].batch_marker if end_at < len(updates) else None
        if end is None or end.marker_type != pb.LedgerUpdate.Marker.END or \
                (end.milestone_index, end.consumed_count, end.created_count) != \
                (begin.milestone_index, begin.consumed_count, begin.created_count):
            errors.append(f"milestone {begin.milestone_index}: no matching END marker")
        batches[begin.milestone_index] = ([consumed_tuple(s) for s in consumed],
                                          [created_tuple(o) for o in created])
        position = end_at + 1
    return batches, errors


def check_status(results, client, lines):
    status = client.status()
    first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
    results.check("status: confirmed index is the file's last milestone",
                  status.confirmed_milestone.milestone_info.milestone_index == last,
                  str(status.confirmed_milestone.milestone_info.milestone_index))
    results.check("status: ledger index = confirmed, pruning index = first - 1",
                  status.ledger_index == last and status.milestones_pruning_index == first - 1,
                  f"{status.ledger_index} {status.milestones_pruning_index}")
    given = lines[0].get("protocol_parameters")
    if given:
        results.check("status: the file's protocol parameters",
                      status.current_protocol_parameters.params == hex_bytes(given["params"]))


def check_confirmed_milestones(results, client, lines):
    first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
    streamed = client.confirmed_milestones(first, last)
    results.check("ListenToConfirmedMilestones(first, last): every index in order",
                  [m.milestone.milestone_info.milestone_index for m in streamed] ==
                  [line["milestone_index"] for line in lines])
    results.check("ListenToConfirmedMilestones: timestamps and milestone IDs",
                  all(m.milestone.milestone_info.milestone_timestamp == line["milestone_timestamp"]
                      and m.milestone.milestone_info.milestone_id.id ==
                      hex_bytes(line.get("milestone_id", "0x"))
                      for m, line in zip(streamed, lines)))


def check_cones(results, client, pb, lines):
    bad = []
    for line in lines:
        index = line["milestone_index"]
        cone = client.cone(index)
        blocks = [hex_bytes(b["block"]) for b in line["blocks"]]
        if [c.block.data for c in cone] != blocks:
            bad.append(f"{index}: blocks differ")
            continue
        for position, (item, block) in enumerate(zip(cone, line["blocks"])):
            meta = item.metadata
            if meta.block_id.id != hashlib.blake2b(item.block.data, digest_size=32).digest() or \
                    meta.white_flag_index != position or \
                    meta.referenced_by_milestone_index != index or \
                    meta.ledger_inclusion_state != INCLUSION_STATES[block["inclusion_state"]] or \
                    meta.conflict_reason != block.get("conflict_reason", 0) or \
                    meta.parents[0].id != item.block.data[2:34]:
                bad.append(f"{index}: block {position} metadata")
        metadata = client.stream("ReadMilestoneConeMetadata",
                                 pb.MilestoneRequest(milestone_index=index), pb.BlockMetadata)
        if metadata != [c.metadata for c in cone]:
            bad.append(f"{index}: ReadMilestoneConeMetadata differs from the cone's")
    results.check("ReadMilestoneCone: each line's blocks in order, IDs = BLAKE2b-256, metadata",
                  not bad, "; ".join(bad[:5]))


def check_milestones_and_blocks(results, client, pb, lines):
    bad = []
    for line in lines:
        request = pb.MilestoneRequest(milestone_index=line["milestone_index"])
        if "milestone" in line:
            milestone = client.unary("ReadMilestone", request, pb.Milestone)
            if milestone.milestone.data != hex_bytes(line["milestone"]):
                bad.append(f"{line['milestone_index']}: payload differs")
            by_id = pb.MilestoneRequest(milestone_id=pb.MilestoneId(id=hex_bytes(line["milestone_id"])))
            if client.unary("ReadMilestone", by_id, pb.Milestone) != milestone:
                bad.append(f"{line['milestone_index']}: by ID differs")
        elif status_code(lambda: client.unary("ReadMilestone", request, pb.Milestone)) != \
                grpc.StatusCode.NOT_FOUND:
            bad.append(f"{line['milestone_index']}: no payload in the line, yet not NOT_FOUND")
    results.check("ReadMilestone: the line's payload by index and ID, NOT_FOUND without one",
                  not bad, "; ".join(bad[:5]))

    last = lines[-1]
    block = hex_bytes(last["blocks"][-1]["block"])
    block_id = pb.BlockId(id=hashlib.blake2b(block, digest_size=32).digest())
    raw = client.unary("ReadBlock", block_id, pb.RawBlock)
    metadata = client.unary("ReadBlockMetadata", block_id, pb.BlockMetadata)
    results.check("ReadBlock / ReadBlockMetadata of the last block",
                  raw.data == block and metadata.white_flag_index == len(last["blocks"]) - 1)
    beyond = last["milestone_index"] + 1
    results.check("ReadMilestoneCone beyond the ledger: NOT_FOUND",
                  status_code(lambda: client.cone(beyond)) == grpc.StatusCode.NOT_FOUND)
    results.check("an RPC the server does not implement: UNIMPLEMENTED",
                  status_code(lambda: client.stream("ListenToBlocks", pb.NoParams(), pb.Block))
                  == grpc.StatusCode.UNIMPLEMENTED)


def check_ledger_updates(results, client, pb, lines):
    first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
    batches, errors = split_batches(pb, client.ledger_updates(first, last))
    results.check("ListenToLedgerUpdates: BEGIN, consumed, created, END per milestone",
                  not errors and sorted(batches) == [line["milestone_index"] for line in lines],
                  "; ".join(errors[:5]))
    differing = [line["milestone_index"] for line in lines
                 if batches.get(line["milestone_index"]) !=
                 (expected_consumed(line), expected_created(line))]
    results.check("ListenToLedgerUpdates: created/consumed equal the lines'", not differing,
                  f"milestones {differing[:5]}")
    return batches


def check_pruned_node(results, bundle, pb, lines):
    """--pruning-index: old milestones are gone, the ledger is whole."""
    first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
    server = ServerProcess(bundle, "--pruning-index", str(first))
    client = InxClient(pb, server.address)
    try:
        status = client.status()
        results.check("--pruning-index: node status reports it",
                      status.tangle_pruning_index == first == status.ledger_pruning_index)
        results.check("--pruning-index: a pruned cone, ledger update, milestone is NOT_FOUND",
                      status_code(lambda: client.cone(first)) == grpc.StatusCode.NOT_FOUND and
                      status_code(lambda: client.ledger_updates(first, last)) ==
                      grpc.StatusCode.NOT_FOUND and
                      status_code(lambda: client.confirmed_milestones(first, last)) ==
                      grpc.StatusCode.NOT_FOUND)
        unspent = client.stream("ReadUnspentOutputs", pb.NoParams(), pb.UnspentOutput)
        results.check("--pruning-index: ReadUnspentOutputs = created - consumed up to the "
                      "ledger index",
                      sorted(created_tuple(u.output) for u in unspent) ==
                      expected_unspent(lines, last) and
                      all(u.ledgerIndex == last for u in unspent),
                      f"{len(unspent)} served, {len(expected_unspent(lines, last))} expected")
    finally:
        client.close()
        server.stop()


def check_disagreement(results, bundle, pb, lines, honest):
    """--disagree-at M changes exactly M's last created output."""
    target = next((line for line in lines if expected_created(line)), None)
    if target is None:
        results.check("--disagree-at: (no milestone creates outputs; nothing to check)", True)
        return
    index = target["milestone_index"]
    server = ServerProcess(bundle, "--disagree-at", str(index))
    client = InxClient(pb, server.address)
    try:
        first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
        batches, _ = split_batches(pb, client.ledger_updates(first, last))
        consumed, created = batches[index]
        good = honest[index][1]
        altered = good[-1][:2] + (good[-1][2][:-1] + bytes([good[-1][2][-1] ^ 0xFF]),) + \
            good[-1][3:]
        others_same = all(batches[i] == honest[i] for i in honest if i != index)
        results.check(f"--disagree-at {index}: only that milestone's last created output differs",
                      consumed == honest[index][0] and created[:-1] == good[:-1] and
                      created[-1] == altered and others_same)
    finally:
        client.close()
        server.stop()


def check_crash(results, bundle, pb, lines):
    """--exit-after 1: one whole cone, then the process dies (exit 3) mid-stream."""
    first = lines[0]["milestone_index"]
    server = ServerProcess(bundle, "--exit-after", "1")
    client = InxClient(pb, server.address)
    try:
        whole = client.cone(first)
        results.check("--exit-after 1: the first cone is whole", len(whole) == len(lines[0]["blocks"]))
        results.check("--exit-after 1: the second cone fails",
                      status_code(lambda: client.cone(first)) not in (None, grpc.StatusCode.NOT_FOUND))
        code = server.process.wait(10)
        results.check("--exit-after 1: the process exited with code 3", code == 3, str(code))
    finally:
        client.close()
        server.stop()


def check_live_confirmation(results, bundle, pb, lines):
    """--confirmed first --confirm-every: a stream to the end gets each milestone as it comes."""
    first, last = lines[0]["milestone_index"], lines[-1]["milestone_index"]
    server = ServerProcess(bundle, "--confirmed", str(first), "--confirm-every", "0.05",
                           "--network-name", "testnet-x")
    client = InxClient(pb, server.address)
    try:
        results.check("--confirmed: node status starts there",
                      client.status().ledger_index == first)
        started = time.monotonic()
        streamed = client.confirmed_milestones(first, last)
        results.check("--confirm-every: ListenToConfirmedMilestones waits for each one",
                      [m.milestone.milestone_info.milestone_index for m in streamed] ==
                      list(range(first, last + 1)) and
                      time.monotonic() - started >= 0.05 * (last - first) * 0.8)
        params = streamed[0].current_protocol_parameters.params
        results.check("--network-name: the served parameters carry it",
                      params[1] == len("testnet-x") and params[2:2 + params[1]] == b"testnet-x")
    finally:
        client.close()
        code = server.stop()
        results.check("SIGTERM: the server stops cleanly", code == 0, str(code))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: inx_server_test.py BUNDLE_FILE")
    bundle = sys.argv[1]
    lines = read_bundle(bundle)
    pb = inx_server.load_inx_messages(inx_server.DEFAULT_PROTO)
    results = Results()
    server = None
    try:
        server = ServerProcess(bundle)
        client = InxClient(pb, server.address)
        check_status(results, client, lines)
        check_confirmed_milestones(results, client, lines)
        check_cones(results, client, pb, lines)
        check_milestones_and_blocks(results, client, pb, lines)
        honest = check_ledger_updates(results, client, pb, lines)
        client.close()
        server.stop()
        server = None
        check_pruned_node(results, bundle, pb, lines)
        check_disagreement(results, bundle, pb, lines, honest)
        check_crash(results, bundle, pb, lines)
        check_live_confirmation(results, bundle, pb, lines)
    except Exception as error:  # a check that could not run at all fails too
        results.check("the test ran to its end", False, f"{type(error).__name__}: {error}")
        if server is not None:
            print(server.log_text())
    finally:
        if server is not None:
            server.stop()
    print(f"{results.passed} passed, {results.failed} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
