// The nodes followed, for `permanode status` (see sync_status.hpp).
#include "sync_status.hpp"

#include <string>

#include <fmt/format.h>

namespace permanode::cli
{
namespace
{

// Every figure as text, timestamps in UTC.
constexpr const char *kSyncs =
    "SELECT h.source, h.live, f.pid, to_char(h.started_at AT TIME ZONE 'UTC', "
    "'YYYY-MM-DD HH24:MI:SS'), h.state, h.healthy, h.reason, h.archived_index, "
    "h.node_confirmed_index, h.lag_milestones, h.lag_seconds, "
    "round(h.milestones_per_s::numeric, 2), round(h.blocks_per_s::numeric, 1), h.reconnects, "
    "round(extract(epoch FROM h.heartbeat_age), 1), "
    "to_char(h.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), "
    "to_char(h.stopped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), h.exit_code "
    "FROM permanode.sync_health($1, make_interval(secs => $2)) h "
    "JOIN permanode.sync_follow f USING (source) "
    "ORDER BY h.source";

std::string Text(const pqxx::field &field, const char *if_null = "unknown")
{
    return field.is_null() ? if_null : field.c_str();
}

// "stopped at ... (exit code 130)", "not reporting (since ...)", "following", "behind"
std::string StateOf(const pqxx::row &row)
{
    std::string state = row[4].c_str();
    if (state == "stopped")
        return fmt::format("stopped at {} UTC ({})", Text(row[16]),
                           row[17].is_null() ? "on an error"
                                             : fmt::format("exit code {}", row[17].c_str()));
    if (state == "not reporting")
        return fmt::format("not reporting (since {} UTC)", Text(row[15]));
    return state;
}

void PrintSync(const pqxx::row &row)
{
    fmt::print("sync from {}: {}, pid {}, started {} UTC\n", row[0].c_str(),
               row[1].as<bool>() ? "live" : "bounded (--to, --until-synced)", row[2].c_str(),
               row[3].c_str());
    fmt::print("  {}: archived {}, node at {} ({} milestones, {} s behind)\n", StateOf(row),
               Text(row[7], "none"), row[8].c_str(), row[9].c_str(), Text(row[10]));
    fmt::print("  {} milestones/s, {} blocks/s, {} reconnects; reported {} s ago\n",
               row[11].c_str(), row[12].c_str(), row[13].c_str(), row[14].c_str());
    if (row[5].as<bool>())
        fmt::print("  healthy\n");
    else
        fmt::print("  unhealthy: {}\n", row[6].c_str());
}

} // namespace

void PrintSyncStatus(pqxx::connection &conn, const SyncLimits &limits)
{
    pqxx::read_transaction tx(conn);
    if (tx.exec1("SELECT to_regprocedure('permanode.sync_health(int, interval)') IS NULL")[0]
            .as<bool>())
        return;
    pqxx::result syncs = tx.exec_params(kSyncs, limits.max_lag, limits.max_silence_s);
    if (syncs.empty())
        fmt::print("sync: no node followed into this database\n");
    for (const pqxx::row &row : syncs)
        PrintSync(row);
}

} // namespace permanode::cli
