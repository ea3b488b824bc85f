// The sync's row of permanode.sync_follow (see sync_report.hpp).
#include "sync/sync_report.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>
#include <pqxx/pqxx>

namespace permanode::sync
{
namespace
{

using namespace std::chrono_literals;

constexpr auto kEvery = 1s;       // a write at most this often
constexpr auto kWindow = 10s;     // the rates are over this much of the past
constexpr auto kRetryAfter = 10s; // after a failed write

// Every write sets the whole row: the first one of a run makes it or takes it over.
constexpr const char *kUpsert =
    "INSERT INTO permanode.sync_follow AS f (source, pid, live, started_at, updated_at, "
    "node_confirmed_index, node_confirmed_timestamp, archived_index, milestones_per_s, "
    "blocks_per_s, reconnects, stopped_at, exit_code) "
    "VALUES ($1, $2, $3, to_timestamp($4::float8), now(), $5, "
    "to_timestamp(nullif($6::bigint, 0)), nullif($7::int, 0), $8, $9, $10, "
    "CASE WHEN $11::boolean THEN now() END, nullif($12::int, -1)) "
    "ON CONFLICT (source) DO UPDATE SET pid = EXCLUDED.pid, live = EXCLUDED.live, "
    "started_at = EXCLUDED.started_at, updated_at = EXCLUDED.updated_at, "
    "node_confirmed_index = EXCLUDED.node_confirmed_index, "
    "node_confirmed_timestamp = EXCLUDED.node_confirmed_timestamp, "
    "archived_index = EXCLUDED.archived_index, milestones_per_s = EXCLUDED.milestones_per_s, "
    "blocks_per_s = EXCLUDED.blocks_per_s, reconnects = EXCLUDED.reconnects, "
    "stopped_at = EXCLUDED.stopped_at, exit_code = EXCLUDED.exit_code";

// Errors that another attempt would meet again: no right to write, no table (an extension
// older than 0.11.0). By type: libpqxx 6.4 leaves sqlstate() empty for prepared statements.
bool ForGood(const pqxx::sql_error &e)
{
    return dynamic_cast<const pqxx::insufficient_privilege *>(&e) != nullptr ||
           dynamic_cast<const pqxx::undefined_table *>(&e) != nullptr ||
           dynamic_cast<const pqxx::undefined_column *>(&e) != nullptr;
}

double UnixSeconds()
{
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

} // namespace

SyncReporter::SyncReporter(std::string dsn, std::string source, bool live)
    : dsn_(std::move(dsn)), source_(std::move(source)), live_(live), started_at_(UnixSeconds())
{
}

SyncReporter::~SyncReporter()
{
    try
    {
        Stop(std::nullopt);
    }
    catch (...)
    {
        // a report is never worth an exception out of a destructor
    }
}

void SyncReporter::Update(std::uint32_t archived_index, std::uint32_t node_confirmed_index,
                          std::uint32_t node_confirmed_timestamp, std::uint64_t blocks_total,
                          std::uint64_t reconnects)
{
    last_ = Figures{archived_index, node_confirmed_index, node_confirmed_timestamp, blocks_total,
                    reconnects};
    auto now = Clock::now();
    if (stopped_ || disabled_ || now - last_write_ < kEvery || now < retry_at_)
        return;
    Write(last_, std::nullopt, false, now);
}

void SyncReporter::Stop(std::optional<int> exit_code)
{
    if (stopped_)
        return;
    stopped_ = true;
    if (!disabled_)
        Write(last_, exit_code, true, Clock::now());
}

std::pair<double, double> SyncReporter::Rates(const Figures &figures, Clock::time_point now)
{
    samples_.push_back(Sample{now, figures.archived_index, figures.blocks_total});
    // keep one sample at least kWindow old, as the base
    while (samples_.size() > 2 && now - samples_[1].at >= kWindow)
        samples_.pop_front();
    const Sample &base = samples_.front();
    double seconds = std::chrono::duration<double>(now - base.at).count();
    if (seconds <= 0)
        return {0, 0};
    double milestones =
        figures.archived_index > base.archived ? figures.archived_index - base.archived : 0;
    double blocks = figures.blocks_total > base.blocks ? figures.blocks_total - base.blocks : 0;
    return {milestones / seconds, blocks / seconds};
}

bool SyncReporter::Write(const Figures &figures, std::optional<int> exit_code, bool stopped,
                         Clock::time_point now)
{
    last_write_ = now;
    auto [milestones_per_s, blocks_per_s] = Rates(figures, now);
    try
    {
        if (!db_)
            Connect();
        pqxx::nontransaction tx(*db_);
        tx.exec_prepared("sync_report", source_, static_cast<int>(getpid()), live_,
                         fmt::format("{:.3f}", started_at_), figures.node_confirmed_index,
                         figures.node_confirmed_timestamp, figures.archived_index, milestones_per_s,
                         blocks_per_s, figures.reconnects, stopped, exit_code.value_or(-1));
        if (warned_)
            fmt::print(stderr, "permanode sync: reporting to permanode.sync_follow again\n");
        warned_ = false;
        return true;
    }
    catch (const pqxx::sql_error &e)
    {
        Failed(e.what(), ForGood(e));
    }
    catch (const std::exception &e) // the connection: made, or lost
    {
        Failed(e.what(), false);
    }
    return false;
}

void SyncReporter::Connect()
{
    auto db = std::make_unique<pqxx::connection>(dsn_);
    pqxx::nontransaction tx(*db);
    // a heartbeat lost in a crash costs nothing; one stuck behind a lock must not stall the sync
    tx.exec("SET synchronous_commit = off");
    tx.exec("SET statement_timeout = '2s'");
    tx.commit();
    db->prepare("sync_report", kUpsert);
    db_ = std::move(db);
}

void SyncReporter::Failed(const std::string &why, bool for_good)
{
    db_.reset();
    retry_at_ = Clock::now() + kRetryAfter;
    disabled_ = disabled_ || for_good;
    if (warned_)
        return;
    warned_ = true;
    std::string message = why.substr(0, why.find('\n'));
    fmt::print(stderr,
               "permanode sync: cannot report to permanode.sync_follow ({}); health will not "
               "see this sync{}\n",
               message, for_good ? "" : " until a report gets through");
}

Confirmation NewestConfirmation(const Node &node, const NodeStatus &at_start)
{
    Confirmation heard = node.LastConfirmation();
    if (heard.index >= at_start.confirmed_index)
        return heard;
    return {at_start.confirmed_index, at_start.confirmed_timestamp};
}

} // namespace permanode::sync
