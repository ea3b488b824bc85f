// The sync loop: the node's status, the start, then each confirmed milestone in order: fetched
// ahead by the Fetcher's threads, checked against its payload (cone_check.hpp), sent through the
// ingest connection's pipeline with the check of the node's ledger updates in the same
// transaction, committed in order. A restart resumes after the newest milestone committed.
// With --gaps, the same loop runs over each gap of permanode.sync_gaps() instead.
#include "sync.hpp"

#include "analytics.hpp"
#include "bundle.hpp"
#include "commands.hpp"
#include "ingest_connection.hpp"
#include "interrupt.hpp"

#include "sync/cone_check.hpp"
#include "sync/fetcher.hpp"
#include "sync/inx_node.hpp"
#include "sync/rest_node.hpp"
#include "sync/start_point.hpp"
#include "sync/sync_report.hpp"

#include "codec/ids.hpp"

#include "permanode/replica_set.hpp"

#include <chrono>
#include <deque>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <pqxx/pqxx>

namespace permanode::cli
{
namespace
{

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kTakeWaitMs = 200;
// measuring while waiting for the node: at most about this long before looking again
constexpr std::chrono::milliseconds kMeasureBudget{100};
constexpr auto kNodeWaitMax = 5s;
// waiting for the database to take connections again: the first pause, the longest
constexpr std::chrono::seconds kDatabaseWaitFirst{1};
constexpr std::chrono::seconds kDatabaseWaitMax{30};

// Whether `e` says the database went away (a broken connection, a server shutting down or
// restarting, one that does not take connections yet), rather than that a statement failed.
bool IsDatabaseLost(const std::exception &e)
{
    if (dynamic_cast<const pqxx::broken_connection *>(&e) != nullptr)
        return true;
    if (const auto *error = dynamic_cast<const pqxx::sql_error *>(&e))
        return client::IsNodeFailure(error->sqlstate());
    if (const auto *error = dynamic_cast<const client::Error *>(&e))
        return client::IsNodeFailure(error->sqlstate());
    return false;
}

// Sleeps `wait`, a tenth of a second at a time; false when interrupted.
bool SleepUnlessInterrupted(std::chrono::milliseconds wait)
{
    for (auto slept = 0ms; slept < wait; slept += 100ms)
    {
        if (Interrupted())
            return false;
        std::this_thread::sleep_for(100ms);
    }
    return !Interrupted();
}

// The setting that records the network each era's nodes follow.
std::string NetworkSettingOf(std::uint8_t protocol_version)
{
    return protocol_version == kChrysalisProtocol ? "chrysalis_node_network_name"
                                                  : "node_network_name";
}

// What the archive holds that decides the start, for a node of `protocol_version`'s era.
sync::ArchiveState ReadArchive(const std::string &dsn, std::uint8_t protocol_version)
{
    pqxx::connection db(dsn);
    pqxx::nontransaction tx(db);
    sync::ArchiveState state;
    // the archive's HRP is its Stardust addresses'; Chrysalis ones have their own
    auto hrp = tx.exec("SELECT value FROM permanode.settings WHERE key = 'bech32_hrp'");
    if (!hrp.empty() && protocol_version == kStardustProtocol)
        state.bech32_hrp = hrp[0][0].as<std::string>();
    auto name = tx.exec_params("SELECT value FROM permanode.settings WHERE key = $1",
                               NetworkSettingOf(protocol_version));
    if (!name.empty())
        state.network_name = name[0][0].as<std::string>();
    auto newest = tx.exec_params("SELECT max(milestone_index) FROM permanode.milestone_protocols "
                                 "WHERE protocol_version = $1",
                                 static_cast<int>(protocol_version))[0][0];
    if (!newest.is_null())
        state.newest = newest.as<std::uint32_t>();
    state.empty = tx.exec("SELECT 1 FROM permanode.sync LIMIT 1").empty();
    return state;
}

// The gaps between the milestones held, oldest first.
std::vector<std::pair<std::uint32_t, std::uint32_t>> ReadGaps(const std::string &dsn)
{
    pqxx::connection db(dsn);
    pqxx::nontransaction tx(db);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> gaps;
    for (const auto &row :
         tx.exec("SELECT from_milestone, to_milestone FROM permanode.sync_gaps()"))
        gaps.emplace_back(row[0].as<std::uint32_t>(), row[1].as<std::uint32_t>());
    return gaps;
}

// Records a setting of the archive unless it has one by that key (what: what it is for, should
// this role not be allowed to).
void RecordSetting(const std::string &dsn, const std::string &key, const std::string &value,
                   const char *what)
{
    pqxx::connection db(dsn);
    pqxx::nontransaction tx(db);
    try
    {
        tx.exec_params("INSERT INTO permanode.settings VALUES ($1, $2) "
                       "ON CONFLICT (key) DO NOTHING",
                       key, value);
    }
    catch (const pqxx::insufficient_privilege &)
    {
        fmt::print(stderr, "permanode sync: this role may not record {}\n", what);
    }
}

// The node's status once it has a confirmed milestone; waits with backoff while it is away or
// has none yet. nullopt when interrupted first.
std::optional<sync::NodeStatus> WaitForNode(sync::Node &node)
{
    auto wait = 100ms;
    bool said = false;
    while (!Interrupted())
    {
        try
        {
            sync::NodeStatus status = node.Status();
            if (status.confirmed_index > 0)
                return status;
            if (!said)
                fmt::print(stderr, "permanode sync: {} has no confirmed milestone yet; waiting\n",
                           node.Name());
        }
        catch (const sync::NodeError &e)
        {
            if (e.kind() != sync::NodeError::Kind::kUnavailable)
                throw;
            if (!said)
                fmt::print(stderr, "permanode sync: {} is unavailable ({}); retrying\n",
                           node.Name(), e.what());
        }
        said = true;
        std::this_thread::sleep_for(wait);
        wait = std::min<std::chrono::milliseconds>(wait * 2, kNodeWaitMax);
    }
    return std::nullopt;
}

SnapshotOutput SnapshotOf(const sync::LedgerOutput &output)
{
    return SnapshotOutput{output.output_id, output.block_id, output.output};
}

// A milestone as ingest takes it, with what the node says it changed. `before`: the ledger
// before the first milestone of an empty archive, booked there.
std::pair<MilestoneBundle, ExpectedUpdates> BundleOf(const sync::NodeMilestone &milestone,
                                                     const std::vector<sync::LedgerOutput> &before)
{
    MilestoneBundle bundle;
    bundle.protocol_version = milestone.protocol_version;
    bundle.milestone_index = milestone.index;
    bundle.milestone_timestamp = milestone.timestamp;
    for (const sync::ConeBlock &block : milestone.blocks)
        bundle.blocks.push_back(BundleBlock{block.bytes,
                                            static_cast<InclusionState>(block.inclusion_state),
                                            block.conflict_reason});
    ExpectedUpdates expected;
    for (const sync::LedgerOutput &output : before)
    {
        bundle.snapshot_outputs.push_back(SnapshotOf(output));
        expected.created.push_back(output.output_id);
    }
    for (const sync::LedgerOutput &output : sync::OutputsFromOutside(milestone))
        bundle.snapshot_outputs.push_back(SnapshotOf(output));
    for (const sync::LedgerOutput &output : milestone.updates.created)
        expected.created.push_back(output.output_id);
    for (const sync::LedgerSpent &spent : milestone.updates.consumed)
        expected.consumed.push_back(spent.output.output_id);
    return {std::move(bundle), std::move(expected)};
}

int ExitCodeOf(sync::StartError::Kind kind)
{
    switch (kind)
    {
        case sync::StartError::Kind::kPruned:
            return kNodePruned;
        case sync::StartError::Kind::kBehind:
            return kNodeBehind;
        case sync::StartError::Kind::kNetworkMismatch:
            return kNetworkMismatch;
    }
    return kFailure;
}

// The writer: milestones in order into the archive, a few in flight on one connection. A
// milestone the server rolled back to end a conflict (a deadlock with archiving or maintenance:
// client::IsTransientConflict) is sent again with those after it, up to kConflictAttempts times
// in a row.
class Writer
{
  public:
    static constexpr int kConflictAttempts = 5;

    Writer(const std::string &dsn, int depth) : ingest_(dsn, false, true), depth_(depth) {}

    // Sends one milestone; returns false (after reporting) when an earlier one failed.
    bool Send(MilestoneBundle bundle, ExpectedUpdates expected)
    {
        in_flight_.push_back(Sent{std::move(bundle), std::move(expected)});
        ingest_.Send(in_flight_.back().bundle, &in_flight_.back().expected);
        while (static_cast<int>(in_flight_.size()) >= depth_)
            if (!ReceiveOne())
                return false;
        return true;
    }
    // Waits for every milestone in flight; false when one failed.
    bool Drain()
    {
        while (!in_flight_.empty())
            if (!ReceiveOne())
                return false;
        return true;
    }
    std::optional<std::uint32_t> committed() const { return committed_; }
    std::uint64_t blocks() const { return blocks_; }
    int exit_code() const { return exit_code_; }

  private:
    struct Sent
    {
        MilestoneBundle bundle;
        ExpectedUpdates expected;
    };

    bool ReceiveOne()
    {
        std::uint32_t index = in_flight_.front().bundle.milestone_index;
        MilestoneOutcome outcome = ingest_.Receive();
        if (outcome.ok())
        {
            in_flight_.pop_front();
            committed_ = index;
            blocks_ += static_cast<std::uint64_t>(outcome.messages);
            conflicts_ = 0;
            return true;
        }
        // the check's error names the milestone and the output itself
        const pq::ServerError &error = *outcome.error;
        bool disagrees = error.sqlstate() == "22000";
        fmt::print(stderr, "permanode sync: {}{}{}\n",
                   disagrees ? "" : fmt::format("milestone {}: ", index), error.message(),
                   error.detail().empty() ? "" : " (" + error.detail() + ")");
        // the pipeline's later milestones were aborted with it
        for (std::size_t i = 1; i < in_flight_.size(); i++)
            ingest_.Receive();
        if (client::IsTransientConflict(error.sqlstate()) && ++conflicts_ < kConflictAttempts)
        {
            fmt::print(stderr, "permanode sync: milestone {} rolled back; sending it again\n",
                       index);
            for (const Sent &sent : in_flight_)
                ingest_.Send(sent.bundle, &sent.expected);
            return true;
        }
        fmt::print(stderr, "permanode sync: nothing of milestone {} was archived\n", index);
        exit_code_ = disagrees ? kNodeDisagrees : kDatabase;
        in_flight_.clear();
        return false;
    }

    IngestConnection ingest_;
    int depth_;
    std::deque<Sent> in_flight_;
    std::optional<std::uint32_t> committed_;
    std::uint64_t blocks_ = 0;
    int conflicts_ = 0; // in a row
    int exit_code_ = kOk;
};

// One line on stderr now and then: where the archive is against the node.
class SyncProgress
{
  public:
    explicit SyncProgress(bool enabled) : enabled_(enabled) {}
    void Update(std::uint32_t committed, std::uint32_t confirmed, std::uint64_t blocks)
    {
        auto now = Clock::now();
        if (!enabled_ || now - last_ < 1s)
            return;
        last_ = now;
        fmt::print(stderr,
                   "permanode sync: milestone {} archived, node at {} ({} behind), {} "
                   "blocks\n",
                   committed, confirmed, confirmed > committed ? confirmed - committed : 0, blocks);
    }

  private:
    bool enabled_;
    Clock::time_point last_{};
};

// One stretch of milestones to archive in order.
struct Stretch
{
    std::uint32_t start = 0;
    std::optional<std::uint32_t> to;                // the last one; nullopt: on and on
    bool until_synced = false;                      // stop at the node's confirmed milestone
    std::vector<sync::LedgerOutput> outputs_before; // to book at `start`
};

// Archives the stretch from the node in order; returns the exit code.
int Follow(sync::Node &node, const std::string &dsn, const sync::NodeStatus &status,
           const Stretch &stretch, const SyncOptions &options)
{
    Writer writer(dsn, options.pipeline_depth);
    SyncProgress progress(options.progress);
    sync::Fetcher fetcher(
        node, stretch.start, status.confirmed_index, options.ahead,
        [&](std::uint32_t index, const sync::NodeError &e)
        { fmt::print(stderr, "permanode sync: milestone {}: {}; retrying\n", index, e.what()); });
    sync::SyncReporter reporter(dsn, node.Name(), !stretch.to && !stretch.until_synced);
    // measured while the node has nothing new, so catching up is not slowed
    MeasureFollower measurer(dsn, stretch.start);
    // the parameters the node has in force now: at its confirmed milestone at least
    if (!status.protocol_parameters.empty())
        RecordProtocolParameters(dsn, {{status.confirmed_index, status.protocol_parameters}});
    // for health: where the archive is against the node (at most one write a second)
    auto report = [&]
    {
        sync::Confirmation confirmed = sync::NewestConfirmation(node, status);
        reporter.Update(writer.committed().value_or(stretch.start - 1), confirmed.index,
                        confirmed.timestamp, writer.blocks(), node.Reconnects());
    };
    std::uint32_t next = stretch.start;
    int code = kOk;
    while (code == kOk)
    {
        if (Interrupted())
        {
            code = kInterrupted;
            break;
        }
        if (stretch.to && next > *stretch.to)
            break;
        if (stretch.until_synced && next > status.confirmed_index && next > fetcher.Confirmed())
            break;
        std::optional<sync::NodeMilestone> milestone;
        try
        {
            milestone = fetcher.Take(next, kTakeWaitMs);
            if (!milestone)
            {
                report(); // waiting for the node counts as following it
                if (writer.committed())
                    measurer.CatchUp(*writer.committed(), kMeasureBudget);
                continue;
            }
            sync::CheckCone(*milestone);
            bool first = next == stretch.start;
            auto [bundle, expected] = BundleOf(
                *milestone, first ? stretch.outputs_before : std::vector<sync::LedgerOutput>());
            expected.previous = first ? 0 : next - 1;
            if (!writer.Send(std::move(bundle), std::move(expected)))
                code = writer.exit_code();
        }
        catch (const sync::ConeError &e)
        {
            fmt::print(stderr, "permanode sync: {}\n", e.what());
            code = kNodeDisagrees;
        }
        catch (const sync::NodeError &e)
        {
            fmt::print(stderr, "permanode sync: milestone {}: {}\n", next, e.what());
            code = e.kind() == sync::NodeError::Kind::kNotFound ? kNodePruned : kFailure;
        }
        catch (const std::exception &e)
        {
            if (IsDatabaseLost(e))
                throw; // Sync connects again and resumes after the newest milestone committed
            fmt::print(stderr, "permanode sync: milestone {}: {}\n", next, e.what());
            code = kFailure;
        }
        ++next;
        progress.Update(writer.committed().value_or(0), fetcher.Confirmed(), writer.blocks());
        report();
    }
    // the milestones before a failure still commit, in order
    if (!writer.Drain() && (code == kOk || code == kInterrupted))
        code = writer.exit_code();
    report();
    reporter.Stop(code);
    if (writer.committed())
        measurer.CatchUp(*writer.committed(), std::chrono::hours(24));
    measurer.Finish();
    std::uint32_t node_at = std::max(fetcher.Confirmed(), status.confirmed_index);
    if (writer.committed())
        fmt::print(stderr, "permanode sync: stopped after milestone {}; the node is at {}\n",
                   *writer.committed(), node_at);
    else if (code == kOk)
        fmt::print(stderr, "permanode sync: nothing to archive; the node is at {}\n", node_at);
    else
        fmt::print(stderr, "permanode sync: stopped; no milestone archived\n");
    return code;
}

// --gaps: each gap of permanode.sync_gaps(), as far as the node has it; what it does not have
// (another era's, or pruned) is named and stays a gap.
int FillGaps(sync::Node &node, const std::string &dsn, const sync::NodeStatus &status,
             const SyncOptions &options)
{
    std::uint32_t oldest = status.pruning_index + 1;
    auto gaps = ReadGaps(dsn);
    if (gaps.empty())
        fmt::print(stderr, "permanode sync: the archive has no gaps\n");
    for (auto [from, to] : gaps)
    {
        Stretch stretch{std::max(from, oldest), std::min(to, status.confirmed_index), false, {}};
        if (stretch.start > *stretch.to)
        {
            fmt::print(stderr,
                       "permanode sync: {} has none of milestones {} to {} (it has {} to {}); "
                       "they stay a gap\n",
                       node.Name(), from, to, oldest, status.confirmed_index);
            continue;
        }
        fmt::print(stderr, "permanode sync: filling milestones {} to {} of the gap {} to {}\n",
                   stretch.start, *stretch.to, from, to);
        int filled = Follow(node, dsn, status, stretch, options);
        if (filled != kOk)
            return filled;
    }
    return kOk;
}

std::unique_ptr<sync::Node> NodeOf(const SyncOptions &options)
{
    if (!options.api.empty())
        return std::make_unique<sync::RestNode>(options.api, options.requests);
    return std::make_unique<sync::InxNode>(options.inx);
}

// One session: the node's status, the archive's, the start, then the milestones. Sets
// *reached_database once the database has answered.
int SyncSession(sync::Node *node, const std::string &dsn, const SyncOptions &options,
                bool *reached_database)
{
    std::optional<sync::NodeStatus> status = WaitForNode(*node);
    if (!status)
        return kInterrupted;
    sync::ArchiveState archive = ReadArchive(dsn, status->protocol_version);
    *reached_database = true;
    Stretch stretch{0, options.to, options.until_synced, {}};
    try
    {
        if (options.gaps)
        {
            sync::CheckNetwork(*node, *status, archive);
            return FillGaps(*node, dsn, *status, options);
        }
        sync::StartPoint start = sync::ChooseStart(*node, *status, archive, options.from);
        stretch.start = start.start;
        stretch.outputs_before = std::move(start.outputs_before);
    }
    catch (const sync::StartError &e)
    {
        fmt::print(stderr, "permanode sync: {}\n", e.what());
        return ExitCodeOf(e.kind());
    }
    // the network of the node followed, so that a later sync refuses another one
    if (!status->network_name.empty())
        RecordSetting(dsn, NetworkSettingOf(status->protocol_version), status->network_name,
                      "the node's network; a later sync will not check it");
    // an empty archive started after the network's first milestone: what came before is a gap
    if (archive.empty && stretch.start > 1)
        RecordSetting(dsn, "history_from", "1",
                      "where its history starts; sync_gaps() will not show the milestones "
                      "before the first");
    fmt::print(stderr,
               "permanode sync: following {} (network \"{}\") from milestone {} (the node "
               "is at {})\n",
               node->Name(), status->network_name, stretch.start, status->confirmed_index);
    if (archive.empty && !node->ReadsLedger() && stretch.start > 1)
        fmt::print(stderr,
                   "permanode sync: the outputs created before milestone {} come with the "
                   "milestones before it: fill them from a node that has them "
                   "(`permanode sync --api URL --from N --to {}`)\n",
                   stretch.start, stretch.start - 1);
    return Follow(*node, dsn, *status, stretch, options);
}

} // namespace

// A database that goes away once the sync has reached it (a restart, a crash and its recovery,
// a failover) is waited for, and the sync resumes after the newest milestone it committed; one
// that cannot be reached at the start is an error (exit 5), as for every command.
int Sync(const std::string &dsn, const SyncOptions &options)
{
    InstallInterruptHandlers();
    std::unique_ptr<sync::Node> node;
    try
    {
        node = NodeOf(options);
    }
    catch (const std::invalid_argument &e)
    {
        fmt::print(stderr, "permanode sync: --api: {}\n", e.what());
        return kUsage;
    }
    bool reached_before = false;
    std::chrono::milliseconds wait = kDatabaseWaitFirst;
    for (;;)
    {
        bool reached = false;
        try
        {
            return SyncSession(node.get(), dsn, options, &reached);
        }
        catch (const std::exception &e)
        {
            if (!(reached || reached_before) || !IsDatabaseLost(e))
                throw;
            // after a session that got in, the first pause; while it stays away, longer ones
            wait = reached ? kDatabaseWaitFirst
                           : std::min<std::chrono::milliseconds>(wait * 2, kDatabaseWaitMax);
            std::string why = e.what();
            fmt::print(stderr, "permanode sync: lost the database ({}); connecting again in {} s\n",
                       why.substr(0, why.find('\n')), wait.count() / 1000);
        }
        reached_before = true;
        if (!SleepUnlessInterrupted(wait))
            return kInterrupted;
    }
}

} // namespace permanode::cli
