// Issue 47's capacity run: a generated ledger of each era grown in steps (1x, 2x, 5x, 10x of a
// base size), archived as it grows by maintain()'s policy, and at each step the costs users meet,
// hot and cold: ingest rate, lookups (warm and as a new connection's first statement), first and
// deep pages, planning, verify, disk per tier, the bytes that stay hot, the server's memory.
// Prints one CSV row per figure (step,era,metric,tier,value,unit) on stdout; bench/capacity/run
// drives it and draws the report. Each era has its own database in the cluster of
// PERMANODE_BENCH_DSN, so that what stays hot per block is the era's own:
//   stardust   the generator's default mix (65 blocks a milestone), ranges of 10,000 milestones
//              (the default), the newest two kept hot;
//   chrysalis  its default mix (250 messages a milestone), ranges of 1,000 (so that they
//              multiply at these sizes), the newest two hot;
//   legacy     month partitions (pieces of ten days: PERMANODE_CAPACITY_LEGACY_PIECES, default
//              10 a base), the newest month hot.
// PERMANODE_CAPACITY_BASE scales the base (1 = 2M Stardust blocks, 0.5M Chrysalis messages,
// 1M legacy transactions); PERMANODE_CAPACITY_STEPS lists the multiples (default 1,2,5,10);
// PERMANODE_CAPACITY_WORK is a directory for each step's generated slice; PERMANODE_CAPACITY_KEYS
// how many keys each lookup is timed over.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"
#include "ledger_figures.hpp"
#include "permanode/client.hpp"
#include "permanode/queries.hpp"

using namespace permanode::bench;
namespace client = permanode::client;
namespace fs = std::filesystem;

namespace
{

constexpr const char *kCli = PERMANODE_CLI_PATH;
// Milestones per range at base 1 (scaled with the base, so that a smaller run keeps the shape).
constexpr int kStardustChunk = 10000;
constexpr int kChrysalisChunk = 1000;
constexpr int kHotRanges = 2;            // ranges kept hot behind the newest milestone
constexpr double kStardustBlocks = 65.0; // the default mix's mean per milestone
constexpr double kChrysalisMessages = 250;
// 20-50 a milestone and its bundle: the base-1 run held 1.03M transactions from 26,310 milestones
constexpr double kLegacyTransactions = 38;
// Keys timed per lookup (as many again warm up), per first page, and on new connections:
// PERMANODE_CAPACITY_KEYS (default 1000) point keys, a fifth as many pages, a tenth as many new
// connections (the smoke run in CI takes few).
int PointKeys()
{
    const char *env = std::getenv("PERMANODE_CAPACITY_KEYS");
    return std::max(20, env && *env ? std::stoi(env) : 1000);
}
int PageKeys()
{
    return std::max(10, PointKeys() / 5);
}
int FreshKeys()
{
    return std::max(10, PointKeys() / 10);
}

void Log(const std::string &what)
{
    fmt::print(stderr, "capacity: {}\n", what);
    std::fflush(stderr);
}

void Emit(int step, const std::string &era, const std::string &metric, const std::string &tier,
          double value, const std::string &unit)
{
    fmt::print("{},{},\"{}\",{},{:.3f},{}\n", step, era, metric, tier, value, unit);
    std::fflush(stdout);
}

std::string Run(const std::string &command)
{
    std::string output;
    FILE *pipe = popen(command.c_str(), "r");
    if (!pipe)
        throw std::runtime_error("cannot run: " + command);
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe))
        output += buffer;
    if (pclose(pipe) != 0)
        throw std::runtime_error("failed: " + command + "\n" + output);
    return output;
}

double Scalar(const std::string &dsn, const std::string &sql)
{
    pqxx::connection conn(dsn);
    auto row = pqxx::nontransaction(conn).exec1(sql);
    return row[0].is_null() ? 0 : row[0].as<double>();
}

std::vector<int> Steps()
{
    const char *env = std::getenv("PERMANODE_CAPACITY_STEPS");
    std::string text = env && *env ? env : "1,2,5,10";
    std::vector<int> steps;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        steps.push_back(std::stoi(item));
    if (steps.empty() || !std::is_sorted(steps.begin(), steps.end()) || steps.front() < 1)
        throw std::runtime_error("PERMANODE_CAPACITY_STEPS: ascending multiples, such as 1,2,5,10");
    return steps;
}

double Base()
{
    const char *env = std::getenv("PERMANODE_CAPACITY_BASE");
    return env && *env ? std::stod(env) : 1.0;
}

// The sum of the proportional set sizes of the cluster's processes (postmaster and children).
double ServerMemoryBytes(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    int backend = pqxx::nontransaction(conn).exec1("SELECT pg_backend_pid()")[0].as<int>();
    std::ifstream stat(fmt::format("/proc/{}/stat", backend));
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    // pid (comm) state ppid ...
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string state;
    int postmaster = 0;
    fields >> state >> postmaster;
    double bytes = 0;
    for (const auto &entry : fs::directory_iterator("/proc"))
    {
        std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        int pid = std::stoi(name);
        std::ifstream child_stat(entry.path() / "stat");
        std::string child((std::istreambuf_iterator<char>(child_stat)), {});
        if (child.empty())
            continue;
        std::istringstream child_fields(child.substr(child.rfind(')') + 2));
        int ppid = 0;
        child_fields >> state >> ppid;
        if (pid != postmaster && ppid != postmaster)
            continue;
        std::ifstream rollup(entry.path() / "smaps_rollup");
        for (std::string line; std::getline(rollup, line);)
            if (line.rfind("Pss:", 0) == 0)
                bytes += std::stod(line.substr(4)) * 1024;
    }
    return bytes;
}

// Disk per tier (hot partitions and hot tables, archives) and what must stay hot whatever is
// archived: the tables outside the partitioned ones (locators, hints, the unspent set, ...).
void EmitDisk(int step, const std::string &era, const std::string &dsn, const std::string &family,
              const std::string &schema, double units, const std::string &unit)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    // Bytes of each tier, and per unit of that tier: the units are the rows of the era's own
    // table (messages, legacy transactions) in the tier.
    const std::string unit_table = family == "legacy" ? "transactions" : "messages";
    for (auto row : tx.exec(
             fmt::format("SELECT tier, sum(bytes), sum(rows) FILTER (WHERE table_name = '{}') FROM "
                         "permanode.family_status WHERE family = '{}' GROUP BY tier",
                         unit_table, family)))
    {
        std::string tier = row[0].as<std::string>();
        double bytes = row[1].is_null() ? 0 : row[1].as<double>();
        Emit(step, era, "disk of the partitioned tables", tier, bytes, "bytes");
        if (!row[2].is_null() && row[2].as<double>() > 0)
            Emit(step, era, fmt::format("partitioned bytes per {} of the tier", unit), tier,
                 bytes / row[2].as<double>(), "bytes");
    }
    double always_hot = tx.exec1(fmt::format("SELECT coalesce(sum(pg_total_relation_size(c.oid)), "
                                             "0) FROM pg_class c JOIN pg_namespace n ON n.oid = "
                                             "c.relnamespace WHERE n.nspname = '{}' AND c.relkind "
                                             "= 'r' AND NOT c.relispartition",
                                             schema))[0]
                            .as<double>();
    Emit(step, era, "always-hot tables", "hot", always_hot, "bytes");
    Emit(step, era, "always-hot bytes per " + unit, "hot", always_hot / units, "bytes");
    // The parts docs/SCALE.md models apart: locators and hints (265.8 B a Stardust block), the
    // as-of history of spent outputs, the unspent set.
    if (schema == "permanode")
        for (const auto &[part, tables] : std::vector<std::pair<std::string, std::string>>{
                 {"locators and hints", "block_locator output_locator addresses_hints "
                                        "parent_hints transaction_locator tag_hints chain_locator "
                                        "milestone_locator foundry_locator milestone_protocols"},
                 {"retired_outputs", "retired_outputs"},
                 {"unspent_outputs", "unspent_outputs"}})
            Emit(step, era, fmt::format("{} bytes per {}", part, unit), "hot",
                 tx.exec1(fmt::format("SELECT coalesce(sum(pg_total_relation_size(format('"
                                      "permanode.%I', t)::regclass)), 0) FROM unnest("
                                      "string_to_array('{}', ' ')) t",
                                      tables))[0]
                         .as<double>() /
                     units,
                 "bytes");
    Emit(step, era, "database size", "all",
         tx.exec1("SELECT pg_database_size(current_database())")[0].as<double>(), "bytes");
}

// The archiving policy maintain() applies (permanode.settings).
void SetPolicy(const std::string &dsn, const std::string &key, int value)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction(conn).exec0(
        fmt::format("INSERT INTO permanode.settings VALUES ('{}', '{}')", key, value));
}

// ---- Stardust and Chrysalis: generated bundles, sliced by milestone, ingested per milestone.

struct MilestoneEra
{
    std::string name, protocol, db;
    int chunk = 0;
    int base_milestones = 0;
    int ingested = 0;
};

// A milestone era's database, its ranges of `chunk` milestones and its base size scaled by `base`,
// archived by maintain() but for its two newest ranges.
MilestoneEra NewMilestoneEra(const std::string &dsn, const std::string &protocol, int chunk,
                             double base_milestones, double base)
{
    MilestoneEra era;
    era.name = era.protocol = protocol;
    era.chunk = std::max(10, static_cast<int>(chunk * base));
    era.db = CreateLedgerDatabase(dsn, "capacity_" + protocol, era.chunk);
    era.base_milestones = static_cast<int>(base_milestones * base);
    SetPolicy(era.db, "archive_older_than", kHotRanges * era.chunk);
    return era;
}

// The ledger's rows in archives (family_status), for what maintain() archived.
double ColdRows(const std::string &dsn, const std::string &family)
{
    return Scalar(dsn, fmt::format("SELECT sum(rows) FROM permanode.family_status WHERE family = "
                                   "'{}' AND tier = 'cold'",
                                   family));
}

// Ingests milestones up to `target` a range at a time, each piece a file, as a node's history
// arrives: `permanode ingest` runs maintain() after each file, which archives by the policy.
// Emits the ingest rate (the CLI's own figures, maintain() excluded) and the archive rate.
void IngestUpTo(int step, MilestoneEra &era, int target, const fs::path &work,
                const std::string &unit)
{
    double units = 0, ingest_seconds = 0, maintain_seconds = 0;
    double cold_before = ColdRows(era.db, "ledger");
    // Milestone i is line i of the generated file: one piece file per range.
    fs::path pieces = work / era.name;
    fs::remove_all(pieces);
    fs::create_directories(pieces);
    Run(fmt::format("'{0}' generate --protocol {1} --milestones {2} --seed 47 | awk -v f={3} "
                    "-v c={4} -v d='{5}' 'NR >= f {{ print > (d \"/\" sprintf(\"%09d\", "
                    "int(NR / c)) \".ndjson\") }}'",
                    kCli, era.protocol, target, era.ingested + 1, era.chunk, pieces.string()));
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(pieces))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files)
    {
        auto start = std::chrono::steady_clock::now();
        std::string summary =
            Run(fmt::format("'{}' ingest --no-progress --no-measure --dsn '{}' '{}' 2>&1", kCli,
                            era.db, file.string()));
        double wall = SecondsSince(start);
        std::smatch m;
        if (!std::regex_search(summary, m, std::regex(R"(: ([0-9]+) blocks, .* in ([0-9.]+) s)")))
            throw std::runtime_error("no figures in the ingest summary: " + summary);
        units += std::stod(m[1]);
        ingest_seconds += std::stod(m[2]);
        maintain_seconds += std::max(0.0, wall - std::stod(m[2]));
        fs::remove(file);
    }
    era.ingested = target;
    Log(fmt::format("{}: {} milestones, {:.0f} {}s/s, maintain() {:.1f} s", era.name, era.ingested,
                    units / ingest_seconds, unit, maintain_seconds));
    Emit(step, era.name, fmt::format("ingest {}s/s (per milestone)", unit), "hot",
         units / ingest_seconds, unit + "s/s");
    double archived = ColdRows(era.db, "ledger") - cold_before;
    if (archived > 0)
        Emit(step, era.name, "archive rows/s (maintain)", "cold", archived / maintain_seconds,
             "rows/s");
}

double Blocks(const std::string &dsn)
{
    return Scalar(dsn, "SELECT sum(message_count) FROM permanode.ms_analytics");
}

int NewestRange(const std::string &dsn, int chunk)
{
    return static_cast<int>(Scalar(dsn, "SELECT max(milestone_index) FROM permanode.sync")) / chunk;
}

// The blocks per second `permanode verify` checks over one range.
void EmitVerify(int step, const std::string &era, const std::string &dsn, int range,
                const std::string &tier)
{
    double blocks = Scalar(dsn, fmt::format("SELECT count(*) FROM permanode.messages WHERE "
                                            "ms_range_id = {}",
                                            range));
    auto start = std::chrono::steady_clock::now();
    Run(fmt::format("'{}' verify --no-legacy --dsn '{}' --from-range {} --to-range {} >/dev/null",
                    kCli, dsn, range, range + 1));
    Emit(step, era, "verify blocks/s", tier, blocks / SecondsSince(start), "blocks/s");
}

void EmitFigures(int step, const std::string &tier, const LedgerFigures &f)
{
    auto us = [&](const std::string &metric, double value)
    { Emit(step, "stardust", metric, tier, value, "us"); };
    us("output by ID", f.output);
    us("block by ID", f.block);
    us("block of a transaction", f.transaction);
    auto maybe = [&](const std::string &metric, const std::optional<double> &value)
    {
        if (value)
            us(metric, *value);
    };
    maybe("first page by address", f.address);
    maybe("first page by sender", f.sender);
    maybe("first page by tag", f.tag);
    maybe("first page by issuer", f.issuer);
    maybe("first page by state controller", f.state_controller);
    maybe("50th page by address (cursor)", f.deep);
    us("planning, output by ID", f.plan_output);
    maybe("planning, 50th page", f.plan_deep);
    us("new connection: output by ID", f.fresh_output);
    us("new connection: block by ID", f.fresh_block);
    maybe("new connection: first page by address", f.fresh_address);
}

// The as-of page: the first page by address as of a milestone in the middle of the ledger.
void EmitAsOf(int step, const std::string &dsn, const LedgerKeys &keys, int milestone)
{
    if (keys.addresses.empty())
        return;
    client::Client c(dsn);
    double us =
        TimeEach(keys.addresses,
                 [&](const std::string &address)
                 {
                     client::OutputFilter filter;
                     filter.address = address;
                     filter.as_of = milestone;
                     c.QueryOutputs(client::OutputKind::kBasic, filter, false, 100, std::nullopt);
                     return true;
                 });
    Emit(step, "stardust", "first page by address as of a past milestone", "mixed", us, "us");
}

// A first page (100, newest first) by address and by tag over the archived ranges only
// (createdBefore the first hot range): the generator's addresses and tags recur in every range,
// so few keys have no row in the hot ones.
void EmitArchivedPages(int step, const MilestoneEra &era, int first_hot)
{
    pqxx::connection conn(era.db);
    auto before = static_cast<std::int64_t>(
        Scalar(era.db, fmt::format("SELECT min(timestamp) FROM permanode.milestones WHERE "
                                   "milestone_index >= {}",
                                   first_hot * era.chunk)));
    client::Client c(era.db);
    for (bool by_tag : {false, true})
    {
        auto keys = SampledColumn(
            conn,
            fmt::format("SELECT k FROM (SELECT DISTINCT {} AS k FROM permanode.basic_outputs "
                        "TABLESAMPLE SYSTEM ({{pct}}) WHERE {} IS NOT NULL AND ms_range_id < {}) "
                        "d ORDER BY random() LIMIT {}",
                        by_tag ? "'0x' || encode(tag, 'hex')" : "address::text",
                        by_tag ? "tag" : "address", first_hot, 2 * PageKeys()),
            5);
        if (keys.size() < 10)
            continue;
        double us = TimeEach(keys,
                             [&](const std::string &key)
                             {
                                 client::OutputFilter filter;
                                 (by_tag ? filter.tag : filter.address) = key;
                                 filter.created_before = before;
                                 return !c.QueryOutputs(client::OutputKind::kBasic, filter, true,
                                                        100, std::nullopt)
                                             .items.empty();
                             });
        Emit(step, era.name,
             by_tag ? "first page by tag, archived ranges"
                    : "first page by address, archived ranges",
             "cold", us, "us");
    }
}

// The database's shared-buffer reads and hits so far (pg_stat_database), once the backends of
// the connections just closed have exited, which flushes their counts.
std::pair<double, double> BufferReadsAndHits(const std::string &dsn)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    auto row = tx.exec1("SELECT blks_read, blks_hit FROM pg_stat_database WHERE datname = "
                        "current_database()");
    return {row[0].as<double>(), row[1].as<double>()};
}

// The lookups' figures, and the share of the pages they asked for that shared buffers held: a
// figure that grows with the ledger while this share falls follows the cache, not the code.
LedgerFigures MeasuredWithHits(int step, const std::string &dsn, const std::string &tier,
                               const LedgerKeys &keys)
{
    auto [reads_before, hits_before] = BufferReadsAndHits(dsn);
    LedgerFigures figures = MeasureLedger(dsn, keys, FreshKeys());
    auto [reads, hits] = BufferReadsAndHits(dsn);
    double asked = (reads - reads_before) + (hits - hits_before);
    if (asked > 0)
        Emit(step, "stardust", "lookups' shared buffer hit ratio", tier,
             (hits - hits_before) / asked, "ratio");
    return figures;
}

// Where a step left a milestone era: its newest range, its first hot one, its size.
struct Grown
{
    int newest = 0;
    int first_hot = 0;
    double units = 0; // blocks or messages
};

// Grows the era to the step's size (`unit`: block or message) and analyzes it.
Grown Grow(int step, MilestoneEra &era, const fs::path &work, const std::string &unit)
{
    IngestUpTo(step, era, era.base_milestones * step, work, unit);
    Grown grown;
    grown.newest = NewestRange(era.db, era.chunk);
    grown.first_hot = std::max(0, grown.newest - kHotRanges + 1);
    {
        pqxx::connection conn(era.db);
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");
    }
    grown.units = Blocks(era.db);
    Emit(step, era.name, unit + "s", "all", grown.units, unit + "s");
    return grown;
}

void StardustStep(int step, MilestoneEra &era, const fs::path &work)
{
    auto [newest, first_hot, blocks] = Grow(step, era, work, "block");
    int target = era.base_milestones * step;
    {
        pqxx::connection conn(era.db);
        client::Client walker(era.db);
        LedgerKeys hot = PickLedgerKeys(conn, walker, {first_hot, newest + 1, false}, PointKeys(),
                                        PageKeys(), false);
        EmitFigures(step, "hot", MeasuredWithHits(step, era.db, "hot", hot));
        EmitAsOf(step, era.db, hot, target / 2);
        if (first_hot > 0)
        {
            LedgerKeys cold =
                PickLedgerKeys(conn, walker, {0, first_hot, true}, PointKeys(), PageKeys(), false);
            EmitFigures(step, "cold", MeasuredWithHits(step, era.db, "cold", cold));
            EmitArchivedPages(step, era, first_hot);
        }
    }
    EmitVerify(step, era.name, era.db, newest - 1 >= first_hot ? newest - 1 : newest, "hot");
    if (first_hot > 0)
        EmitVerify(step, era.name, era.db, first_hot - 1, "cold");
    EmitDisk(step, era.name, era.db, "ledger", "permanode", blocks, "block");
    Emit(step, "server", "memory (PSS of the cluster's processes)", "all",
         ServerMemoryBytes(era.db), "bytes");
}

// A point lookup (warm) of messages of ranges [first, end).
void EmitMessageLookup(int step, const MilestoneEra &era, int first, int end,
                       const std::string &tier)
{
    pqxx::connection conn(era.db);
    auto keys = SampledColumn(conn,
                              fmt::format("SELECT message_id::text FROM permanode.messages "
                                          "TABLESAMPLE SYSTEM ({{pct}}) WHERE ms_range_id >= {} "
                                          "AND ms_range_id < {} ORDER BY random() LIMIT {}",
                                          first, end, 2 * PointKeys()),
                              5);
    client::Client c(era.db);
    Emit(step, era.name, "message by ID", tier,
         TimeEach(keys, [&](const std::string &id) { return c.GetBlock(id).has_value(); }), "us");
}

void ChrysalisStep(int step, MilestoneEra &era, const fs::path &work)
{
    auto [newest, first_hot, messages] = Grow(step, era, work, "message");
    EmitMessageLookup(step, era, first_hot, newest + 1, "hot");
    if (first_hot > 0)
        EmitMessageLookup(step, era, 0, first_hot, "cold");
    EmitDisk(step, era.name, era.db, "ledger", "permanode", messages, "message");
}

// ---- Legacy: generated .dmp pieces (ten days each by default), imported with import-dmp.

struct LegacyEra
{
    std::string db;
    int milestones_per_piece = 0;
    int pieces_per_base = 10; // PERMANODE_CAPACITY_LEGACY_PIECES
    long seconds_per_piece = 0;
    int pieces = 0;
};

constexpr long kLegacyFirst = 1509494400; // 2017-11-01, the current layout's start
constexpr long kLegacyBaseSpan = 8640000; // 100 days a base: 10x end in mid-2020

double ImportLegacyPiece(LegacyEra &era, const fs::path &work)
{
    int k = era.pieces++;
    fs::path dmp = work / "legacy.dmp", snapshot = work / "legacy.snapshot",
             log = work / "legacy.log";
    Run(fmt::format("'{}' generate --protocol legacy --seed {} --milestones {} --start-index {} "
                    "--start-timestamp {} -o '{}' --snapshot '{}' 2> '{}'",
                    kCli, 470 + k, era.milestones_per_piece, 1 + k * era.milestones_per_piece,
                    kLegacyFirst + k * era.seconds_per_piece, dmp.string(), snapshot.string(),
                    log.string()));
    std::string coordinator =
        Run(fmt::format("grep -o '[A-Z9]\\{{81\\}}' '{}' | head -1", log.string()));
    coordinator = coordinator.substr(0, 81);
    auto start = std::chrono::steady_clock::now();
    Run(fmt::format("'{}' import-dmp --dsn '{}' '{}' --snapshot '{}' --coordinator {} 2>/dev/null",
                    kCli, era.db, dmp.string(), snapshot.string(), coordinator));
    double seconds = SecondsSince(start);
    double lines = std::stod(Run(fmt::format("wc -l < '{}'", dmp.string())));
    fs::remove(dmp);
    fs::remove(snapshot);
    return lines / seconds;
}

void LegacyStep(int step, LegacyEra &era, int pieces_at_step, const fs::path &work)
{
    // import-dmp does not run the maintenance job: run it after each piece, as its schedule
    // would (a month's transactions held hot until a step ends would not fit the disk at 10x).
    double rates = 0, pieces = 0, maintain_seconds = 0;
    double cold_before = ColdRows(era.db, "legacy");
    while (era.pieces < pieces_at_step)
    {
        rates += ImportLegacyPiece(era, work);
        pieces += 1;
        auto start = std::chrono::steady_clock::now();
        pqxx::connection conn(era.db);
        pqxx::nontransaction(conn).exec("SELECT * FROM permanode.maintain()");
        maintain_seconds += SecondsSince(start);
    }
    if (pieces > 0)
        Emit(step, "legacy", "import-dmp transactions/s", "hot", rates / pieces, "tx/s");
    if (double archived = ColdRows(era.db, "legacy") - cold_before; archived > 0)
        Emit(step, "legacy", "archive rows/s (maintain)", "cold", archived / maintain_seconds,
             "rows/s");
    {
        pqxx::connection conn(era.db);
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");
    }
    double transactions = Scalar(era.db, "SELECT count(*) FROM legacy.transaction_locator");
    Emit(step, "legacy", "transactions", "all", transactions, "transactions");
    // The newest month is hot, the others archived.
    int newest =
        static_cast<int>(Scalar(era.db, "SELECT max(month_id) FROM legacy.transaction_locator"));
    for (bool cold : {false, true})
    {
        pqxx::connection conn(era.db);
        auto keys = SampleKeys(
            conn, fmt::format("SELECT hash::text FROM legacy.transaction_locator WHERE month_id "
                              "{} {} ORDER BY hash LIMIT {}",
                              cold ? "<" : "=", newest, 2 * PointKeys()));
        if (keys.size() < 10)
            continue;
        client::Client c(era.db);
        Emit(step, "legacy", "transaction trytes by hash", cold ? "cold" : "hot",
             TimeEach(keys, [&](const std::string &hash)
                      { return c.Run(client::queries::legacy::Trytes({hash})).at(0).has_value(); }),
             "us");
    }
    EmitDisk(step, "legacy", era.db, "legacy", "legacy", transactions, "transaction");
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        std::vector<int> steps = Steps();
        double base = Base();
        const char *work_env = std::getenv("PERMANODE_CAPACITY_WORK");
        fs::path work =
            work_env && *work_env ? work_env : fs::temp_directory_path() / "permanode-capacity";
        fs::create_directories(work);

        MilestoneEra stardust =
            NewMilestoneEra(dsn, "stardust", kStardustChunk, 2e6 / kStardustBlocks, base);
        MilestoneEra chrysalis =
            NewMilestoneEra(dsn, "chrysalis", kChrysalisChunk, 0.5e6 / kChrysalisMessages, base);
        LegacyEra legacy;
        {
            pqxx::connection admin(dsn);
            pqxx::nontransaction tx(admin);
            tx.exec0("DROP DATABASE IF EXISTS capacity_legacy");
            tx.exec0("CREATE DATABASE capacity_legacy");
        }
        legacy.db = dsn + " dbname=capacity_legacy";
        {
            pqxx::connection conn(legacy.db);
            pqxx::nontransaction tx(conn);
            tx.exec0("CREATE EXTENSION permanode CASCADE");
            tx.exec("SELECT permanode.init('iota')");
        }
        SetPolicy(legacy.db, "legacy_archive_older_than", 1);
        // 1M transactions and 100 days a base, in pieces of a tenth (fewer in the smoke run:
        // each piece is a generate and an import-dmp).
        if (const char *pieces = std::getenv("PERMANODE_CAPACITY_LEGACY_PIECES"); pieces && *pieces)
            legacy.pieces_per_base = std::max(1, std::stoi(pieces));
        legacy.seconds_per_piece = kLegacyBaseSpan / legacy.pieces_per_base;
        legacy.milestones_per_piece = std::max(
            20, static_cast<int>(1e6 * base / legacy.pieces_per_base / kLegacyTransactions));

        fmt::print("step,era,metric,tier,value,unit\n");
        for (int step : steps)
        {
            Log(fmt::format("step {}x", step));
            StardustStep(step, stardust, work);
            ChrysalisStep(step, chrysalis, work);
            LegacyStep(step, legacy, legacy.pieces_per_base * step, work);
        }
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "capacity_grow: {}\n", e.what());
        return 1;
    }
    return 0;
}
