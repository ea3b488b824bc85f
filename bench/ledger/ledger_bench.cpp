// Issue 4's figures: point lookups by ID and first pages of lookups on a ledger of >= 5M outputs
// over >= 500 partitions, against an unpartitioned table with the same rows and indexes, and
// 500 partitions against 50. PERMANODE_BENCH_SCALE (default 1) scales the ledger.
//
// Data: `permanode generate` piped into `permanode ingest`, so rows, lookups, locators and hints
// are exactly what ingest keeps (Zipf-distributed addresses, senders and tags over growing
// populations). The mix is transaction-heavy (--tx-share 0.9, 8-16 new outputs per transaction)
// so that 5M outputs take ~1M blocks instead of ~17M at the default mix. The 50-partition ledger
// and the unpartitioned `flat` table hold the very same basic outputs, copied from the ingested
// ledger.
#include <cstdlib>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "bench_copy.hpp"
#include "generated_ledger.hpp"

using namespace permanode::bench;

namespace
{

// The select list of basic_outputs with ms_range_id recomputed for another chunk size.
std::string RechunkedColumns(pqxx::connection &conn, int chunk_size)
{
    pqxx::nontransaction tx(conn);
    return tx
        .exec_params1("SELECT string_agg(CASE attname WHEN 'ms_range_id' THEN "
                      "format('milestone_index / %s', $1::int) ELSE quote_ident(attname) END, "
                      "', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = "
                      "'permanode.basic_outputs'::regclass AND attnum > 0 AND NOT attisdropped",
                      chunk_size)[0]
        .as<std::string>();
}

// Copies the basic outputs of `from` into `to` (binary COPY), re-ranged to `to`'s chunk size,
// with their locator rows.
void CopyBasicOutputs(const std::string &from, const std::string &to, int chunk_size)
{
    pqxx::connection source(from), target(to);
    std::string columns = RechunkedColumns(source, chunk_size);
    pqxx::nontransaction tx(target);
    long max_index = pqxx::nontransaction(source)
                         .exec1("SELECT max(milestone_index) FROM permanode.basic_outputs")[0]
                         .as<long>();
    tx.exec(fmt::format("SELECT permanode.premake(0, {}, 0)", max_index));
    CopyIn(to, "permanode.basic_outputs",
           CopyOut(from, fmt::format("SELECT {} FROM permanode.basic_outputs", columns)));
    tx.exec0("INSERT INTO permanode.output_locator (output_id, ms_range_id) "
             "SELECT output_id, ms_range_id FROM permanode.basic_outputs");
    tx.exec0("VACUUM ANALYZE");
}

// The unpartitioned baseline: the same basic outputs in one table, with a primary key and one
// covering index per lookup key in the lookups' order.
void CreateFlat(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    tx.exec0("SET maintenance_work_mem = '1GB'");
    tx.exec0("CREATE TABLE flat AS SELECT * FROM permanode.basic_outputs");
    tx.exec0("ALTER TABLE flat ADD PRIMARY KEY (output_id)");
    for (const char *key : {"address", "tag", "sender"})
        tx.exec0(fmt::format("CREATE INDEX ON flat ({0}, ms_range_id DESC, ms_timestamp DESC, "
                             "milestone_index DESC, output_id DESC) WHERE {0} IS NOT NULL",
                             key));
    tx.exec0("VACUUM ANALYZE");
}

// Parameter values sampled from the rows (popular keys come up as often as users ask for them).
std::vector<std::string> Sample(pqxx::connection &conn, const std::string &column, int n)
{
    return SampleKeys(conn, fmt::format("SELECT {0}::text FROM flat TABLESAMPLE SYSTEM (2) "
                                        "WHERE {0} IS NOT NULL LIMIT {1}",
                                        column, n));
}

} // namespace

int main()
{
    std::string dsn = BenchDsn();
    double scale = BenchScale();
    // ~460 outputs per milestone in this mix: 11,500 milestones give >5M outputs.
    int milestones = std::max(1000, static_cast<int>(11500 * scale));
    std::string dsn500 =
        CreateLedgerDatabase(dsn, "bench_ledger_500", std::max(1, milestones / 500));
    std::string dsn50 = CreateLedgerDatabase(dsn, "bench_ledger_50", std::max(1, milestones / 50));
    GenerateAndIngest(PERMANODE_CLI_PATH, dsn500, milestones);
    CopyBasicOutputs(dsn500, dsn50, std::max(1, milestones / 50));

    pqxx::connection c500(dsn500);
    pqxx::connection c50(dsn50);
    CreateFlat(c500);
    pqxx::nontransaction(c500).exec0("SET search_path = public, permanode");
    pqxx::nontransaction(c50).exec0("SET search_path = public, permanode");

    auto ids = Sample(c500, "output_id", 5000);
    double flat_point = TimePrepared(c500, "SELECT * FROM flat WHERE output_id = $1", ids);
    double hot500 = TimePrepared(c500, "SELECT * FROM basic_outputs WHERE output_id = $1", ids);
    double hot50 = TimePrepared(c50, "SELECT * FROM basic_outputs WHERE output_id = $1", ids);
    long outputs = pqxx::nontransaction(c500)
                       .exec1("SELECT (SELECT count(*) FROM basic_outputs) + (SELECT count(*) "
                              "FROM alias_outputs) + (SELECT count(*) FROM foundry_outputs) + "
                              "(SELECT count(*) FROM nft_outputs)")[0]
                       .as<long>();
    long partitions = pqxx::nontransaction(c500)
                          .exec1("SELECT count(*) FROM permanode.partitions WHERE table_name = "
                                 "'permanode.basic_outputs'::regclass")[0]
                          .as<long>();
    fmt::print(stderr, "ledger: {} outputs, {} partitions of basic_outputs\n", outputs, partitions);
    PrintBaseline("ledger: PK point lookup, unpartitioned (us)", flat_point);
    PrintRatio(fmt::format("ledger: point lookup by output ID, {}M outputs, {} partitions (us)",
                           outputs / 100000 / 10.0, partitions),
               hot500, flat_point, "<=1.5");
    PrintRatio("ledger: point lookup, 500 partitions vs 50 (us)", hot500, hot50, "<=1.2");

    for (const char *key : {"address", "tag", "sender"})
    {
        auto values = Sample(c500, key, 2000);
        std::string order = "ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, "
                            "output_id DESC LIMIT 100";
        double flat = TimePrepared(
            c500, fmt::format("SELECT * FROM flat WHERE {} = $1 {}", key, order), values);
        double hot = TimePrepared(
            c500,
            fmt::format("SELECT * FROM basic_outputs_by_{} WHERE {} = $1 {}", key, key, order),
            values);
        PrintRatio(fmt::format("ledger: first page (100) by {} vs one index (us)", key), hot, flat,
                   "<=2");
    }

    auto bytes = pqxx::nontransaction(c500).exec1(R"(
        SELECT (SELECT sum(pg_indexes_size(partition)) FROM permanode.partitions
                WHERE table_name = 'permanode.basic_outputs'::regclass)::float8 / count(*),
               (pg_total_relation_size('permanode.output_locator')
                + pg_total_relation_size('permanode.addresses_hints')
                + pg_total_relation_size('permanode.tag_hints'))::float8 / count(*),
               pg_indexes_size('flat')::float8 / count(*)
        FROM flat)");
    PrintRatio("ledger: index bytes per output (partition indexes)", bytes[0].as<double>(),
               bytes[2].as<double>(), "report");
    PrintRatio("ledger: locator + hint bytes per output", bytes[1].as<double>(),
               bytes[2].as<double>(), "report");
    return 0;
}
