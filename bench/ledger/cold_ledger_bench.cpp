// Issue 21's figures: the real ledger's lookups, cold (RocksDB archives behind permanode_fdw)
// against hot (heap partitions), on the same ledger in the same run.
//
// Data: `permanode generate` piped into `permanode ingest` (ledger_bench's transaction-heavy
// mix, 370-690 outputs per milestone), 300 milestones per range, so each range holds >= 100k
// outputs and the ledger >= 5M. Every query is timed on the heap partitions, then every range
// but the newest is archived with permanode.archive(), one range at a time as maintain() archives
// a growing ledger (an archive per table and range), and the very same queries with the same
// keys are timed again, on new connections. The queries are the client library's, which the
// HTTP API runs: a block by ID, the block of a transaction, an output by ID, the indexer's first
// page (100) by address, sender, tag, issuer and state controller over all outputs, and its 50th
// page through the keyset cursor; and the point lookups and the first page by address as the first
// statement of a new connection (what BI tools, scripts and transaction-pooled clients meet). Keys
// are sampled from rows of the ranges that get archived; for first pages only keys without a row in
// the newest range, so that every row of a cold answer comes from an archive. Each timing first
// runs the query on other keys of the same kind (opening the archives, building relcache entries,
// warming caches), then on its own keys. PERMANODE_BENCH_SCALE (default 1) scales the number of
// ranges.
#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"
#include "ledger_figures.hpp"
#include "permanode/client.hpp"

using namespace permanode::bench;
namespace client = permanode::client;

namespace
{

constexpr int kChunkSize = 300;  // milestones per range: >= 110k outputs in this mix
constexpr int kRanges = 40;      // ranges 0..39; 39 of them are archived
constexpr int kPointKeys = 2000; // timed keys per point lookup (as many again to warm up)
constexpr int kPageKeys = 300;   // timed keys per first page
constexpr int kFreshKeys = 200;  // lookups timed as the first statement of a new connection

void Log(const std::string &what)
{
    fmt::print(stderr, "cold_ledger_bench: {}\n", what);
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        double scale = BenchScale();
        int ranges = std::max(3, static_cast<int>(kRanges * scale + 0.5));
        // Milestones 1..ranges * kChunkSize - 1: the newest range is a full one.
        int milestones = ranges * kChunkSize - 1;
        std::string db = CreateLedgerDatabase(dsn, "bench_cold_ledger", kChunkSize);
        GenerateAndIngest(PERMANODE_CLI_PATH, db, milestones);

        pqxx::connection conn(db);
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");
        int newest = ranges - 1;
        auto counts = pqxx::nontransaction(conn).exec1(
            "SELECT count(*), min(n), max(n) FROM (SELECT ms_range_id, count(*) n FROM (SELECT "
            "ms_range_id FROM permanode.basic_outputs UNION ALL SELECT ms_range_id FROM "
            "permanode.alias_outputs UNION ALL SELECT ms_range_id FROM permanode.foundry_outputs "
            "UNION ALL SELECT ms_range_id FROM permanode.nft_outputs) o GROUP BY 1) r");
        long outputs = 0, smallest = counts[1].as<long>();
        for (auto row : pqxx::nontransaction(conn).exec(
                 "SELECT (SELECT count(*) FROM permanode.basic_outputs) + (SELECT count(*) FROM "
                 "permanode.alias_outputs) + (SELECT count(*) FROM permanode.foundry_outputs) + "
                 "(SELECT count(*) FROM permanode.nft_outputs)"))
            outputs = row[0].as<long>();
        Log(fmt::format("{} outputs in {} ranges, {} to {} per range", outputs,
                        counts[0].as<long>(), counts[1].as<long>(), counts[2].as<long>()));

        LedgerFigures hot, cold;
        LedgerKeys keys;
        {
            client::Client walker(db);
            keys = PickLedgerKeys(conn, walker, {0, newest, true}, kPointKeys, kPageKeys, true);
        }
        Log("measuring the hot tier");
        hot = MeasureLedger(db, keys, kFreshKeys);

        // Range by range, as maintain() archives a growing ledger: an archive per table and
        // range, which a lookup over many ranges reads one after the other.
        Log(fmt::format("archiving ranges [0, {}) one by one", newest));
        auto start = std::chrono::steady_clock::now();
        pqxx::nontransaction archive(conn);
        archive.exec0("SET maintenance_work_mem = '1GB'");
        long archives = 0, archived_rows = 0;
        for (int range = 0; range < newest; range++)
        {
            auto made = archive.exec1(fmt::format(
                "SELECT count(*), coalesce(sum(rows), 0) FROM permanode.archive({}, {})", range,
                range + 1));
            archives += made[0].as<long>();
            archived_rows += made[1].as<long>();
        }
        Log(fmt::format("{} archives, {} rows, in {:.0f} s", archives, archived_rows,
                        SecondsSince(start)));

        Log("measuring the cold tier");
        cold = MeasureLedger(db, keys, kFreshKeys);

        std::string what =
            fmt::format("{:.1f}M outputs, {} ranges of >= {}k, {} archived ({} archives)",
                        outputs / 100000 / 10.0, ranges, smallest / 1000, newest, archives);
        // Point lookups within a connection are held to 1.5x (issue #46), the rest to 2x.
        auto row = [&](const std::string &metric, double c, double h, const char *target = "<=2")
        { PrintRatio(fmt::format("cold ledger: {} (us) vs hot", metric), c, h, target); };
        row("output by ID, " + what, cold.output, hot.output, "<=1.5");
        row("block by ID", cold.block, hot.block, "<=1.5");
        row("block of a transaction by ID", cold.transaction, hot.transaction, "<=1.5");
        row("first page (100) by address", *cold.address, *hot.address);
        row("first page (100) by sender", *cold.sender, *hot.sender);
        row("first page (100) by tag", *cold.tag, *hot.tag);
        row("first page (100) by issuer (NFT)", *cold.issuer, *hot.issuer);
        row("first page (100) by state controller (alias)", *cold.state_controller,
            *hot.state_controller);
        row("50th page by address (keyset cursor)", *cold.deep, *hot.deep);
        row("planning, output by ID", cold.plan_output, hot.plan_output);
        row("planning, 50th page by address", *cold.plan_deep, *hot.plan_deep);
        row("new connection's first statement: output by ID", cold.fresh_output, hot.fresh_output);
        row("new connection's first statement: block by ID", cold.fresh_block, hot.fresh_block);
        row("new connection's first statement: first page by address", *cold.fresh_address,
            *hot.fresh_address);
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "cold_ledger_bench: {}\n", e.what());
        return 1;
    }
    return 0;
}
