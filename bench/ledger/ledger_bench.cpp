// Issue 4's figures: point lookups by ID and first pages of lookups on a ledger of >= 5M outputs
// over >= 500 partitions, against an unpartitioned table with the same rows and indexes, and
// 500 partitions against 50. PERMANODE_BENCH_SCALE (default 1) scales the row count.
#include <cstdlib>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"

using namespace permanode::bench;

namespace
{

struct Shape
{
    int milestones;
    int outputs_per_milestone;
    int chunk_size;
};

std::string WithDatabase(const std::string &dsn, const std::string &database)
{
    return dsn + " dbname=" + database;
}

// Creates database `name` with the extension and the ledger rows generated in SQL.
void CreateLedger(const std::string &dsn, const std::string &name, const Shape &shape,
                  bool with_flat)
{
    {
        pqxx::connection admin(dsn);
        pqxx::nontransaction tx(admin);
        tx.exec0(fmt::format("DROP DATABASE IF EXISTS {}", tx.quote_name(name)));
        tx.exec0(fmt::format("CREATE DATABASE {}", tx.quote_name(name)));
    }
    pqxx::connection conn(WithDatabase(dsn, name));
    pqxx::nontransaction tx(conn);
    tx.exec0("CREATE EXTENSION permanode CASCADE");
    tx.exec("SELECT permanode.init('shimmer')");
    tx.exec0("SET search_path = public, permanode");
    tx.exec0("SET maintenance_work_mem = '1GB'");
    tx.exec0("SET synchronous_commit = off");
    tx.exec(fmt::format("SELECT count(set_chunk_size(table_name, {})) FROM ledger_tables",
                        shape.chunk_size));
    // Partitions in batches: each creation holds locks until its transaction ends.
    for (int from = 0; from < shape.milestones; from += 20 * shape.chunk_size)
        tx.exec(fmt::format("SELECT premake({}, {}, 0)", from,
                            std::min(from + 20 * shape.chunk_size, shape.milestones) - 1));
    // Outputs: IDs from a hash of the row number; addresses, tags and senders skewed (a few
    // popular, many rare), as on a real ledger.
    tx.exec0(fmt::format(R"(
        CREATE UNLOGGED TABLE gen AS
        SELECT ('0x' || md5(g::text) || md5((g * 7)::text) || '0000')::output_id AS output_id,
               (g / {1}) / {2} AS ms_range_id, g / {1} AS milestone_index,
               timestamptz '2023-01-01' + (g / {1}) * interval '5 seconds' AS ms_timestamp,
               1::smallint AS inclusion_state,
               ('0x00' || md5((floor(power(random(), 3) * 200000))::int::text) || md5('a'))::address AS address,
               CASE WHEN g % 4 = 0 THEN ('0x00' || md5((floor(power(random(), 3) * 50000))::int::text) || md5('s'))::address END AS sender,
               CASE WHEN g % 3 = 0 THEN convert_to('tag-' || floor(power(random(), 2) * 2000)::int, 'UTF8') END AS tag,
               decode(repeat('ab', 60), 'hex') AS data,
               (g % 100000) * 1000 AS amount
        FROM generate_series(0, {0} - 1) g)",
                         static_cast<long>(shape.milestones) * shape.outputs_per_milestone,
                         shape.outputs_per_milestone, shape.chunk_size));
    tx.exec0("INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, "
             "inclusion_state, address, sender, tag, data, amount) SELECT * FROM gen");
    tx.exec0("INSERT INTO output_locator (output_id, ms_range_id) SELECT output_id, ms_range_id "
             "FROM gen");
    // Hints with their row counts, as ingest keeps them.
    tx.exec0("INSERT INTO addresses_hints SELECT address, 'extended', 'address', ms_range_id, "
             "count(*) FROM gen GROUP BY 1, 4");
    tx.exec0("INSERT INTO addresses_hints SELECT sender, 'extended', 'sender', ms_range_id, "
             "count(*) FROM gen WHERE sender IS NOT NULL GROUP BY 1, 4");
    tx.exec0("INSERT INTO tag_hints SELECT tag, 'basic_output', ms_range_id, count(*) FROM gen "
             "WHERE tag IS NOT NULL GROUP BY 1, 3");
    if (with_flat)
    {
        tx.exec0("CREATE TABLE flat AS SELECT * FROM gen");
        tx.exec0("ALTER TABLE flat ADD PRIMARY KEY (output_id)");
        for (const char *key : {"address", "tag", "sender"})
            tx.exec0(fmt::format("CREATE INDEX ON flat ({0}, ms_range_id DESC, ms_timestamp DESC, "
                                 "milestone_index DESC, output_id DESC) WHERE {0} IS NOT NULL",
                                 key));
    }
    tx.exec0("VACUUM ANALYZE");
}

// Average microseconds of a prepared statement over the given parameter values.
double TimePrepared(pqxx::connection &conn, const std::string &sql,
                    const std::vector<std::string> &values)
{
    conn.prepare("q", sql);
    pqxx::nontransaction tx(conn);
    for (size_t i = 0; i < std::min<size_t>(values.size(), 200); ++i) // warm caches and plans
        tx.exec_prepared("q", values[i]);
    auto start = std::chrono::steady_clock::now();
    for (const auto &v : values)
        tx.exec_prepared("q", v);
    double us = SecondsSince(start) / values.size() * 1e6;
    conn.unprepare("q");
    return us;
}

// Parameter values sampled from the rows (popular keys come up as often as users ask for them).
std::vector<std::string> Sample(pqxx::connection &conn, const std::string &column, int n)
{
    pqxx::nontransaction tx(conn);
    std::vector<std::string> values;
    for (auto row : tx.exec(fmt::format(
             "SELECT {0}::text FROM gen TABLESAMPLE SYSTEM (1) WHERE {0} IS NOT NULL LIMIT {1}",
             column, n)))
        values.push_back(row[0].as<std::string>());
    std::shuffle(values.begin(), values.end(), std::mt19937(7));
    return values;
}

} // namespace

int main()
{
    std::string dsn = BenchDsn();
    double scale = std::getenv("PERMANODE_BENCH_SCALE")
                       ? std::atof(std::getenv("PERMANODE_BENCH_SCALE"))
                       : 1.0;
    int milestones = static_cast<int>(5000 * scale);
    Shape p500{milestones, 1000, std::max(1, milestones / 500)};
    Shape p50{milestones, 1000, std::max(1, milestones / 50)};
    CreateLedger(dsn, "bench_ledger_500", p500, true);
    CreateLedger(dsn, "bench_ledger_50", p50, false);

    pqxx::connection c500(WithDatabase(dsn, "bench_ledger_500"));
    pqxx::connection c50(WithDatabase(dsn, "bench_ledger_50"));
    pqxx::nontransaction(c500).exec0("SET search_path = public, permanode");
    pqxx::nontransaction(c50).exec0("SET search_path = public, permanode");

    auto ids = Sample(c500, "output_id", 5000);
    double flat_point = TimePrepared(c500, "SELECT * FROM flat WHERE output_id = $1", ids);
    double hot500 = TimePrepared(c500, "SELECT * FROM basic_outputs WHERE output_id = $1", ids);
    double hot50 = TimePrepared(c50, "SELECT * FROM basic_outputs WHERE output_id = $1", ids);
    long rows = pqxx::nontransaction(c500).exec1("SELECT count(*) FROM gen")[0].as<long>();
    long partitions = pqxx::nontransaction(c500)
                          .exec1("SELECT count(*) FROM permanode.partitions WHERE table_name = "
                                 "'permanode.basic_outputs'::regclass")[0]
                          .as<long>();
    fmt::print(stderr, "ledger: {} outputs, {} partitions of basic_outputs\n", rows, partitions);
    PrintBaseline("ledger: PK point lookup, unpartitioned (us)", flat_point);
    PrintRatio(fmt::format("ledger: point lookup by output ID, {} partitions (us)", partitions),
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
        FROM gen)");
    PrintRatio("ledger: index bytes per output (partition indexes)", bytes[0].as<double>(),
               bytes[2].as<double>(), "report");
    PrintRatio("ledger: locator + hint bytes per output", bytes[1].as<double>(),
               bytes[2].as<double>(), "report");
    return 0;
}
