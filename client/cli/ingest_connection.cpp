// Binary-parameter, pipelined calls of permanode.ingest_milestone().
#include "ingest_connection.hpp"

#include "pg_binary.hpp"

#include "codec/ids.hpp"

#include "permanode/client.hpp"

#include <string>

namespace permanode::cli
{
namespace
{

using namespace pgbin;

constexpr const char *kStatement = "permanode_ingest_milestone";
constexpr const char *kCheckedStatement = "permanode_ingest_milestone_checked";

// An output_id[] in the binary array format: 34 bytes an element.
std::string OutputIdArray(std::uint32_t oid, const std::vector<codec::OutputId> &ids)
{
    std::string array;
    PutArrayHeader(array, oid, ids.size());
    for (const codec::OutputId &id : ids)
    {
        codec::OutputIdBytes bytes = codec::ToBytes(id);
        PutBytes(array, bytes.data(), bytes.size());
    }
    return array;
}

std::uint32_t OidAt(const pq::Result &result, int column)
{
    return static_cast<std::uint32_t>(std::stoul(std::string(result.Text(0, column))));
}

int IntAt(const pq::Result &result, int column)
{
    return std::stoi(std::string(result.Text(0, column)));
}

void Prepare(pq::Pipeline &pipeline, const char *name, const std::string &sql,
             const std::vector<std::uint32_t> &types)
{
    try
    {
        pipeline.Prepare(name, sql, types);
    }
    catch (const pq::ServerError &e)
    {
        throw client::Error(std::string("cannot prepare ") + name + ": " + e.message(),
                            e.sqlstate());
    }
}
} // namespace

IngestConnection::IngestConnection(const std::string &dsn, bool synchronous_commit,
                                   bool node_checked)
    : pipeline_(dsn)
{
    pipeline_.Run("SET application_name = 'permanode ingest'");
    if (!synchronous_commit)
        pipeline_.Run("SET synchronous_commit = off");

    std::unique_ptr<pq::Result> types;
    try
    {
        types = pipeline_.Run("SELECT 'permanode.snapshot_output'::regtype::oid, "
                              "'permanode.output_id'::regtype::oid, "
                              "'permanode.block_id'::regtype::oid");
    }
    catch (const pq::ServerError &e)
    {
        throw client::Error("the permanode extension is not installed in this database (run "
                            "`permanode init`): " +
                                e.message(),
                            e.sqlstate());
    }
    snapshot_output_oid_ = OidAt(*types, 0);
    output_id_oid_ = OidAt(*types, 1);
    block_id_oid_ = OidAt(*types, 2);

    // The arrays' types come from the casts in the statement.
    Prepare(pipeline_, kStatement,
            "SELECT already_ingested, messages, outputs, spent FROM "
            "permanode.ingest_milestone($1, $2, $3::bytea[], $4::smallint[], $5::smallint[], "
            "$6::permanode.snapshot_output[], $7)",
            {kInt4Oid, kInt8Oid, 0, 0, 0, 0, kInt2Oid});
    // A sync's milestone: the same, checked against the node's ledger updates (only prepared for
    // a sync: a database older than 0.11.0 has no ingest_node_milestone, and can still ingest).
    if (node_checked)
        Prepare(pipeline_, kCheckedStatement,
                "SELECT already_ingested, messages, outputs, spent FROM "
                "permanode.ingest_node_milestone($1, $2, $3::bytea[], $4::smallint[], "
                "$5::smallint[], $6::permanode.snapshot_output[], $7, $8::permanode.output_id[], "
                "$9::permanode.output_id[], $10)",
                {kInt4Oid, kInt8Oid, 0, 0, 0, 0, kInt2Oid, 0, 0, kInt4Oid});
}

void IngestConnection::Send(const MilestoneBundle &bundle, const ExpectedUpdates *expected)
{
    std::string index, timestamp, blocks, states, reasons, snapshot;
    PutU32(index, bundle.milestone_index);
    PutU64(timestamp, bundle.milestone_timestamp);

    std::size_t size = 20;
    for (const BundleBlock &block : bundle.blocks)
        size += 4 + block.bytes.size();
    blocks.reserve(size);
    PutArrayHeader(blocks, kByteaOid, bundle.blocks.size());
    PutArrayHeader(states, kInt2Oid, bundle.blocks.size());
    PutArrayHeader(reasons, kInt2Oid, bundle.blocks.size());
    for (const BundleBlock &block : bundle.blocks)
    {
        PutBytes(blocks, block.bytes.data(), block.bytes.size());
        std::uint8_t state[2] = {0, static_cast<std::uint8_t>(block.inclusion_state)};
        std::uint8_t reason[2] = {0, block.conflict_reason};
        PutBytes(states, state, 2);
        PutBytes(reasons, reason, 2);
    }

    bool has_snapshot = !bundle.snapshot_outputs.empty();
    if (has_snapshot)
    {
        // An array of records (record_recv's format): column count, then per column its type
        // OID and its length-prefixed binary value.
        PutArrayHeader(snapshot, snapshot_output_oid_, bundle.snapshot_outputs.size());
        for (const SnapshotOutput &output : bundle.snapshot_outputs)
        {
            std::string record;
            PutU32(record, 3);
            codec::OutputIdBytes id = codec::ToBytes(output.output_id);
            PutU32(record, output_id_oid_);
            PutBytes(record, id.data(), id.size());
            PutU32(record, block_id_oid_);
            PutBytes(record, output.block_id.data(), output.block_id.size());
            PutU32(record, kByteaOid);
            PutBytes(record, output.output.data(), output.output.size());
            PutBytes(snapshot, reinterpret_cast<const std::uint8_t *>(record.data()),
                     record.size());
        }
    }

    std::string version{'\0', static_cast<char>(bundle.protocol_version)};
    pq::Params params;
    for (const std::string *value : {&index, &timestamp, &blocks, &states, &reasons})
        params.Add(*value, pq::Format::kBinary);
    if (has_snapshot)
        params.Add(snapshot, pq::Format::kBinary);
    else
        params.AddNull();
    params.Add(version, pq::Format::kBinary);
    if (expected == nullptr)
    {
        pipeline_.SendPrepared(kStatement, params);
        return;
    }
    // a sync's: the node's created and consumed outputs, and the milestone before (NULL: none)
    std::string created = OutputIdArray(output_id_oid_, expected->created);
    std::string consumed = OutputIdArray(output_id_oid_, expected->consumed);
    std::string previous;
    PutU32(previous, expected->previous);
    params.Add(created, pq::Format::kBinary);
    params.Add(consumed, pq::Format::kBinary);
    if (expected->previous != 0)
        params.Add(previous, pq::Format::kBinary);
    else
        params.AddNull();
    pipeline_.SendPrepared(kCheckedStatement, params);
}

MilestoneOutcome IngestConnection::Receive()
{
    pq::Outcome outcome = pipeline_.Receive();
    MilestoneOutcome milestone;
    if (outcome.error)
        milestone.error = std::move(outcome.error);
    else if (!outcome.result || outcome.result->Rows() != 1)
        milestone.error = pq::ServerError({"XX000", "the ingest call returned no row", "", ""});
    else
    {
        const pq::Result &row = *outcome.result;
        milestone.already_ingested = row.Text(0, 0) == "t";
        milestone.messages = IntAt(row, 1);
        milestone.outputs = IntAt(row, 2);
        milestone.spent = IntAt(row, 3);
    }
    return milestone;
}

} // namespace permanode::cli
