// Issue 5's figures: `permanode ingest` of a generated ledger (>= 1M blocks at scale 1; set
// PERMANODE_BENCH_SCALE to shrink it) with every lookup maintained, against a floor measured in
// the same run.
//
// The floor: after the ingest, every row it wrote (each table of the permanode schema that
// holds rows) is copied out with COPY ... TO STDOUT (FORMAT binary) and timed going back in with
// COPY ... FROM STDIN (FORMAT binary) into an unindexed, unpartitioned table of the same columns
// (CREATE TABLE ... (LIKE ...)), one table after another. So the floor writes the very same
// derived rows and bytes, but decodes nothing and maintains no index, locator or hint: it is
// what writing the rows costs at the least. Both run against the same cluster, one after the
// other.
//
// Memory: the ingest runs as a child process; its peak RSS (wait4's ru_maxrss) is measured for
// a quarter of the ledger and for the whole, in separate databases, to show it stays bounded.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_copy.hpp"

using namespace permanode::bench;

namespace
{

struct ChildRun
{
    int exit_code = -1;
    double seconds = 0;
    long peak_rss_kib = 0;
};

// Runs the CLI with arguments, stdout to `log`, and measures it.
ChildRun RunCli(const std::vector<std::string> &args, const std::string &log)
{
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0)
    {
        std::FILE *out = std::freopen(log.c_str(), "w", stdout);
        (void)out;
        std::vector<char *> argv;
        argv.push_back(const_cast<char *>(PERMANODE_CLI_PATH));
        for (const auto &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(PERMANODE_CLI_PATH, argv.data());
        _exit(127);
    }
    ChildRun run;
    int status = 0;
    struct rusage usage = {};
    wait4(pid, &status, 0, &usage);
    run.seconds = SecondsSince(start);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.peak_rss_kib = usage.ru_maxrss;
    return run;
}

std::string CreateDatabase(const std::string &dsn, const std::string &name)
{
    pqxx::connection admin(dsn);
    pqxx::nontransaction tx(admin);
    tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(name));
    tx.exec0("CREATE DATABASE " + tx.quote_name(name));
    std::string db_dsn = dsn + " dbname=" + name;
    if (RunCli({"init", "--dsn", db_dsn}, "/dev/null").exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: permanode init failed\n");
        std::exit(1);
    }
    return db_dsn;
}

// Times the binary COPY of every row of the permanode schema into unindexed tables.
double CopyFloorSeconds(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    std::vector<std::string> tables;
    {
        pqxx::nontransaction tx(conn);
        for (const auto &row : tx.exec("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON "
                                       "n.oid = c.relnamespace WHERE n.nspname = 'permanode' "
                                       "AND c.relkind IN ('r', 'p') AND NOT c.relispartition "
                                       "ORDER BY 1"))
            tables.push_back(row[0].c_str());
        tx.exec0("DROP SCHEMA IF EXISTS bench_floor CASCADE");
        tx.exec0("CREATE SCHEMA bench_floor");
    }
    double seconds = 0;
    for (const std::string &table : tables)
    {
        // Out, into memory (not timed).
        std::string data = CopyOut(dsn, fmt::format("SELECT * FROM permanode.{}", table));
        if (CopyIsEmpty(data))
            continue;
        pqxx::nontransaction(conn).exec0(
            fmt::format("CREATE TABLE bench_floor.{0} (LIKE permanode.{0})", table));
        // In, timed: one COPY per table, 1 MiB messages.
        auto start = std::chrono::steady_clock::now();
        CopyIn(dsn, "bench_floor." + table, data);
        seconds += SecondsSince(start);
    }
    return seconds;
}

} // namespace

int main()
{
    std::string dsn = BenchDsn();
    double scale = 1.0;
    if (const char *s = std::getenv("PERMANODE_BENCH_SCALE"))
        scale = std::atof(s);
    // The default mix averages 65 blocks per milestone: 15,400 milestones give ~1M blocks.
    int milestones = std::max(40, static_cast<int>(15400 * scale));
    std::string work = fmt::format("/tmp/permanode-ingest-bench-{}", getpid());
    std::string ledger = work + ".ndjson", quarter = work + "-quarter.ndjson";
    std::string log = work + ".log";

    if (RunCli({"generate", "--milestones", std::to_string(milestones), "--seed", "2024", "-o",
                ledger},
               "/dev/null")
            .exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: generate failed\n");
        return 1;
    }
    {
        std::ifstream in(ledger);
        std::ofstream out(quarter);
        std::string line;
        for (int i = 0; i < milestones / 4 && std::getline(in, line); ++i)
            out << line << '\n';
    }

    std::string quarter_dsn = CreateDatabase(dsn, "ingest_bench_quarter");
    // The CLI's default connections (one per core).
    ChildRun small = RunCli({"ingest", "--dsn", quarter_dsn, quarter}, log);
    std::string full_dsn = CreateDatabase(dsn, "ingest_bench_full");
    ChildRun full = RunCli({"ingest", "--dsn", full_dsn, ledger}, log);
    if (small.exit_code != 0 || full.exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: ingest failed; see {}\n", log);
        return 1;
    }

    long blocks = 0, outputs = 0;
    {
        pqxx::connection conn(full_dsn);
        pqxx::nontransaction tx(conn);
        blocks = tx.exec1("SELECT count(*) FROM permanode.messages")[0].as<long>();
        outputs = tx.exec1("SELECT (SELECT count(*) FROM permanode.basic_outputs) + "
                           "(SELECT count(*) FROM permanode.alias_outputs) + "
                           "(SELECT count(*) FROM permanode.foundry_outputs) + "
                           "(SELECT count(*) FROM permanode.nft_outputs)")[0]
                      .as<long>();
    }
    double floor_seconds = CopyFloorSeconds(full_dsn);

    double blocks_per_s = blocks / full.seconds;
    double floor_blocks_per_s = blocks / floor_seconds;
    PrintRatio(fmt::format("ingest blocks/s ({} blocks, vs target 20000)", blocks), blocks_per_s,
               20000, ">=1.0");
    PrintBaseline("binary COPY floor of the same rows, blocks/s", floor_blocks_per_s);
    PrintRatio("ingest blocks/s vs binary COPY floor", blocks_per_s, floor_blocks_per_s, ">=0.5");
    PrintRatio("ingest outputs/s vs binary COPY floor", outputs / full.seconds,
               outputs / floor_seconds, "-");
    PrintRatio("ingest peak RSS MiB, full vs 1/4 ledger", full.peak_rss_kib / 1024.0,
               small.peak_rss_kib / 1024.0, "<=1.5");

    std::remove(ledger.c_str());
    std::remove(quarter.c_str());
    std::remove(log.c_str());
    for (const char *db : {"ingest_bench_quarter", "ingest_bench_full"})
    {
        pqxx::connection admin(dsn);
        pqxx::nontransaction tx(admin);
        tx.exec0(fmt::format("DROP DATABASE IF EXISTS {}", db));
    }
    return 0;
}
