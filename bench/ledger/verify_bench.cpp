// Issue 24's verify figures: permanode.verify() over a generated Stardust ledger (its real Merkle
// roots included), in blocks per second, against deriving the same stored cones again and
// nothing else (verify_cone; target >= 0.5), and against the BLAKE2b-256 of the same stored
// bytes (report: hashing alone neither decodes nor derives). Also reported: verify over the same
// ranges once archived (cold) against hot. PERMANODE_BENCH_SCALE scales the ledger.
#include <chrono>
#include <string>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"

using namespace permanode::bench;

namespace
{

// Seconds of one statement (after one untimed run, so both sides read warm pages).
double Seconds(pqxx::connection &conn, const std::string &sql, long expected = -1)
{
    pqxx::nontransaction tx(conn);
    tx.exec1(sql);
    auto start = std::chrono::steady_clock::now();
    long got = tx.exec1(sql)[0].as<long>();
    double seconds = SecondsSince(start);
    if (expected >= 0 && got != expected)
        throw std::runtime_error(fmt::format("{} returned {}, not {}", sql, got, expected));
    return seconds;
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        double scale = BenchScale();
        constexpr int kChunk = 500;
        int milestones = std::max(2 * kChunk, static_cast<int>(4000 * scale));
        std::string db = CreateLedgerDatabase(dsn, "bench_verify", kChunk);
        GenerateAndIngest(PERMANODE_CLI_PATH, db, milestones);
        pqxx::connection conn(db);
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");
        auto bytes = pqxx::nontransaction(conn).exec1(
            "SELECT count(*), sum(length(message)) FROM permanode.messages");
        fmt::print(stderr, "verify: {} blocks, {} MB\n", bytes[0].as<long>(),
                   bytes[1].as<long>() >> 20);

        int ranges = milestones / kChunk; // the ranges below the newest one
        std::string range_sql = fmt::format("permanode.verify(0, {})", ranges);
        double floor = Seconds(conn, fmt::format("SELECT count(permanode.blake2b256(message)) FROM "
                                                 "permanode.messages WHERE ms_range_id < {}",
                                                 ranges));
        // Deriving the same cones again and nothing else: verify_cone over each milestone's
        // stored cone, read as verify reads it.
        double derive = Seconds(
            conn,
            fmt::format("SELECT count(*) FROM (SELECT m.milestone_index, array_agg(m.message "
                        "ORDER BY m.white_flag_index) AS blocks, array_agg(m.inclusion_state "
                        "ORDER BY m.white_flag_index) AS states, max(m.version)::smallint AS "
                        "version, extract(epoch FROM min(m.ms_timestamp))::bigint AS ts FROM "
                        "permanode.messages m WHERE m.ms_range_id < {} AND m.milestone_index "
                        "IS NOT NULL GROUP BY 1) c CROSS JOIN LATERAL permanode.verify_cone("
                        "c.milestone_index, c.ts, c.blocks, c.states, NULL, c.version, NULL) d",
                        ranges));
        double hot = Seconds(conn, "SELECT count(*) FROM " + range_sql, 0);
        double blocks = pqxx::nontransaction(conn)
                            .exec1(fmt::format("SELECT count(*) FROM permanode.messages WHERE "
                                               "ms_range_id < {}",
                                               ranges))[0]
                            .as<double>();
        PrintRatio(fmt::format("verify: blocks per second over {} ranges, against deriving the "
                               "same stored cones again (verify_cone alone)",
                               ranges),
                   blocks / hot, blocks / derive, ">=0.5");
        PrintRatio("verify: blocks per second against BLAKE2b-256 of the same stored bytes "
                   "(report: verify decodes and derives every block, which hashing does not)",
                   blocks / hot, blocks / floor, "report");
        {
            pqxx::nontransaction archive(conn);
            archive.exec0("SET maintenance_work_mem = '1GB'");
            archive.exec1(fmt::format("SELECT count(*) FROM permanode.archive(0, {})", ranges));
        }
        double cold = Seconds(conn, "SELECT count(*) FROM " + range_sql, 0);
        PrintRatio("verify: the same ranges archived (cold) against hot (time, report)", cold, hot,
                   "report");
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "verify_bench: {}\n", e.what());
        return 1;
    }
}
