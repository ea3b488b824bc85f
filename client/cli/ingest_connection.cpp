// Binary-parameter, pipelined calls of permanode.ingest_milestone() over libpq.
#include "ingest_connection.hpp"

#include "pg_binary.hpp"

#include "codec/ids.hpp"

#include "permanode/client.hpp"

#include <libpq-fe.h>

#include <cstring>

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
} // namespace

IngestConnection::IngestConnection(const std::string &dsn, bool synchronous_commit,
                                   bool node_checked)
{
    conn_ = PQconnectdb(dsn.c_str());
    if (PQstatus(conn_) != CONNECTION_OK)
        ThrowConnectionError("cannot connect");
    Exec("SET application_name = 'permanode ingest'");
    if (!synchronous_commit)
        Exec("SET synchronous_commit = off");

    PGresult *types =
        PQexec(conn_, "SELECT 'permanode.snapshot_output'::regtype::oid, "
                      "'permanode.output_id'::regtype::oid, 'permanode.block_id'::regtype::oid");
    if (PQresultStatus(types) != PGRES_TUPLES_OK)
    {
        std::string message = PQresultErrorMessage(types);
        std::string sqlstate = ErrorField(types, PG_DIAG_SQLSTATE);
        PQclear(types);
        throw client::Error("the permanode extension is not installed in this database (run "
                            "`permanode init`): " +
                                message,
                            sqlstate);
    }
    snapshot_output_oid_ = static_cast<std::uint32_t>(std::stoul(PQgetvalue(types, 0, 0)));
    output_id_oid_ = static_cast<std::uint32_t>(std::stoul(PQgetvalue(types, 0, 1)));
    block_id_oid_ = static_cast<std::uint32_t>(std::stoul(PQgetvalue(types, 0, 2)));
    PQclear(types);

    // The arrays' types come from the casts in the statement.
    const unsigned ingest_types[7] = {kInt4Oid, kInt8Oid, 0, 0, 0, 0, kInt2Oid};
    Prepare(kStatement,
            "SELECT already_ingested, messages, outputs, spent FROM "
            "permanode.ingest_milestone($1, $2, $3::bytea[], $4::smallint[], $5::smallint[], "
            "$6::permanode.snapshot_output[], $7)",
            7, ingest_types);
    // A sync's milestone: the same, checked against the node's ledger updates (only prepared for
    // a sync: a database older than 0.11.0 has no ingest_node_milestone, and can still ingest).
    const unsigned checked_types[10] = {kInt4Oid, kInt8Oid, 0, 0, 0, 0, kInt2Oid, 0, 0, kInt4Oid};
    if (node_checked)
        Prepare(kCheckedStatement,
                "SELECT already_ingested, messages, outputs, spent FROM "
                "permanode.ingest_node_milestone($1, $2, $3::bytea[], $4::smallint[], "
                "$5::smallint[], $6::permanode.snapshot_output[], $7, $8::permanode.output_id[], "
                "$9::permanode.output_id[], $10)",
                10, checked_types);
    if (PQenterPipelineMode(conn_) != 1)
        ThrowConnectionError("cannot enter pipeline mode");
}

IngestConnection::~IngestConnection()
{
    PQfinish(conn_);
}

void IngestConnection::Exec(const std::string &sql)
{
    PGresult *result = PQexec(conn_, sql.c_str());
    bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    std::string message = PQresultErrorMessage(result);
    std::string sqlstate = ErrorField(result, PG_DIAG_SQLSTATE);
    PQclear(result);
    if (!ok)
        throw client::Error(sql + ": " + message, sqlstate);
}

void IngestConnection::Prepare(const char *name, const std::string &sql, int params,
                               const unsigned *types)
{
    PGresult *prepared = PQprepare(conn_, name, sql.c_str(), params, types);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK)
    {
        std::string message = PQresultErrorMessage(prepared);
        std::string sqlstate = ErrorField(prepared, PG_DIAG_SQLSTATE);
        PQclear(prepared);
        throw client::Error(std::string("cannot prepare ") + name + ": " + message, sqlstate);
    }
    PQclear(prepared);
}

void IngestConnection::ThrowConnectionError(const std::string &what)
{
    std::string message = PQerrorMessage(conn_);
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    throw client::Error(what + ": " + message, "08006");
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

    std::uint8_t version[2] = {0, bundle.protocol_version};
    const char *values[7] = {index.data(),
                             timestamp.data(),
                             blocks.data(),
                             states.data(),
                             reasons.data(),
                             has_snapshot ? snapshot.data() : nullptr,
                             reinterpret_cast<const char *>(version)};
    int lengths[7] = {static_cast<int>(index.size()),
                      static_cast<int>(timestamp.size()),
                      static_cast<int>(blocks.size()),
                      static_cast<int>(states.size()),
                      static_cast<int>(reasons.size()),
                      static_cast<int>(snapshot.size()),
                      2};
    // a sync's: the node's created and consumed outputs, and the milestone before (NULL: none)
    std::string created, consumed, previous;
    if (expected != nullptr)
    {
        created = OutputIdArray(output_id_oid_, expected->created);
        consumed = OutputIdArray(output_id_oid_, expected->consumed);
        PutU32(previous, expected->previous);
    }
    const char *checked_values[10] = {
        values[0],
        values[1],
        values[2],
        values[3],
        values[4],
        values[5],
        values[6],
        created.data(),
        consumed.data(),
        expected != nullptr && expected->previous != 0 ? previous.data() : nullptr};
    int checked_lengths[10] = {lengths[0],
                               lengths[1],
                               lengths[2],
                               lengths[3],
                               lengths[4],
                               lengths[5],
                               lengths[6],
                               static_cast<int>(created.size()),
                               static_cast<int>(consumed.size()),
                               static_cast<int>(previous.size())};
    int formats[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int sent = expected != nullptr
                   ? PQsendQueryPrepared(conn_, kCheckedStatement, 10, checked_values,
                                         checked_lengths, formats, 1)
                   : PQsendQueryPrepared(conn_, kStatement, 7, values, lengths, formats, 1);
    if (sent != 1)
        ThrowConnectionError("cannot send milestone " + std::to_string(bundle.milestone_index));
    if (PQpipelineSync(conn_) != 1)
        ThrowConnectionError("cannot send milestone " + std::to_string(bundle.milestone_index));
    ++in_flight_;
}

bool IngestConnection::ResultReady()
{
    // A failed read is "ready" too: Receive then reports the broken connection.
    return PQconsumeInput(conn_) == 0 || PQisBusy(conn_) == 0;
}

int IngestConnection::Socket() const
{
    return PQsocket(conn_);
}

MilestoneOutcome IngestConnection::Receive()
{
    MilestoneOutcome outcome;
    bool have_result = false;
    // The statement's result and the NULL that ends it, then the sync point's result.
    for (;;)
    {
        PGresult *result = PQgetResult(conn_);
        if (result == nullptr)
        {
            if (PQstatus(conn_) == CONNECTION_BAD)
                ThrowConnectionError("lost the connection to the server");
            continue;
        }
        ExecStatusType status = PQresultStatus(result);
        if (status == PGRES_PIPELINE_SYNC)
        {
            PQclear(result);
            break;
        }
        if (!have_result && status == PGRES_TUPLES_OK && PQntuples(result) == 1)
        {
            // Binary results: bool is one byte, int4 four bytes big endian.
            auto Int = [&](int column)
            {
                const auto *b =
                    reinterpret_cast<const std::uint8_t *>(PQgetvalue(result, 0, column));
                return static_cast<int>((std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) |
                                        (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]));
            };
            outcome.ok = true;
            outcome.already_ingested = PQgetvalue(result, 0, 0)[0] != 0;
            outcome.messages = Int(1);
            outcome.outputs = Int(2);
            outcome.spent = Int(3);
            have_result = true;
        }
        else if (!have_result)
        {
            outcome.ok = false;
            outcome.sqlstate = ErrorField(result, PG_DIAG_SQLSTATE);
            outcome.message = ErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
            outcome.detail = ErrorField(result, PG_DIAG_MESSAGE_DETAIL);
            outcome.context = ErrorField(result, PG_DIAG_CONTEXT);
            if (outcome.message.empty())
                outcome.message = PQresultErrorMessage(result);
            have_result = true;
            if (PQstatus(conn_) == CONNECTION_BAD)
            {
                PQclear(result);
                ThrowConnectionError("lost the connection to the server");
            }
        }
        PQclear(result);
    }
    --in_flight_;
    return outcome;
}

} // namespace permanode::cli
