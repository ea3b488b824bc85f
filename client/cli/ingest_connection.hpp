// One connection that ingests milestones through permanode.ingest_milestone() with binary
// parameters, over the pipeline client (pq/pipeline.hpp): several milestones in flight, each
// its own transaction (each call has its own sync point), so each milestone commits (or fails and
// rolls back) on its own while the next ones are already sent.
//
// libpqxx 6.4 sends parameters as text only, which would double the bytes of every block and
// make the server parse hex.
#pragma once

#include "bundle.hpp"

#include "pq/pipeline.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
    bool already_ingested = false;
    int messages = 0;
    int outputs = 0;
    int spent = 0;
    // The server's error, when the milestone was not ingested (its position: a cone block).
    std::optional<pq::ServerError> error;
    bool ok() const { return !error; }
};

class IngestConnection
{
  public:
    // Connects, looks up the type OIDs and prepares the call.
    // synchronous_commit false: commits are not flushed one by one (see FlushCommits).
    // node_checked: for a sync, whose milestones are sent with the node's ledger updates.
    IngestConnection(const std::string &dsn, bool synchronous_commit, bool node_checked = false);
    IngestConnection(const IngestConnection &) = delete;
    IngestConnection &operator=(const IngestConnection &) = delete;

    // Queues one milestone (its call, checked against the node's updates when given, and a sync
    // point) and sends it.
    void Send(const MilestoneBundle &bundle, const ExpectedUpdates *expected = nullptr);
    // Waits for the result of the oldest milestone sent and not yet received.
    MilestoneOutcome Receive();
    int InFlight() const { return pipeline_.InFlight(); }
    // Whether Receive can start without waiting for the server (reads what has arrived).
    bool ResultReady() { return pipeline_.ResultReady(); }
    int Socket() const { return pipeline_.Socket(); }

  private:
    pq::Pipeline pipeline_;
    std::uint32_t snapshot_output_oid_ = 0;
    std::uint32_t output_id_oid_ = 0;
    std::uint32_t block_id_oid_ = 0;
};

} // namespace permanode::cli
