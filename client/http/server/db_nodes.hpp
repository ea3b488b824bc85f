// The database nodes an event loop reads from: the primary (--dsn) and its streaming replicas
// (--replica), each with its own pipelined connections. Requests go to the replicas round robin
// (client::NodeRotation, as client::ReplicaSet picks them); a replica that fails is put aside for
// the back-off and the request is served again by the next node; with every replica aside, the
// primary serves. Each node keeps its ledger index (its newest synced milestone), read on its
// connections at most once per client::kLedgerIndexRefresh, for the X-Permanode-Ledger-Index
// header.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "permanode/replica_set.hpp"
#include "server/pg_pipeline.hpp"

namespace permanode::http
{

// What /metrics says of one node, summed over the event loops.
struct NodeStats
{
    std::string label; // as in X-Permanode-Node
    long long requests = 0;
    long long failures = 0;
    std::int32_t ledger_index = -1; // the newest read by any loop; -1 before the first read
};

class DbNode
{
  public:
    using Clock = std::chrono::steady_clock;

    // `label` is what X-Permanode-Node says: "primary", or "replica host:port".
    DbNode(std::string label, const std::string &dsn, int connections, int statement_timeout_ms);
    DbNode(const DbNode &) = delete;
    DbNode &operator=(const DbNode &) = delete;

    const std::string &Label() const { return label_; }
    std::vector<std::unique_ptr<PgPipeline>> &Pipelines() { return pipelines_; }

    // The ledger index last read, nullopt before the first read (or after a failure).
    std::optional<std::int32_t> LedgerIndex() const { return ledger_index_; }
    // Whether to read the ledger index again before the next query (none in flight, and the last
    // read older than client::kLedgerIndexRefresh).
    bool LedgerIndexDue(Clock::time_point now) const;
    void LedgerIndexSent() { ledger_index_sent_ = true; }
    // A read of the ledger index ended: with its value, or nullopt when it failed.
    void LedgerIndexRead(std::optional<std::int32_t> value, Clock::time_point now);
    // The node failed: its ledger index is read again once it serves again.
    void Forget();

    // Counted by the loop that owns the node; read by /metrics from any thread.
    std::atomic<long long> requests{0};
    std::atomic<long long> failures{0};
    std::atomic<std::int32_t> ledger_index_seen{-1};

  private:
    std::string label_;
    std::optional<std::int32_t> ledger_index_;
    std::optional<Clock::time_point> ledger_index_read_;
    bool ledger_index_sent_ = false;
    // Last, so that closing them (their callbacks) still finds the fields above.
    std::vector<std::unique_ptr<PgPipeline>> pipelines_;
};

class DbNodes
{
  public:
    DbNodes(const std::string &primary_dsn, const std::vector<std::string> &replica_dsns,
            int connections, int statement_timeout_ms, std::chrono::milliseconds backoff);

    // The node for a request's attempt: the next available replica, or the primary once every
    // replica is aside or the request has been tried on as many nodes as there are replicas.
    DbNode &Pick(std::size_t attempt);
    // A node failed a request (its connection could not be made, or broke): a replica is put
    // aside for the back-off. Whether another node may serve the request (false for the primary).
    bool Failed(DbNode &node);
    // Every node, the replicas first.
    const std::vector<std::unique_ptr<DbNode>> &All() const { return nodes_; }

  private:
    std::vector<std::unique_ptr<DbNode>> nodes_; // the replicas, then the primary
    client::NodeRotation rotation_;
};

} // namespace permanode::http
