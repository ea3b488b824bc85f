// One libpq connection that ingests milestones through permanode.ingest_milestone() with binary
// parameters, in pipeline mode: several milestones in flight, each its own transaction.
//
// libpqxx 6.4 sends parameters as text only, which would double the bytes of every block and
// make the server parse hex, so this talks libpq directly. In pipeline mode every statement
// before a sync point runs in one implicit transaction; we sync after each milestone, so each
// milestone commits (or fails and rolls back) on its own while the next ones are already sent.
#pragma once

#include "bundle.hpp"

#include <cstdint>
#include <string>
#include <vector>

typedef struct pg_conn PGconn;

namespace permanode::cli
{

// The outputs a node says a milestone created and consumed (`permanode sync`): checked against
// what its cone derives, before ingest writes (permanode.ingest_node_milestone).
struct ExpectedUpdates
{
    std::vector<codec::OutputId> created;
    std::vector<codec::OutputId> consumed;
    // The milestone that must be archived before this one (0: none), so that a milestone that
    // fails leaves no hole below the ones sent after it.
    std::uint32_t previous = 0;
};

// What the server did with one milestone.
struct MilestoneOutcome
{
    bool ok = false;
    bool already_ingested = false;
    int messages = 0;
    int outputs = 0;
    int spent = 0;
    // When !ok: the server's error.
    std::string sqlstate;
    std::string message;
    std::string detail;
    std::string context;
};

class IngestConnection
{
  public:
    // Connects, looks up the type OIDs, prepares the call and enters pipeline mode.
    // synchronous_commit false: commits are not flushed one by one (see FlushCommits).
    // node_checked: for a sync, whose milestones are sent with the node's ledger updates.
    IngestConnection(const std::string &dsn, bool synchronous_commit, bool node_checked = false);
    ~IngestConnection();
    IngestConnection(const IngestConnection &) = delete;
    IngestConnection &operator=(const IngestConnection &) = delete;

    // Queues one milestone (its call, checked against the node's updates when given, and a sync
    // point) and sends it.
    void Send(const MilestoneBundle &bundle, const ExpectedUpdates *expected = nullptr);
    // Waits for the result of the oldest milestone sent and not yet received.
    MilestoneOutcome Receive();
    int InFlight() const { return in_flight_; }
    // Whether Receive can start without waiting for the server (reads what has arrived).
    bool ResultReady();
    int Socket() const;

  private:
    [[noreturn]] void ThrowConnectionError(const std::string &what);
    void Exec(const std::string &sql);
    void Prepare(const char *name, const std::string &sql, int params, const unsigned *types);

    PGconn *conn_ = nullptr;
    std::uint32_t snapshot_output_oid_ = 0;
    std::uint32_t output_id_oid_ = 0;
    std::uint32_t block_id_oid_ = 0;
    int in_flight_ = 0;
};

} // namespace permanode::cli
