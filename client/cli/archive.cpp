// The cold tier at the ledger level: archive, restore and status over permanode.archive(),
// permanode.restore() and the permanode.status view.
#include "archive.hpp"

#include "print_table.hpp"

#include "permanode/replica_set.hpp"

#include <chrono>
#include <thread>

#include <fmt/format.h>

namespace permanode::cli
{
namespace
{

constexpr int kConflictAttempts = 5;

// Runs a statement of the cold tier in one transaction and prints its rows. The engine's
// notices (indexes it does not archive) stay quiet. Archiving gives way in a deadlock with the
// sessions reading and writing the tables (permanode_fdw's archive_swap.cpp), rolled back whole:
// it runs again, a few times, after a pause that lets them finish.
template <typename... Args>
void RunAndPrint(pqxx::connection &conn, const std::string &sql, Args... args)
{
    for (int attempt = 1;; attempt++)
    {
        try
        {
            pqxx::work tx(conn);
            tx.exec0("SET LOCAL client_min_messages = warning");
            pqxx::result rows = tx.exec_params(sql, args...);
            tx.commit();
            PrintTable(rows);
            return;
        }
        catch (const pqxx::sql_error &e)
        {
            // what ingest, sync and the HTTP server send again (40P01, 40001), and only that
            if (!client::IsTransientConflict(e.sqlstate()) || attempt == kConflictAttempts)
                throw;
            std::string why = e.what();
            fmt::print(stderr, "permanode: rolled back ({}); running it again\n",
                       why.substr(0, why.find('\n')));
            std::this_thread::sleep_for(std::chrono::seconds(attempt));
        }
    }
}

} // namespace

void ArchiveRanges(pqxx::connection &conn, int from_range, int to_range)
{
    RunAndPrint(conn,
                "SELECT table_name, archive, rows FROM permanode.archive($1, $2) ORDER BY 1, 2",
                from_range, to_range);
}

void ArchiveOlderThan(pqxx::connection &conn, int older_than)
{
    RunAndPrint(conn, "SELECT table_name, archive, rows FROM permanode.archive($1) ORDER BY 1, 2",
                older_than);
}

void RestoreRanges(pqxx::connection &conn, int from_range, int to_range)
{
    RunAndPrint(conn,
                "SELECT table_name, archive, from_archived, to_archived, rows "
                "FROM permanode.restore($1, $2) ORDER BY 1, 3",
                from_range, to_range);
}

void PrintLedgerStatus(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    // A standby answers from what it has replayed: say so, and how far behind it is.
    auto role = tx.exec1("SELECT pg_is_in_recovery(), "
                         "coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp())"
                         "::numeric(12, 1)::text, 'unknown')");
    if (role[0].as<bool>())
        fmt::print("server: standby (read-only; last replayed transaction {} s ago)\n\n",
                   role[1].c_str());
    else
        fmt::print("server: primary\n\n");
    // The eras held, in milestone order (milestone_protocols came in 0.5.0).
    if (!tx.exec1("SELECT to_regclass('permanode.milestone_protocols') IS NULL")[0].as<bool>())
    {
        PrintTable(tx.exec("SELECT CASE protocol_version WHEN 1 THEN 'Chrysalis' "
                           "ELSE 'Stardust' END AS era, protocol_version, "
                           "count(*) AS milestones, min(milestone_index) AS first_milestone, "
                           "max(milestone_index) AS last_milestone "
                           "FROM permanode.milestone_protocols GROUP BY protocol_version "
                           "ORDER BY min(milestone_index)"));
        fmt::print("\n");
    }
    // The pending tier's ranges show as "pending"; empty hot partitions made ahead are left out.
    PrintTable(tx.exec("SELECT table_name, "
                       "CASE WHEN to_range IS NULL THEN 'pending' "
                       "     WHEN to_range = from_range + 1 THEN from_range::text "
                       "     ELSE from_range || '-' || to_range - 1 END AS ranges, "
                       // a remote range names its server (the column came in 0.10.0)
                       "tier || coalesce(' (' || (to_jsonb(s) ->> 'server') || ')', '') AS tier, "
                       "rows, pg_size_pretty(bytes) AS bytes "
                       "FROM permanode.status s WHERE rows > 0 OR tier IN ('cold', 'remote') "
                       "ORDER BY table_name, from_range"));
    fmt::print("\n");
    // The legacy era's months (schema legacy came in 0.6.0).
    if (!tx.exec1("SELECT to_regclass('legacy.status') IS NULL")[0].as<bool>() &&
        tx.exec1("SELECT EXISTS (SELECT 1 FROM legacy.transaction_locator)")[0].as<bool>())
    {
        fmt::print("legacy era (by month):\n");
        PrintTable(tx.exec("SELECT table_name, CASE WHEN to_month = from_month + 1 "
                           "THEN legacy.month_name(from_month) ELSE legacy.month_name(from_month) "
                           "|| ' to ' || legacy.month_name(to_month - 1) END AS months, tier, "
                           "rows, pg_size_pretty(bytes) AS bytes FROM legacy.status "
                           "WHERE rows > 0 OR tier = 'cold' ORDER BY table_name, from_month"));
        fmt::print("\n");
    }
    PrintTable(tx.exec("SELECT coalesce(s.tier, 'total') AS tier, count(*) AS partitions, "
                       "sum(s.rows) AS rows, pg_size_pretty(sum(s.bytes)) AS bytes "
                       "FROM permanode.status s GROUP BY ROLLUP (s.tier) "
                       "ORDER BY grouping(s.tier), s.tier"));
}

} // namespace permanode::cli
