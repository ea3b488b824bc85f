#include "analytics.hpp"

#include "interrupt.hpp"

#include <ostream>

#include <fmt/format.h>
#include <pqxx/pqxx>

namespace permanode::cli
{
namespace
{

// The days (UTC) of the milestones from..to that are measured, to roll their active addresses up.
void RollUpActiveAddresses(pqxx::connection &conn, int from, int to, FillSummary &summary)
{
    pqxx::work tx(conn);
    pqxx::row days = tx.exec_params1(
        "SELECT min(ms_timestamp AT TIME ZONE 'UTC')::date::text, "
        "max(ms_timestamp AT TIME ZONE 'UTC')::date::text "
        "FROM permanode.milestone_measurements WHERE milestone_index BETWEEN $1 AND $2",
        from, to);
    if (days[0].is_null())
        return;
    summary.active_address_rows =
        tx.exec_params1("SELECT permanode.rollup_active_addresses($1::date, $2::date)",
                        days[0].as<std::string>(), days[1].as<std::string>())[0]
            .as<long>();
    tx.commit();
}

} // namespace

FillSummary FillMeasurements(const std::string &dsn, const FillOptions &options, std::ostream &out)
{
    InstallInterruptHandlers();
    pqxx::connection conn(dsn);
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
            out << fmt::format("measured {} milestones, up to {}\n", measured,
                               summary.last_measured)
                << std::flush;
        }
        if (!r[2].is_null())
        {
            summary.blocked_at = r[2].as<int>();
            break;
        }
        if (measured < options.batch || summary.last_measured >= options.to)
            break;
    }
    summary.interrupted = Interrupted();
    if (summary.measured > 0)
        RollUpActiveAddresses(conn, options.from, options.to, summary);
    return summary;
}

} // namespace permanode::cli
