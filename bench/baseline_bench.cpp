// The baselines every other benchmark compares against, measured on the same cluster in the same
// run: COPY into an unindexed table, a prepared point lookup on an unpartitioned primary key, and
// a heap sequential scan.
#include <cstdint>
#include <random>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"

using namespace permanode::bench;

namespace
{

constexpr int kRows = 1'000'000;
constexpr int kLookups = 20'000;

// A 32-byte key in PostgreSQL's bytea hex text form, like a block or output ID.
std::string KeyFor(uint64_t i)
{
    std::string key = "\\x";
    for (int word = 0; word < 4; ++word)
        key += fmt::format("{:016x}", (i + 1) * 0x9E3779B97F4A7C15ULL * (word + 1));
    return key;
}

double MeasureCopy(pqxx::connection &conn)
{
    pqxx::work tx(conn);
    tx.exec0("DROP TABLE IF EXISTS bench_baseline");
    tx.exec0("CREATE TABLE bench_baseline (id bigint, key bytea, amount bigint, note text)");
    auto start = std::chrono::steady_clock::now();
    {
        pqxx::stream_to stream(tx, "bench_baseline");
        for (int i = 0; i < kRows; ++i)
            stream << std::make_tuple(int64_t{i}, KeyFor(i), int64_t{i} * 1000, "tagged-data");
        stream.complete();
    }
    tx.commit();
    return kRows / SecondsSince(start);
}

double MeasurePointLookup(pqxx::connection &conn)
{
    {
        pqxx::work tx(conn);
        tx.exec0("ALTER TABLE bench_baseline ADD PRIMARY KEY (key)");
        tx.commit();
    }
    pqxx::nontransaction(conn).exec0("VACUUM ANALYZE bench_baseline");
    conn.prepare("baseline_lookup", "SELECT amount FROM bench_baseline WHERE key = $1");
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<uint64_t> pick(0, kRows - 1);
    pqxx::nontransaction tx(conn);
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kLookups; ++i)
    {
        tx.exec_prepared1("baseline_lookup", KeyFor(pick(rng)));
    }
    return SecondsSince(start) / kLookups * 1e6;
}

double MeasureSeqScan(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    tx.exec0("SET max_parallel_workers_per_gather = 0");
    tx.exec1("SELECT sum(amount) FROM bench_baseline"); // warm the buffer cache
    auto start = std::chrono::steady_clock::now();
    constexpr int kPasses = 3;
    for (int i = 0; i < kPasses; ++i)
        tx.exec1("SELECT sum(amount) FROM bench_baseline");
    return kRows * kPasses / SecondsSince(start);
}

} // namespace

int main()
{
    pqxx::connection conn(BenchDsn());
    PrintBaseline("baseline: COPY into unindexed table (rows/s)", MeasureCopy(conn));
    PrintBaseline("baseline: prepared PK point lookup, unpartitioned (us)",
                  MeasurePointLookup(conn));
    PrintBaseline("baseline: heap seq scan (rows/s)", MeasureSeqScan(conn));
    pqxx::nontransaction(conn).exec0("DROP TABLE bench_baseline");
    return 0;
}
