// Issue 26's figures: lookups over remote ranges (permanode.attach_remote: ranges on another
// permanode node, read through postgres_fdw) against the same lookups with the ranges local, on
// the same ledger in the same run.
//
// Data: cold_ledger_bench's generated mix, 300 milestones per range, 10 ranges (>= 1M outputs).
// The other node is a second database of the same cluster, reached over TCP as any node is:
// what a query pays for going there is postgres_fdw's round trips, which the bench measures as
// one libpq round trip (SELECT 1, prepared) and reports beside the lookups. The queries are the
// client library's, which the HTTP API runs: an output by ID and the indexer's first page (100)
// by address, for keys whose rows are all in the ranges that move; then every range but the
// newest moves, and the same queries with the same keys are timed again. The answers must be the
// same (a page of 1000 of a busy address too, which reads a remote range in several batches).
// PERMANODE_BENCH_SCALE (default 1) scales the number of ranges.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"
#include "permanode/client.hpp"

using namespace permanode::bench;
namespace client = permanode::client;

namespace
{

constexpr int kChunkSize = 300;
constexpr int kRanges = 10;
constexpr int kPointKeys = 2000; // timed keys (as many again to warm up)
constexpr int kPageKeys = 300;
constexpr int kPageSize = 100;
constexpr int kLongPage = 1000; // several batches from one remote range
constexpr int kRoundTrips = 5000;

void Log(const std::string &what)
{
    fmt::print(stderr, "remote_ledger_bench: {}\n", what);
}

client::OutputFilter AddressFilter(const std::string &address)
{
    client::OutputFilter f;
    f.address = address;
    return f;
}

struct Keys
{
    std::vector<std::string> outputs, addresses, busy;
};

// Keys of rows in ranges below `newest`; addresses without a row in the newest range, so that a
// first page comes from ranges that move.
Keys PickKeys(pqxx::connection &conn, int newest)
{
    Keys k;
    k.outputs = SampleKeys(conn, fmt::format("SELECT output_id::text FROM permanode.basic_outputs "
                                             "TABLESAMPLE SYSTEM (5) WHERE ms_range_id < {} "
                                             "LIMIT {}",
                                             newest, 2 * kPointKeys));
    k.addresses = SampleKeys(
        conn, fmt::format("SELECT address::text FROM permanode.basic_outputs o TABLESAMPLE SYSTEM "
                          "(5) WHERE address IS NOT NULL AND ms_range_id < {0} AND NOT EXISTS "
                          "(SELECT FROM permanode.basic_outputs h WHERE h.address = o.address AND "
                          "h.ms_range_id = {0}) LIMIT {1}",
                          newest, 2 * kPageKeys));
    k.busy = SampleKeys(conn, fmt::format("SELECT address::text FROM permanode.basic_outputs "
                                          "WHERE ms_range_id = 0 AND address IS NOT NULL GROUP "
                                          "BY address HAVING count(*) > {} LIMIT 3",
                                          kLongPage / 2));
    if (k.outputs.size() < 100 || k.addresses.size() < 100 || k.busy.empty())
        throw std::runtime_error("too few keys in the ranges that move");
    return k;
}

struct Figures
{
    double output = 0, address = 0;
    std::vector<std::vector<std::string>> answers; // pages and outputs, to compare
};

Figures Measure(const std::string &dsn, const Keys &k)
{
    client::Client c(dsn);
    Figures f;
    f.output =
        TimeEach(k.outputs, [&](const std::string &id) { return c.GetOutput(id).has_value(); });
    f.address = TimeEach(k.addresses,
                         [&](const std::string &a)
                         {
                             return !c.QueryOutputs(client::OutputKind::kBasic, AddressFilter(a),
                                                    true, kPageSize, std::nullopt)
                                         .items.empty();
                         });
    for (size_t i = 0; i < 50; i++)
        f.answers.push_back(c.QueryOutputs(client::OutputKind::kBasic,
                                           AddressFilter(k.addresses[i]), true, kPageSize,
                                           std::nullopt)
                                .items);
    for (const auto &busy : k.busy)
        f.answers.push_back(c.QueryOutputs(client::OutputKind::kBasic, AddressFilter(busy), true,
                                           kLongPage, std::nullopt)
                                .items);
    std::vector<std::string> outputs;
    for (size_t i = 0; i < 200; i++)
    {
        auto row = c.GetOutput(k.outputs[i]);
        outputs.push_back(row->raw + row->block_id + (row->is_spent ? "spent" : ""));
    }
    f.answers.push_back(outputs);
    return f;
}

// Microseconds of one libpq round trip to the remote database: a prepared SELECT 1.
double RoundTrip(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    conn.prepare("one", "SELECT 1");
    pqxx::nontransaction tx(conn);
    for (int i = 0; i < 100; i++)
        tx.exec_prepared("one");
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRoundTrips; i++)
        tx.exec_prepared("one");
    return SecondsSince(start) / kRoundTrips * 1e6;
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        int ranges = std::max(3, static_cast<int>(kRanges * BenchScale() + 0.5));
        int newest = ranges - 1;
        // PERMANODE_BENCH_KEEP_LEDGER=1: the last run's ledger again, its ranges brought back.
        bool keep = std::getenv("PERMANODE_BENCH_KEEP_LEDGER") != nullptr;
        std::string db = dsn + " dbname=bench_remote_ledger";
        std::string remote = dsn + " dbname=bench_remote_node";
        if (!keep)
        {
            db = CreateLedgerDatabase(dsn, "bench_remote_ledger", kChunkSize);
            remote = CreateLedgerDatabase(dsn, "bench_remote_node", kChunkSize);
            GenerateAndIngest(PERMANODE_CLI_PATH, db, ranges * kChunkSize - 1);
        }
        pqxx::connection conn(db);
        auto exec = [&conn](const std::string &sql)
        { return pqxx::nontransaction(conn).exec(sql); };
        if (keep)
        {
            // (the cluster may listen elsewhere than last time)
            exec(fmt::format("ALTER SERVER bench_node OPTIONS (SET host {}, SET port {})",
                             conn.quote(conn.hostname() ? conn.hostname() : "127.0.0.1"),
                             conn.quote(conn.port())));
            exec(fmt::format("CALL permanode.detach_remote('all', 0, {})", newest));
        }
        else
        {
            exec("VACUUM ANALYZE");
            // The other node: the remote database, at this connection's address.
            exec("CREATE EXTENSION postgres_fdw");
            exec("CREATE EXTENSION dblink");
            exec(fmt::format("CREATE SERVER bench_node FOREIGN DATA WRAPPER postgres_fdw OPTIONS "
                             "(host {}, port {}, dbname 'bench_remote_node')",
                             conn.quote(conn.hostname() ? conn.hostname() : "127.0.0.1"),
                             conn.quote(conn.port())));
            exec(fmt::format("CREATE USER MAPPING FOR CURRENT_USER SERVER bench_node OPTIONS "
                             "(user {})",
                             conn.quote(conn.username())));
        }

        Keys keys = PickKeys(conn, newest);
        Log(fmt::format("keys: {} outputs, {} addresses, {} busy addresses", keys.outputs.size(),
                        keys.addresses.size(), keys.busy.size()));
        Log("measuring with every range local");
        Figures local = Measure(db, keys);

        Log(fmt::format("moving ranges [0, {}) to the other node", newest));
        auto start = std::chrono::steady_clock::now();
        exec(fmt::format("CALL permanode.attach_remote('all', 0, {}, 'bench_node')", newest));
        auto moved = exec("SELECT count(*), sum(rows) FROM permanode.status WHERE tier = 'remote'");
        Log(fmt::format("{} ranges, {} rows moved in {:.0f} s", moved[0][0].as<long>(),
                        moved[0][1].as<long>(), SecondsSince(start)));

        Log("measuring with the ranges remote");
        Figures far = Measure(db, keys);
        if (far.answers != local.answers)
            throw std::runtime_error("the remote ranges answered differently");
        double rtt = RoundTrip(remote);

        PrintBaseline("remote ledger: one round trip to the other node (SELECT 1, us)", rtt);
        auto row = [&](const std::string &metric, double r, double l)
        {
            PrintRatio(fmt::format("remote ledger: {} over remote ranges vs local (us)", metric), r,
                       l, "report");
            PrintRatio(fmt::format("remote ledger: {} over remote ranges less one round trip vs "
                                   "local (us)",
                                   metric),
                       r - rtt, l, "<=3");
        };
        row("output by ID", far.output, local.output);
        row("first page (100) by address", far.address, local.address);
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "remote_ledger_bench: {}\n", e.what());
        return 1;
    }
    return 0;
}
