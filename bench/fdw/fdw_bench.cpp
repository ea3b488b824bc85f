// fdw_bench: cold (RocksDB archive behind permanode_fdw) against hot (heap partitions) on the
// same 5M-row outputs-like table, measured in one run:
//   point lookup latency, first page (100 rows, newest first) by address, full scan rows/s,
//   bytes on disk (heap + indexes + TOAST against the archive directory), archive throughput,
//   and planning time of a table whose archive covers 1000 ranges against one covering 10.
// Every figure is a ratio against a baseline of the same run.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"

using namespace permanode::bench;

namespace
{

constexpr int kRows = 5'000'000;
constexpr int kRanges = 10; // one heap partition per ms_range_id
constexpr int kAddresses = 100'000;
constexpr int kLookups = 5'000;
constexpr int kPages = 500;
constexpr int kPlans = 300;

void Log(const std::string &what)
{
    std::fprintf(stderr, "fdw_bench: %s\n", what.c_str());
}

void Exec(pqxx::connection &conn, const std::string &sql)
{
    pqxx::nontransaction(conn).exec(sql);
}

// Creates and fills the partitioned table: 32-byte output IDs, 33-byte addresses (each used by
// 50 outputs), timestamps, amounts, an optional tag and a serialized-output-like payload.
void Generate(pqxx::connection &conn)
{
    Exec(conn, "DROP TABLE IF EXISTS bench_outputs");
    Exec(conn, R"(CREATE TABLE bench_outputs (
        output_id bytea NOT NULL, ms_range_id int NOT NULL, milestone_index int NOT NULL,
        ms_timestamp timestamptz NOT NULL, address bytea NOT NULL, amount bigint NOT NULL,
        is_spent bool NOT NULL, tag text, data bytea NOT NULL) PARTITION BY RANGE (ms_range_id))");
    for (int r = 0; r < kRanges; r++)
        Exec(conn, fmt::format("CREATE TABLE bench_outputs_{0} PARTITION OF bench_outputs "
                               "FOR VALUES FROM ({0}) TO ({1})",
                               r, r + 1));
    Exec(conn, fmt::format(R"(INSERT INTO bench_outputs
        SELECT sha256(int8send(g)), g / {0}, g / 100,
               timestamptz '2023-01-01 00:00:00+00' + g * interval '100 milliseconds',
               '\x00'::bytea || sha256(int8send(g % {1})), (g % 1000) * 1000000 + g % 7,
               g % 3 = 0, CASE WHEN g % 4 = 0 THEN 'tag' || (g % 100) END,
               '\x03'::bytea || int8send((g % 1000) * 1000000) || '\x000100000001'::bytea
                   || int4send(g / 100) || '\x0000'::bytea
        FROM generate_series(0, {2}) g)",
                           kRows / kRanges, kAddresses, kRows - 1));
    for (int r = 0; r < kRanges; r++)
        Exec(conn, fmt::format(
                       "ALTER TABLE bench_outputs_{} ADD PRIMARY KEY (output_id, ms_range_id)", r));
    Exec(conn, "CREATE INDEX bench_outputs_by_address ON bench_outputs "
               "(address, ms_timestamp DESC, milestone_index DESC, output_id) INCLUDE (amount)");
    Exec(conn, "VACUUM ANALYZE bench_outputs");
}

struct Sample
{
    std::vector<std::pair<std::string, int>> ids; // output_id (hex) and ms_range_id
    std::vector<std::string> addresses;           // hex
};

Sample PickSample(pqxx::connection &conn)
{
    Sample s;
    pqxx::nontransaction tx(conn);
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int64_t> row(0, kRows - 1);
    std::uniform_int_distribution<int64_t> addr(0, kAddresses - 1);
    for (int i = 0; i < kLookups; i++)
    {
        int64_t g = row(rng);
        s.ids.emplace_back(
            tx.exec1(fmt::format("SELECT encode(sha256(int8send({}::bigint)), 'hex')", g))[0]
                .as<std::string>(),
            static_cast<int>(g / (kRows / kRanges)));
    }
    for (int i = 0; i < kPages; i++)
        s.addresses.push_back(tx.exec1(fmt::format(
            "SELECT encode('\\x00'::bytea || sha256(int8send({}::bigint)), 'hex')", addr(rng)))[0]
                                  .as<std::string>());
    return s;
}

// Mean seconds per prepared point lookup (every lookup must find its row).
double PointLookup(pqxx::connection &conn, const Sample &s)
{
    pqxx::nontransaction tx(conn);
    for (int i = 0; i < 200; i++) // warm up: caches, plans, archive handles
        tx.exec_prepared("lookup", "\\x" + s.ids[i].first, s.ids[i].second);
    auto start = std::chrono::steady_clock::now();
    for (const auto &[id, range] : s.ids)
        if (tx.exec_prepared("lookup", "\\x" + id, range).size() != 1)
            throw std::runtime_error("point lookup missed a row");
    return SecondsSince(start) / s.ids.size();
}

// Mean seconds per first page (100 rows newest first) of an address.
double FirstPage(pqxx::connection &conn, const Sample &s)
{
    pqxx::nontransaction tx(conn);
    for (int i = 0; i < 50; i++)
        tx.exec_prepared("page", "\\x" + s.addresses[i]);
    auto start = std::chrono::steady_clock::now();
    for (const auto &a : s.addresses)
        if (tx.exec_prepared("page", "\\x" + a).empty())
            throw std::runtime_error("an address page came back empty");
    return SecondsSince(start) / s.addresses.size();
}

// Rows per second of a full scan (best of three, no parallel workers on either side).
double FullScan(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    tx.exec0("SET max_parallel_workers_per_gather = 0");
    double best = 1e9;
    for (int i = 0; i < 3; i++)
    {
        auto start = std::chrono::steady_clock::now();
        auto row = tx.exec1("SELECT count(*), sum(amount) FROM bench_outputs");
        best = std::min(best, SecondsSince(start));
        if (row[0].as<int64_t>() != kRows)
            throw std::runtime_error("full scan lost rows");
    }
    return kRows / best;
}

void Prepare(pqxx::connection &conn)
{
    conn.prepare("lookup", "SELECT amount, address FROM bench_outputs "
                           "WHERE output_id = $1 AND ms_range_id = $2");
    conn.prepare("page", "SELECT output_id, amount, ms_timestamp FROM bench_outputs "
                         "WHERE address = $1 ORDER BY ms_timestamp DESC, milestone_index DESC "
                         "LIMIT 100");
}

// Median planning time (ms) of a point lookup on a table archived as one foreign partition
// covering `ranges` ms_range_ids (one heap partition per range before archiving).
double PlanningTime(pqxx::connection &conn, int ranges)
{
    std::string t = fmt::format("bench_plan_{}", ranges);
    Exec(conn, "DROP TABLE IF EXISTS " + t);
    Exec(conn, fmt::format("CREATE TABLE {} (output_id bytea NOT NULL, ms_range_id int NOT NULL, "
                           "address bytea, amount bigint) PARTITION BY RANGE (ms_range_id)",
                           t));
    Exec(conn, fmt::format("CREATE INDEX ON {} (address)", t));
    Exec(conn, fmt::format(R"(DO $$ BEGIN FOR r IN 0..{1} - 1 LOOP
        EXECUTE format('CREATE TABLE {0}_%s PARTITION OF {0} FOR VALUES FROM (%s) TO (%s)', r, r, r + 1);
        EXECUTE format('ALTER TABLE {0}_%s ADD PRIMARY KEY (output_id, ms_range_id)', r);
        END LOOP; END $$)",
                           t, ranges));
    Exec(conn, fmt::format(
                   "INSERT INTO {} SELECT sha256(int8send(g)), g % {}, sha256(int8send(g % 97)), g "
                   "FROM generate_series(1, 20000) g",
                   t, ranges));
    Exec(conn, fmt::format("SELECT permanode.archive_partitions('{}', 0, {})", t, ranges));
    pqxx::nontransaction tx(conn);
    std::vector<double> times;
    std::string query = fmt::format("EXPLAIN (SUMMARY) SELECT amount FROM {} WHERE output_id = "
                                    "'\\x1234' AND ms_range_id BETWEEN 3 AND 7",
                                    t);
    for (int i = 0; i < kPlans; i++)
        for (const auto &row : tx.exec(query))
        {
            std::string line = row[0].as<std::string>();
            if (line.rfind("Planning Time: ", 0) == 0)
                times.push_back(std::stod(line.substr(15)));
        }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

} // namespace

int main()
{
    try
    {
        pqxx::connection conn(BenchDsn());
        Exec(conn, "CREATE EXTENSION IF NOT EXISTS permanode_fdw");
        // Archiving sorts every family; like CREATE INDEX it runs best when the sorts fit in
        // memory.
        Exec(conn, "SET maintenance_work_mem = '1GB'");

        Log("generating 5M rows");
        auto gen_start = std::chrono::steady_clock::now();
        Generate(conn);
        Log(fmt::format("generated in {:.1f} s", SecondsSince(gen_start)));
        Sample sample = PickSample(conn);
        Prepare(conn);

        Log("measuring the hot tier");
        double hot_bytes =
            pqxx::nontransaction(conn)
                .exec1("SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits "
                       "WHERE inhparent = 'bench_outputs'::regclass")[0]
                .as<double>();
        double hot_lookup = PointLookup(conn, sample);
        double hot_page = FirstPage(conn, sample);
        double hot_scan = FullScan(conn);

        Log("archiving");
        auto archive_start = std::chrono::steady_clock::now();
        Exec(conn,
             fmt::format("SELECT permanode.archive_partitions('bench_outputs', 0, {})", kRanges));
        double archive_rate = kRows / SecondsSince(archive_start);
        Log(fmt::format("archived in {:.1f} s", SecondsSince(archive_start)));

        Log("measuring the cold tier");
        conn.disconnect();
        pqxx::connection cold(BenchDsn());
        Prepare(cold);
        double cold_bytes = pqxx::nontransaction(cold)
                                .exec1("SELECT sum(bytes) FROM permanode.archive_status "
                                       "WHERE parent_table = 'bench_outputs'::regclass")[0]
                                .as<double>();
        double cold_lookup = PointLookup(cold, sample);
        double cold_page = FirstPage(cold, sample);
        double cold_scan = FullScan(cold);

        Log("planning with 10 and 1000 archived ranges");
        double plan_10 = PlanningTime(cold, 10);
        double plan_1000 = PlanningTime(cold, 1000);

        PrintRatio("fdw: cold point lookup (s) vs hot", cold_lookup, hot_lookup, "<=2");
        PrintRatio("fdw: cold first page by address (s) vs hot", cold_page, hot_page, "<=2");
        PrintRatio("fdw: cold full scan (rows/s) vs hot seq scan", cold_scan, hot_scan, ">=0.5");
        PrintRatio("fdw: cold bytes vs hot bytes (heap+indexes)", cold_bytes, hot_bytes, "<=0.33");
        PrintRatio("fdw: archive throughput (rows/s) vs 300k rows/s", archive_rate, 300000, ">=1");
        PrintRatio("fdw: planning (ms) 1000 archived ranges vs 10", plan_1000, plan_10, "<=1.5");
        Exec(cold, "DROP TABLE bench_outputs, bench_plan_10, bench_plan_1000");
        Exec(cold, "SELECT count(*) FROM permanode.archive_gc()");
    }
    catch (const std::exception &e)
    {
        std::fprintf(stderr, "fdw_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
