// What `permanode sync` says of itself, for health: its row of permanode.sync_follow (one per node
// followed, 81_sync_follow.sql), written about once a second on a connection of its own, so that
// /health, isHealthy, /metrics and `permanode status` can tell whether the archive keeps up with
// the node. Reporting never stops the sync: a write that fails is said once on stderr, and tried
// again later (never again when the role may not write the table, or the table is missing).
#pragma once

#include "sync/node.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <pqxx/connection>

namespace permanode::sync
{

class SyncReporter
{
  public:
    // source: the node, as Node::Name() says it; live: the sync follows the tip (no --to or
    // --until-synced). Writes nothing yet.
    SyncReporter(std::string dsn, std::string source, bool live);
    // Says the sync stopped on an error (Stop(nullopt)), unless Stop was called.
    ~SyncReporter();
    SyncReporter(const SyncReporter &) = delete;
    SyncReporter &operator=(const SyncReporter &) = delete;

    // Where the sync is; writes when a second has passed since the last write. Cheap otherwise:
    // call it as often as the sync likes.
    void Update(std::uint32_t archived_index, std::uint32_t node_confirmed_index,
                std::uint32_t node_confirmed_timestamp, std::uint64_t blocks_total,
                std::uint64_t reconnects);
    // Writes the last figures with the stop and the sync's exit code (nullopt: an error it does
    // not name). Later calls do nothing.
    void Stop(std::optional<int> exit_code);

  private:
    using Clock = std::chrono::steady_clock;
    // Where the sync was at one write, for the rates.
    struct Sample
    {
        Clock::time_point at;
        std::uint32_t archived = 0;
        std::uint64_t blocks = 0;
    };
    struct Figures
    {
        std::uint32_t archived_index = 0;
        std::uint32_t node_confirmed_index = 0;
        std::uint32_t node_confirmed_timestamp = 0;
        std::uint64_t blocks_total = 0;
        std::uint64_t reconnects = 0;
    };

    // Milestones and blocks per second over the samples of the last few seconds.
    std::pair<double, double> Rates(const Figures &figures, Clock::time_point now);
    // One upsert of the row; false (after saying so once) when it failed.
    bool Write(const Figures &figures, std::optional<int> exit_code, bool stopped,
               Clock::time_point now);
    void Connect();
    void Failed(const std::string &why, bool for_good);

    std::string dsn_;
    std::string source_;
    bool live_;
    double started_at_; // unix seconds
    std::unique_ptr<pqxx::connection> db_;
    std::deque<Sample> samples_;
    Figures last_;
    Clock::time_point last_write_{};
    Clock::time_point retry_at_{}; // after a failure, the next attempt
    bool disabled_ = false;        // a failure that trying again cannot mend
    bool warned_ = false;
    bool stopped_ = false;
};

// The node's newest confirmation: the newest it announced, or the one its status named at the
// start when it has announced none newer.
Confirmation NewestConfirmation(const Node &node, const NodeStatus &at_start);

} // namespace permanode::sync
