#include "analytics.hpp"

#include "interrupt.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

namespace permanode::cli
{
namespace
{

constexpr const char *kMeasure = "permanode.measure_milestones(int, int, int)";
constexpr const char *kRecordParameters =
    "permanode.record_protocol_parameters(int, smallint, bytea)";

// Whether this login may call the function (an older extension without it: no).
bool MayCall(pqxx::transaction_base &tx, const char *signature)
{
    pqxx::field allowed = tx.exec_params1("SELECT CASE WHEN to_regprocedure($1) IS NOT NULL THEN "
                                          "has_function_privilege($1, 'EXECUTE') END",
                                          signature)[0];
    return !allowed.is_null() && allowed.as<bool>();
}

bool MayMeasure(pqxx::connection &conn)
{
    pqxx::work tx(conn);
    return MayCall(tx, kMeasure);
}

// Rolls up the active addresses of the days (UTC) of the measured milestones from..to, without
// the last day unless `with_last_day` (it may not be over); returns the rows written and the
// first milestone of the days left.
std::pair<long, int> RollUpDays(pqxx::connection &conn, int from, int to, bool with_last_day)
{
    pqxx::work tx(conn);
    pqxx::row days = tx.exec_params1(
        "WITH m AS (SELECT milestone_index, (ms_timestamp AT TIME ZONE 'UTC')::date AS day "
        "FROM permanode.milestone_measurements WHERE milestone_index BETWEEN $1 AND $2) "
        "SELECT min(day)::text, (max(day) - CASE WHEN $3 THEN 0 ELSE 1 END)::text, "
        "(SELECT min(milestone_index) FROM m WHERE day = (SELECT max(day) FROM m)) FROM m",
        from, to, with_last_day);
    if (days[0].is_null() || days[1].as<std::string>() < days[0].as<std::string>())
        return {0, from};
    long rows = tx.exec_params1("SELECT permanode.rollup_active_addresses($1::date, $2::date)",
                                days[0].as<std::string>(), days[1].as<std::string>())[0]
                    .as<long>();
    tx.commit();
    return {rows, with_last_day ? to + 1 : days[2].as<int>()};
}

// Where a run whose own milestones start at `first` begins to measure: after the newest milestone
// measured before `first`, so that milestones an earlier run committed but did not live to measure
// (a kill -9 between its commits and its measuring) are measured first, in order, rather than
// holding up every later one; `first` when nothing before it is measured.
int FirstToMeasure(pqxx::connection &conn, int first)
{
    pqxx::work tx(conn);
    pqxx::field newest =
        tx.exec_params1("SELECT max(milestone_index) FROM "
                        "permanode.milestone_measurements WHERE milestone_index < $1",
                        first)[0];
    return newest.is_null() ? first : newest.as<int>() + 1;
}

FillSummary Fill(pqxx::connection &conn, const FillOptions &options, std::ostream *out)
{
    FillSummary summary;
    // Every milestone of the range up to the last one measured is measured: each batch starts
    // after it, and does not scan those again.
    int from = options.from;
    while (!Interrupted())
    {
        pqxx::work tx(conn);
        pqxx::row r = tx.exec_params1("SELECT measured, last_measured, blocked_at FROM "
                                      "permanode.measure_milestones($1, $2, $3)",
                                      from, options.to, options.batch);
        tx.commit();
        int measured = r[0].as<int>();
        summary.measured += measured;
        if (!r[1].is_null())
        {
            summary.last_measured = r[1].as<int>();
            if (summary.last_measured < options.to)
                from = summary.last_measured + 1;
            if (out != nullptr)
                *out << fmt::format("measured {} milestones, up to {}\n", measured,
                                    summary.last_measured)
                     << std::flush;
        }
        if (!r[2].is_null())
        {
            summary.blocked_at = r[2].as<int>();
            break;
        }
        if (measured < options.batch || summary.last_measured >= options.to ||
            (options.deadline && std::chrono::steady_clock::now() >= *options.deadline))
            break;
    }
    summary.interrupted = Interrupted();
    return summary;
}

} // namespace

FillSummary FillMeasurements(const std::string &dsn, const FillOptions &options, std::ostream &out)
{
    InstallInterruptHandlers();
    pqxx::connection conn(dsn);
    FillSummary summary = Fill(conn, options, &out);
    if (summary.measured > 0)
        summary.active_address_rows = RollUpDays(conn, options.from, options.to, true).first;
    return summary;
}

void MeasureIngested(const std::string &dsn, int from, int to)
{
    pqxx::connection conn(dsn);
    if (!MayMeasure(conn))
    {
        fmt::print("notice: analytics not measured: {} may not measure (permanode_writer or "
                   "permanode_admin may: permanode analytics --fill {} {})\n",
                   conn.username(), from, to);
        return;
    }
    FillOptions options;
    options.from = FirstToMeasure(conn, from);
    options.to = to;
    FillSummary summary = Fill(conn, options, nullptr);
    if (summary.measured > 0)
        RollUpDays(conn, options.from, to, true);
    if (summary.measured > 0)
        fmt::print("analytics: measured {} milestone{}\n", summary.measured,
                   summary.measured == 1 ? "" : "s");
    if (summary.blocked_at >= 0)
        fmt::print("notice: analytics wait for milestone {}: measure it (permanode analytics "
                   "--fill), or ingest it if it is missing\n",
                   summary.blocked_at - 1);
}

int RecordProtocolParameters(const std::string &dsn, std::vector<ParametersChange> changes)
{
    if (changes.empty())
        return 0;
    std::sort(changes.begin(), changes.end(),
              [](const auto &a, const auto &b) { return a.milestone_index < b.milestone_index; });
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    if (!MayCall(tx, kRecordParameters))
        return 0;
    int recorded = 0;
    for (const ParametersChange &change : changes)
    {
        pqxx::binarystring params(change.params.data(), change.params.size());
        recorded += tx.exec_params1("SELECT permanode.record_protocol_parameters($1, 2::smallint, "
                                    "$2)",
                                    static_cast<std::int64_t>(change.milestone_index), params)[0]
                        .as<bool>();
    }
    tx.commit();
    return recorded;
}

MeasureFollower::MeasureFollower(const std::string &dsn, std::uint32_t first)
    : next_(static_cast<int>(first)), rolled_from_(static_cast<int>(first))
{
    conn_.emplace(dsn);
    if (!MayMeasure(*conn_))
    {
        fmt::print(stderr, "permanode sync: analytics not measured: {} may not measure\n",
                   conn_->username());
        conn_.reset();
        return;
    }
    next_ = rolled_from_ = FirstToMeasure(*conn_, next_);
}

void MeasureFollower::CatchUp(std::uint32_t committed, std::chrono::milliseconds budget)
{
    if (!conn_ || waiting_ || static_cast<int>(committed) < next_)
        return;
    FillOptions options;
    options.from = next_;
    options.to = static_cast<int>(committed);
    options.batch = 50;
    options.deadline = std::chrono::steady_clock::now() + budget;
    FillSummary summary;
    try
    {
        summary = Fill(*conn_, options, nullptr);
        if (summary.measured > 0)
            RollUp(false);
    }
    catch (const std::exception &e)
    {
        // the archive goes on without them; analytics --fill measures them later
        fmt::print(stderr, "permanode sync: analytics stopped: {}\n", e.what());
        conn_.reset();
        return;
    }
    if (summary.last_measured >= 0)
        next_ = summary.last_measured + 1;
    if (summary.blocked_at >= 0)
    {
        waiting_ = true;
        fmt::print(stderr,
                   "permanode sync: analytics wait for milestone {}: measure it (permanode "
                   "analytics --fill)\n",
                   summary.blocked_at - 1);
    }
}

void MeasureFollower::Finish()
{
    try
    {
        if (conn_)
            RollUp(true);
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "permanode sync: analytics not rolled up: {}\n", e.what());
    }
}

void MeasureFollower::RollUp(bool with_current_day)
{
    if (next_ > rolled_from_)
        rolled_from_ = RollUpDays(*conn_, rolled_from_, next_ - 1, with_current_day).second;
}

} // namespace permanode::cli
