// Issue 22's lookup figures: the Chrysalis era on the ledger's own tables, with the baselines of
// the Stardust ledger bench (ledger_bench.cpp). A generated Chrysalis ledger of >= 5M outputs
// over ~500 partitions (PERMANODE_BENCH_SCALE scales it), ingested through the CLI, against
// unpartitioned copies of the same rows with one index in each lookup's order:
//   - a point lookup by message ID (messages, through block_locator) vs a primary key;
//   - a first page (100) of messages by indexation key, newest first (tags) vs one index;
//   - a first page (100) of the outputs an address received, newest first
//     (legacy_outputs_by_address) vs one index.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"

using namespace permanode::bench;

namespace
{

// Keys sampled from an unpartitioned copy.
std::vector<std::string> Sample(pqxx::connection &conn, const std::string &table,
                                const std::string &column, int n)
{
    return SampleKeys(conn, fmt::format("SELECT {1}::text FROM {0} TABLESAMPLE SYSTEM (2) "
                                        "WHERE {1} IS NOT NULL LIMIT {2}",
                                        table, column, n));
}

// The unpartitioned baselines: the same rows in plain tables, each with the one index its
// lookup needs, in the lookup's order.
void CreateFlatTables(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    tx.exec0("SET maintenance_work_mem = '1GB'");
    tx.exec0("DROP TABLE IF EXISTS flat_messages, flat_tags, flat_legacy");
    tx.exec0("CREATE TABLE flat_messages AS SELECT * FROM permanode.messages");
    tx.exec0("ALTER TABLE flat_messages ADD PRIMARY KEY (message_id)");
    tx.exec0("CREATE TABLE flat_tags AS SELECT * FROM permanode.tags");
    tx.exec0("CREATE INDEX ON flat_tags (tag, ms_range_id DESC, ms_timestamp DESC, "
             "milestone_index DESC, message_id DESC)");
    tx.exec0("CREATE TABLE flat_legacy AS SELECT * FROM permanode.legacy_outputs");
    tx.exec0("CREATE INDEX ON flat_legacy (address, ms_range_id DESC, ms_timestamp DESC, "
             "milestone_index DESC, output_id DESC)");
    tx.exec0("VACUUM ANALYZE");
}

} // namespace

int main()
{
    std::string dsn = BenchDsn();
    double scale = BenchScale();
    int milestones = std::max(1000, static_cast<int>(11500 * scale));
    // PERMANODE_BENCH_REUSE=1 measures the ledger a previous run left (generating it takes most
    // of the run).
    std::string db;
    if (std::getenv("PERMANODE_BENCH_REUSE"))
        db = dsn + " dbname=bench_chrysalis_ledger";
    else
    {
        db = CreateLedgerDatabase(dsn, "bench_chrysalis_ledger", std::max(1, milestones / 500));
        GenerateAndIngest(PERMANODE_CLI_PATH, db, milestones, "chrysalis");
    }

    pqxx::connection conn(db);
    CreateFlatTables(conn);
    pqxx::nontransaction(conn).exec0("SET search_path = public, permanode");
    auto counts = pqxx::nontransaction(conn).exec1(
        "SELECT (SELECT count(*) FROM flat_messages), (SELECT count(*) FROM flat_legacy "
        "WHERE NOT is_used), (SELECT count(*) FROM permanode.partitions WHERE table_name = "
        "'permanode.legacy_outputs'::regclass)");
    long messages = counts[0].as<long>(), outputs = counts[1].as<long>();
    long partitions = counts[2].as<long>();
    fmt::print(stderr, "chrysalis ledger: {} messages, {} outputs, {} partitions\n", messages,
               outputs, partitions);

    auto ids = Sample(conn, "flat_messages", "message_id", 5000);
    double flat_point =
        TimePrepared(conn, "SELECT * FROM flat_messages WHERE message_id = $1", ids);
    double point = TimePrepared(conn, "SELECT * FROM messages WHERE message_id = $1", ids);
    PrintBaseline("chrysalis: PK point lookup of a message, unpartitioned (us)", flat_point);
    PrintRatio(fmt::format("chrysalis: point lookup by message ID, {}M outputs, {} partitions (us)",
                           outputs / 100000 / 10.0, partitions),
               point, flat_point, "<=1.5");

    auto indexes = Sample(conn, "flat_tags", "tag", 2000);
    std::string tag_order = "ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, "
                            "message_id DESC LIMIT 100";
    double flat_tags =
        TimePrepared(conn, "SELECT * FROM flat_tags WHERE tag = $1::bytea " + tag_order, indexes);
    double tags =
        TimePrepared(conn, "SELECT * FROM tags WHERE tag = $1::bytea " + tag_order, indexes);
    PrintRatio("chrysalis: first page (100) of messages by index vs one index (us)", tags,
               flat_tags, "<=2");

    auto addresses = Sample(conn, "flat_legacy", "address", 2000);
    // The outputs an address received, newest first (seed 000's addresses/{address}/outputs).
    std::string address_page = " WHERE address = $1 AND NOT is_used ORDER BY ms_range_id DESC, "
                               "ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100";
    double flat_address = TimePrepared(conn, "SELECT * FROM flat_legacy" + address_page, addresses);
    double address =
        TimePrepared(conn, "SELECT * FROM legacy_outputs_by_address" + address_page, addresses);
    PrintRatio("chrysalis: first page (100) of an address's outputs vs one index (us)", address,
               flat_address, "<=2");
    return 0;
}
