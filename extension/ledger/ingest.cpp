/*
 * ingest.cpp
 *	  SQL entry points of ingest: permanode.ingest_milestone(), ingest_node_milestone() (the
 *	  same, checked against the node's ledger updates, for `permanode sync`), and the helpers
 *	  encode_output() and decode_block() that let SQL build and inspect its inputs.
 *
 *	  ingest_milestone decodes the cone once (derive.cpp, free of PostgreSQL), then, under an
 *	  advisory lock on the milestone index, returns early if the milestone's sync row exists, or
 *	  makes the partitions of its range and writes every table set-based (writer.cpp). All of it
 *	  runs in the caller's transaction, so an error leaves nothing behind.
 */
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error_position.hpp"
#include "codec/error.hpp"
#include "codec/ids.hpp"
#include "codec/json.hpp"
#include "codec/output.hpp"
#include "ledger/analytics.hpp"
#include "ledger/cone_input.hpp"
#include "ledger/derive.hpp"
#include "ledger/node_updates.hpp"

extern "C"
{
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

    PG_FUNCTION_INFO_V1(permanode_ingest_milestone);
    PG_FUNCTION_INFO_V1(permanode_ingest_node_milestone);
    PG_FUNCTION_INFO_V1(permanode_encode_output);
    PG_FUNCTION_INFO_V1(permanode_decode_block);
    PG_FUNCTION_INFO_V1(permanode_decode_message);
    PG_FUNCTION_INFO_V1(permanode_decode_protocol_parameters);
    PG_FUNCTION_INFO_V1(permanode_flush_hint_counts);
}

#include "ledger/partitions.hpp"
#include "ledger/writer.hpp"
#include "pgcpp/guard.hpp"

#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ledger = permanode::ledger;
using ledger::BytesOf;
using ledger::InvalidArgument;
namespace codec = permanode::codec;
using permanode::pg::CallPg;
using permanode::pg::Guarded;
using permanode::pg::PgError;

namespace
{

enum IngestArg
{
    kMilestoneIndexArg,
    kMilestoneTimestampArg,
    kBlocksArg,
    kInclusionStatesArg,
    kConflictReasonsArg,
    kSnapshotOutputsArg,
    kProtocolVersionArg,
    // ingest_node_milestone's
    kNodeCreatedArg,
    kNodeConsumedArg,
    kPreviousArg,
};

// The snapshot_output composites, read field by field.
struct SnapshotFields
{
    const uint8_t *output_id = nullptr;
    const uint8_t *block_id = nullptr;
    Datum output = 0;
    bool has_null = false;
};

std::vector<ledger::SnapshotInput> SnapshotInputs(const ledger::ArrayArg &arg)
{
    std::vector<ledger::SnapshotInput> inputs;
    if (!arg.given)
        return inputs;
    std::vector<SnapshotFields> fields(arg.count);
    SnapshotFields *out = fields.data();
    CallPg(
        [&]
        {
            for (int i = 0; i < arg.count; ++i)
            {
                if (arg.nulls[i])
                {
                    out[i].has_null = true;
                    continue;
                }
                HeapTupleHeader tuple = DatumGetHeapTupleHeader(arg.values[i]);
                bool null_id = false, null_block = false, null_output = false;
                Datum id = GetAttributeByNum(tuple, 1, &null_id);
                Datum block = GetAttributeByNum(tuple, 2, &null_block);
                Datum output = GetAttributeByNum(tuple, 3, &null_output);
                out[i].has_null = null_id || null_block || null_output;
                if (out[i].has_null)
                    continue;
                out[i].output_id = reinterpret_cast<const uint8_t *>(DatumGetPointer(id));
                out[i].block_id = reinterpret_cast<const uint8_t *>(DatumGetPointer(block));
                out[i].output = PointerGetDatum(PG_DETOAST_DATUM_PACKED(output));
            }
        });
    inputs.reserve(arg.count);
    for (int i = 0; i < arg.count; ++i)
    {
        if (fields[i].has_null)
            throw InvalidArgument("snapshot output " + std::to_string(i) + " is or has a null");
        ledger::SnapshotInput input;
        codec::OutputIdBytes id{};
        std::memcpy(id.data(), fields[i].output_id, id.size());
        input.output_id = codec::OutputIdFromBytes(id);
        std::memcpy(input.block_id.data(), fields[i].block_id, input.block_id.size());
        input.bytes = BytesOf(fields[i].output);
        inputs.push_back(input);
    }
    return inputs;
}

// An output_id[] argument (NULL: none).
std::vector<codec::OutputIdBytes> OutputIdsArg(FunctionCallInfo fcinfo, int arg, const char *what)
{
    ledger::ArrayArg ids;
    CallPg([&] { ledger::DeconstructArg(fcinfo, arg, ids); });
    std::vector<codec::OutputIdBytes> out(static_cast<std::size_t>(ids.count));
    for (int i = 0; i < ids.count; ++i)
    {
        if (ids.nulls[i])
            throw InvalidArgument(std::string(what) + " output " + std::to_string(i) + " is null");
        std::memcpy(out[i].data(), DatumGetPointer(ids.values[i]), out[i].size());
    }
    return out;
}

struct IngestResult
{
    bool already_ingested = false;
    int32 messages = 0;
    int32 outputs = 0;
    int32 spent = 0;
};

const char *EraName(int protocol_version)
{
    return protocol_version == ledger::kChrysalisProtocol ? "Chrysalis" : "Stardust";
}

// One network's eras follow each other: refuses a milestone at or beyond one of a later
// protocol, or at or before one of an earlier protocol, after the other eras' ingests in
// progress commit (statements.cpp, kEraLock). Inside SPI_connect.
void CheckEra(std::uint8_t protocol_version, int32 milestone_index)
{
    if (!ledger::Prepared(ledger::sql::kEraBounds)) // a schema older than 0.5.0: Stardust only
        return;
    ledger::Params era = ledger::Params().SetInt32("protocol_version", protocol_version);
    ledger::Execute(ledger::sql::kEraLock, era);
    ledger::Execute(ledger::sql::kEraWait, era);
    ledger::Execute(ledger::sql::kEraBounds,
                    ledger::Params().SetInt16("protocol_version", protocol_version));
    for (uint64 i = 0; i < SPI_processed; ++i)
    {
        HeapTuple tuple = SPI_tuptable->vals[i];
        bool isnull = false;
        int other = DatumGetInt16(SPI_getbinval(tuple, SPI_tuptable->tupdesc, 1, &isnull));
        Datum bound = SPI_getbinval(tuple, SPI_tuptable->tupdesc, 2, &isnull);
        if (isnull)
            continue;
        int32 held = DatumGetInt32(bound);
        bool earlier = other < protocol_version;
        if (earlier ? held < milestone_index : held > milestone_index)
            continue;
        throw PgError(
            ERRCODE_INVALID_PARAMETER_VALUE,
            std::string(EraName(protocol_version)) + " milestone " +
                std::to_string(milestone_index) + " overlaps the " + EraName(other) +
                " milestones this database holds (" + (earlier ? "up to " : "from ") +
                std::to_string(held) + ")",
            std::string("One network's eras do not overlap: ") + EraName(other) +
                " milestones come " + (earlier ? "before " : "after ") + EraName(protocol_version) +
                " ones.",
            "Is the bundle's protocol_version right, or is this another network's ledger?");
    }
}

// Whether the milestone's sync row exists: committed, or written by this transaction.
bool IsSynced(const ledger::Ranges &ranges, std::uint32_t milestone_index)
{
    return ledger::Execute(ledger::sql::kIsSynced,
                           ledger::Params()
                               .SetInt32("ms_range_id", ranges.Of("sync"))
                               .SetInt32("milestone_index", static_cast<int32>(milestone_index))) >
           0;
}

// Writes the milestone unless its sync row exists; refuses it while `previous` (when given) is
// not archived. Inside SPI_connect.
IngestResult WriteMilestone(const ledger::MilestoneRows &rows, std::optional<int32> previous)
{
    const ledger::TypeOids &types = ledger::PrepareStatements();
    int32 milestone_index = static_cast<int32>(rows.milestone_index);

    ledger::Execute(ledger::sql::kLock,
                    ledger::Params().SetInt32("milestone_index", milestone_index));
    if (previous && !IsSynced(ledger::ReadRanges(static_cast<std::uint32_t>(*previous)),
                              static_cast<std::uint32_t>(*previous)))
        throw PgError(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                      "milestone " + std::to_string(milestone_index) + ": milestone " +
                          std::to_string(*previous) + " before it is not archived",
                      {}, "Milestones are archived in order: archive the one before first.");

    CheckEra(rows.protocol_version, milestone_index);
    ledger::Ranges ranges = ledger::ReadRanges(rows.milestone_index);
    IngestResult result;
    if (IsSynced(ranges, rows.milestone_index))
    {
        result.already_ingested = true;
        return result;
    }

    // Partitions for this milestone's range, and for the milestones whose payloads the cone
    // carries (usually the previous one, in the same range).
    std::set<std::pair<std::string, int32>> partitions;
    for (const ledger::MilestoneRow &m : rows.milestones)
        for (const auto &partition : ranges.AllOf(m.index))
            partitions.insert(partition);
    for (const auto &partition : ranges.AllOf(rows.milestone_index))
        partitions.insert(partition);
    for (const auto &[table, ms_range_id] : partitions)
        CallPg([&] { ledger::EnsurePartition(table.c_str(), ms_range_id); });

    ledger::MilestoneWriter writer(rows, types, ranges);
    writer.WriteBlocks();
    std::vector<ledger::KnownOutput> spent = writer.WriteSpends();
    writer.WriteOutputs();
    ledger::MilestoneAnalytics analytics = ledger::DeriveAnalytics(rows, spent);
    writer.WriteAnalytics(analytics);
    writer.WriteHints(analytics);
    writer.WriteDailyMetrics(analytics);
    writer.WriteSync();
    writer.WriteStream(spent);

    result.messages = static_cast<int32>(rows.messages.size());
    result.outputs = static_cast<int32>(rows.outputs.size());
    result.spent = static_cast<int32>(rows.spends.size());
    return result;
}

// ingest_milestone, and with `checked` ingest_node_milestone.
Datum IngestMilestone(FunctionCallInfo fcinfo, bool checked)
{
    if (PG_ARGISNULL(kMilestoneIndexArg) || PG_ARGISNULL(kMilestoneTimestampArg) ||
        PG_ARGISNULL(kBlocksArg) || PG_ARGISNULL(kInclusionStatesArg))
        throw InvalidArgument("milestone_index, milestone_timestamp, blocks and inclusion_states "
                              "must not be null");
    int32 milestone_index = PG_GETARG_INT32(kMilestoneIndexArg);
    if (milestone_index < 0)
        throw InvalidArgument("invalid milestone index " + std::to_string(milestone_index));
    int64 milestone_timestamp = PG_GETARG_INT64(kMilestoneTimestampArg);
    if (milestone_timestamp < 0 || milestone_timestamp > UINT32_MAX)
        throw InvalidArgument("invalid milestone timestamp " + std::to_string(milestone_timestamp),
                              "Milestone timestamps are unix seconds that fit in 32 bits.");

    int16 protocol_version = ledger::kStardustProtocol;
    if (PG_NARGS() > kProtocolVersionArg && !PG_ARGISNULL(kProtocolVersionArg))
        protocol_version = PG_GETARG_INT16(kProtocolVersionArg);
    if (protocol_version != ledger::kChrysalisProtocol &&
        protocol_version != ledger::kStardustProtocol)
        throw InvalidArgument("invalid protocol version " + std::to_string(protocol_version),
                              "Cones are of protocol 1 (Chrysalis messages) or 2 (Stardust "
                              "blocks).");

    std::vector<ledger::BlockInput> inputs =
        ledger::ReadCone(fcinfo, kBlocksArg, kInclusionStatesArg, kConflictReasonsArg);
    ledger::ArrayArg snapshot;
    CallPg([&] { ledger::DeconstructArg(fcinfo, kSnapshotOutputsArg, snapshot); });
    std::vector<ledger::SnapshotInput> snapshot_inputs = SnapshotInputs(snapshot);

    ledger::MilestoneRows rows = ledger::DeriveCone(
        static_cast<std::uint8_t>(protocol_version), static_cast<uint32_t>(milestone_index),
        static_cast<uint32_t>(milestone_timestamp), inputs, snapshot_inputs);

    std::optional<int32> previous;
    if (checked)
    {
        ledger::CheckNodeUpdates(rows, {OutputIdsArg(fcinfo, kNodeCreatedArg, "created"),
                                        OutputIdsArg(fcinfo, kNodeConsumedArg, "consumed")});
        if (!PG_ARGISNULL(kPreviousArg))
            previous = PG_GETARG_INT32(kPreviousArg);
    }

    CallPg([] { SPI_connect(); });
    IngestResult result = WriteMilestone(rows, previous);
    CallPg([] { SPI_finish(); });

    Datum tuple = 0;
    CallPg(
        [&]
        {
            TupleDesc desc;
            if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
                elog(ERROR, "ingest_milestone must return a composite");
            desc = BlessTupleDesc(desc);
            Datum values[5] = {Int32GetDatum(milestone_index),
                               BoolGetDatum(result.already_ingested),
                               Int32GetDatum(result.messages), Int32GetDatum(result.outputs),
                               Int32GetDatum(result.spent)};
            bool nulls[5] = {false, false, false, false, false};
            tuple = HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
        });
    return tuple;
}

} // namespace

/* Ingests one milestone: its cone of raw blocks in white-flag order, their metadata, and the
 * outputs it books from a snapshot. */
extern "C" Datum permanode_ingest_milestone(PG_FUNCTION_ARGS)
{
    return Guarded([&]() -> Datum { return IngestMilestone(fcinfo, false); });
}

/* The same, refused unless the outputs the node says the milestone created and consumed are
 * those of its cone, and while the milestone before it (when named) is not archived. */
extern "C" Datum permanode_ingest_node_milestone(PG_FUNCTION_ARGS)
{
    return Guarded([&]() -> Datum { return IngestMilestone(fcinfo, true); });
}

/*
 * flush_hint_counts() of versions 0.1.0 and 0.2.0, whose install scripts still name it: hint rows
 * have no counts since 0.3.0, so there is nothing to write back.
 */
extern "C" Datum permanode_flush_hint_counts(PG_FUNCTION_ARGS)
{
    return Guarded([]() -> Datum { return Int64GetDatum(0); });
}

/* Serializes an output given in the core API's JSON shape (TIP-25). */
extern "C" Datum permanode_encode_output(PG_FUNCTION_ARGS)
{
    return Guarded(
        [&]() -> Datum
        {
            char *text = nullptr;
            CallPg(
                [&]
                {
                    Jsonb *jsonb = PG_GETARG_JSONB_P(0);
                    text = JsonbToCString(nullptr, &jsonb->root, VARSIZE(jsonb));
                });
            codec::Bytes bytes;
            try
            {
                bytes = codec::EncodeOutput(codec::OutputFromJson(nlohmann::json::parse(text)));
            }
            catch (const codec::JsonError &e)
            {
                throw InvalidArgument(std::string("invalid output JSON: ") + e.what(),
                                      "Outputs are given in the core API's JSON shape (TIP-25).");
            }
            catch (const codec::EncodeError &e)
            {
                throw InvalidArgument(std::string("cannot serialize the output: ") + e.what());
            }
            catch (const nlohmann::json::exception &e)
            {
                throw InvalidArgument(std::string("invalid output JSON: ") + e.what(),
                                      "Outputs are given in the core API's JSON shape (TIP-25).");
            }
            bytea *result = nullptr;
            CallPg(
                [&]
                {
                    result = static_cast<bytea *>(palloc(VARHDRSZ + bytes.size()));
                    SET_VARSIZE(result, VARHDRSZ + bytes.size());
                    std::memcpy(VARDATA(result), bytes.data(), bytes.size());
                });
            return PointerGetDatum(result);
        },
        ERRCODE_INVALID_PARAMETER_VALUE);
}

namespace
{

// Renders argument 0 (raw bytes) as jsonb with `to_json`; a DecodeError is 22P02 naming `what`.
template <typename ToJsonText>
Datum DecodeToJsonb(FunctionCallInfo fcinfo, const char *what, ToJsonText to_json)
{
    Datum raw = 0;
    CallPg([&] { raw = PointerGetDatum(PG_GETARG_BYTEA_PP(0)); });
    std::string json;
    try
    {
        json = to_json(BytesOf(raw));
    }
    catch (const codec::DecodeError &e)
    {
        throw PgError(ERRCODE_INVALID_TEXT_REPRESENTATION,
                      std::string("could not decode ") + what + ": " + e.what());
    }
    Datum result = 0;
    CallPg([&] { result = DirectFunctionCall1(jsonb_in, CStringGetDatum(json.c_str())); });
    return result;
}

} // namespace

/* Renders a raw block in the core API's JSON shape (TIP-25). */
extern "C" Datum permanode_decode_block(PG_FUNCTION_ARGS)
{
    return Guarded(
        [&]() -> Datum
        {
            return DecodeToJsonb(fcinfo, "block",
                                 [](codec::ByteSpan bytes)
                                 { return codec::ToJson(codec::DecodeBlock(bytes)).dump(); });
        });
}

/* Renders serialized protocol parameters (TIP-32) in the core API's JSON shape. */
extern "C" Datum permanode_decode_protocol_parameters(PG_FUNCTION_ARGS)
{
    return Guarded(
        [&]() -> Datum
        {
            return DecodeToJsonb(
                fcinfo, "protocol parameters",
                [](codec::ByteSpan bytes)
                { return codec::ToJson(codec::DecodeProtocolParameters(bytes)).dump(); });
        });
}

/* Renders a raw Chrysalis message in the REST API v1's JSON shape (TIP-13). */
extern "C" Datum permanode_decode_message(PG_FUNCTION_ARGS)
{
    return Guarded(
        [&]() -> Datum
        {
            return DecodeToJsonb(
                fcinfo, "Chrysalis message",
                [](codec::ByteSpan bytes) {
                    return codec::chrysalis::ToJson(codec::chrysalis::DecodeMessage(bytes)).dump();
                });
        });
}
