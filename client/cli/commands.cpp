// The CLI's subcommands: their options and help; the work is done in the files they call.
#include "commands.hpp"

#include "analytics.hpp"
#include "archive.hpp"
#include "decode.hpp"
#include "dump.hpp"
#include "era_files.hpp"
#include "export.hpp"
#include "bundle.hpp"
#include "chronicle_import.hpp"
#include "demo.hpp"
#include "embedded_cluster.hpp"
#include "chrysalis_generator.hpp"
#include "generator.hpp"
#include "ingest.hpp"
#include "interrupt.hpp"
#include "legacy_generator.hpp"
#include "legacy_import.hpp"
#include "progress.hpp"
#include "follow.hpp"
#include "sync.hpp"
#include "sync_status.hpp"
#include "verify.hpp"

#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "permanode/client.hpp"

namespace permanode::cli
{
namespace
{

EmbeddedCluster ClusterFor(const CommonOptions &common)
{
    return EmbeddedCluster(common.dir.empty() ? EmbeddedCluster::DefaultRoot()
                                              : std::filesystem::path(common.dir));
}

// The DSN a command connects to: --dsn, else the embedded cluster's.
std::string DsnFor(const CommonOptions &common)
{
    if (!common.dsn.empty())
        return common.dsn;
    auto cluster = ClusterFor(common);
    NoteUnusedPgEnvironment(cluster);
    return cluster.Dsn();
}

// Like DsnFor, but starts the embedded cluster (creating it the first time) when it is the one.
std::string StartedDsnFor(const CommonOptions &common)
{
    return common.dsn.empty() ? StartedEmbeddedCluster(common).Dsn() : common.dsn;
}

// Ends the command with an exit code (main returns it).
void Exit(int code)
{
    if (code != kOk)
        throw CLI::RuntimeError(code);
}

// "MIN-MAX" (or "N") within [lo, hi], for options like --blocks-per-milestone.
std::pair<unsigned, unsigned> ParseMinMax(const std::string &option, const std::string &text,
                                          unsigned lo, unsigned hi)
{
    unsigned min = 0, max = 0;
    char dash = 0;
    std::istringstream range(text);
    if (!(range >> min))
        throw CLI::ValidationError(option, "expected MIN-MAX");
    max = min;
    if (range >> dash && (dash != '-' || !(range >> max)))
        throw CLI::ValidationError(option, "expected MIN-MAX");
    if (min < lo || max < min || max > hi)
        throw CLI::ValidationError(option, fmt::format("expected {} <= MIN <= MAX <= {}", lo, hi));
    return {min, max};
}

void PrintBuildInfo(const std::string &dsn)
{
    client::Client client(dsn);
    auto info = client.GetBuildInfo();
    fmt::print("permanode {} / permanode_fdw {} on PostgreSQL {} with RocksDB {}\n",
               info.extension_version, info.fdw_version, info.pg_major, info.rocksdb_version);
}

} // namespace

EmbeddedCluster StartedEmbeddedCluster(const CommonOptions &common)
{
    auto cluster = ClusterFor(common);
    NoteUnusedPgEnvironment(cluster);
    cluster.Start(false);
    return cluster;
}

void RegisterClusterCommands(CLI::App &app, CommonOptions &common)
{
    auto *cluster = app.add_subcommand("cluster", "Manage the embedded PostgreSQL cluster");
    cluster->require_subcommand(1);
    cluster->fallthrough(); // `cluster start --dir D` as well as `cluster --dir D start`
    cluster->add_option("--dir", common.dir,
                        "Cluster directory (default: $PERMANODE_HOME or ./.permanode)");

    static bool fast = false;
    auto *start = cluster->add_subcommand("start", "Create (if needed) and start the cluster, "
                                                   "with the permanode database and extensions");
    start->add_flag("--fast", fast, "Turn off fsync: for throwaway test clusters only");
    start->callback(
        [&]
        {
            auto c = ClusterFor(common);
            c.Start(fast);
            fmt::print("embedded cluster running: {}\n  log: {}\n", c.Dsn(), c.LogFile().string());
        });

    cluster->add_subcommand("stop", "Stop the cluster")
        ->callback([&] { ClusterFor(common).Stop(); });

    cluster->add_subcommand("status", "Say whether the cluster runs, and where")
        ->callback(
            [&]
            {
                auto c = ClusterFor(common);
                if (!c.IsRunning())
                {
                    fmt::print("embedded cluster at {} is not running\n", c.Root().string());
                    throw CLI::RuntimeError(kEnvironment);
                }
                fmt::print("embedded cluster running: {}\n", c.Dsn());
            });

    cluster->add_subcommand("env", "Print shell exports (PGHOST, PGPORT, ...) for the cluster")
        ->callback(
            [&]
            {
                auto c = ClusterFor(common);
                fmt::print("export PGHOST=127.0.0.1 PGPORT={} PGUSER=postgres PGDATABASE={}\n",
                           c.Port(), EmbeddedCluster::kDatabase);
            });

    cluster->add_subcommand("destroy", "Delete a stopped cluster's files")
        ->callback([&] { ClusterFor(common).Destroy(); });
}

void RegisterStatusCommand(CLI::App &app, CommonOptions &common)
{
    static SyncLimits limits;
    auto *status = app.add_subcommand("status", "Show what the database holds and where");
    status->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    status->add_option("--dir", common.dir, "Embedded cluster directory");
    status
        ->add_option("--sync-max-lag", limits.max_lag,
                     "Milestones the archive may be behind a node followed (as serve's)")
        ->capture_default_str();
    status
        ->add_option("--sync-max-silence", limits.max_silence_s,
                     "Seconds a running sync may go without reporting (as serve's)")
        ->capture_default_str();
    status->callback(
        [&]
        {
            std::string dsn = DsnFor(common);
            PrintBuildInfo(dsn);
            fmt::print("\n");
            pqxx::connection conn(dsn);
            PrintLedgerStatus(conn);
            fmt::print("\n");
            PrintSyncStatus(conn, limits);
        });
}

void RegisterVerifyCommand(CLI::App &app, CommonOptions &common)
{
    static int from_range = -1, to_range = -1;
    static bool no_legacy = false;
    auto *verify = app.add_subcommand(
        "verify", "Prove that what is stored is what the network wrote: every block's ID "
                  "computed again from its bytes, each milestone's rows derived again from its "
                  "stored cone and compared, its white-flag order and Merkle roots checked, hot "
                  "and archived ranges alike, and the legacy transactions hashed again. Prints "
                  "each mismatch (table, range, key, problem); exits 6 if there is any");
    verify->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    verify->add_option("--dir", common.dir, "Embedded cluster directory");
    auto *from = verify->add_option("--from-range", from_range,
                                    "First ms_range_id to verify (default: the first held)");
    auto *to = verify->add_option("--to-range", to_range,
                                  "ms_range_id after the last one (default: after the newest)");
    from->check(CLI::NonNegativeNumber);
    to->check(CLI::NonNegativeNumber);
    verify->add_flag("--no-legacy", no_legacy, "Skip the legacy era's months");
    verify->callback(
        [&]
        {
            pqxx::connection conn(DsnFor(common));
            VerifyOptions options;
            if (from_range >= 0)
                options.from_range = from_range;
            if (to_range >= 0)
                options.to_range = to_range;
            options.legacy = !no_legacy;
            Exit(Verify(conn, options) == 0 ? kOk : kMismatch);
        });
}

void RegisterAnalyticsCommand(CLI::App &app, CommonOptions &common)
{
    static FillOptions options;
    static std::vector<std::int32_t> fill;
    auto *command = app.add_subcommand(
        "analytics",
        "Measure the milestones ingest and sync left unmeasured (inx-chronicle's per-milestone "
        "measurements, permanode.milestone_measurements: ingest and sync measure what they "
        "commit once the milestone before is measured; ingest --no-measure leaves it to this), "
        "in milestone order, a batch per transaction: interrupted, it "
        "keeps what it measured and a later run resumes there; then roll up the daily, weekly and "
        "monthly active addresses of the days measured\n\n"
        "Exit codes: 0 ok, 1 stopped at a milestone whose predecessor is "
        "not measured (before FROM, or not ingested), 3 database error, 130 interrupted");
    command->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    command->add_option("--dir", common.dir, "Embedded cluster directory");
    command->add_option("--fill", fill, "FROM TO: the milestones to measure (inclusive)")
        ->expected(2)
        ->required()
        ->check(CLI::NonNegativeNumber);
    command->add_option("--batch", options.batch, "Milestones per transaction (default 500)")
        ->check(CLI::Range(1, 100000));
    command->callback(
        [&]
        {
            options.from = fill[0];
            options.to = fill[1];
            if (options.to < options.from)
                throw CLI::ValidationError("--fill", "TO is below FROM");
            FillSummary summary = FillMeasurements(StartedDsnFor(common), options, std::cout);
            fmt::print(
                "{} milestones measured{}; {} active address rows rolled up\n", summary.measured,
                summary.last_measured >= 0 ? fmt::format(", the last {}", summary.last_measured)
                                           : "",
                summary.active_address_rows);
            if (summary.blocked_at >= 0)
            {
                fmt::print(stderr,
                           "permanode: milestone {}: milestone {} before it is not measured: fill "
                           "from further back, or ingest it if it is missing\n",
                           summary.blocked_at, summary.blocked_at - 1);
                Exit(kFailure);
            }
            if (summary.interrupted)
                Exit(kInterrupted);
        });
}

void RegisterExportCommand(CLI::App &app, CommonOptions &common)
{
    static ExportOptions options;
    static std::int32_t from = -1, to = -1;
    static std::string output;
    auto *command = app.add_subcommand(
        "export", "Write an address's history of every era (Chrysalis and Stardust outputs, newest "
                  "first, where each was spent, where migrated funds came from) as CSV or JSON "
                  "lines, as GET /api/explorer/v2/history/{address} pages it");
    command->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    command->add_option("--dir", common.dir, "Embedded cluster directory");
    command
        ->add_option("--address", options.address,
                     "bech32 of either era, or the hex of an Ed25519 address")
        ->required();
    command->add_option("--format", options.format, "csv or jsonl")
        ->check(CLI::IsMember({"csv", "jsonl"}))
        ->capture_default_str();
    command->add_option("--from-milestone", from, "The oldest milestone to include")
        ->check(CLI::NonNegativeNumber);
    command->add_option("--to-milestone", to, "The newest milestone to include")
        ->check(CLI::NonNegativeNumber);
    command->add_option("-o,--output", output, "File to write (default: standard output)");
    command->callback(
        [&]
        {
            if (from >= 0)
                options.span.from = from;
            if (to >= 0)
                options.span.to = to;
            if (from >= 0 && to >= 0 && to < from)
                throw CLI::ValidationError("--to-milestone", "below --from-milestone");
            std::ofstream file;
            if (!output.empty())
            {
                file.open(output, std::ios::binary | std::ios::trunc);
                if (!file)
                    throw CLI::ValidationError("--output", "cannot write " + output);
            }
            try
            {
                long written =
                    ExportHistory(DsnFor(common), options, output.empty() ? std::cout : file);
                if (!output.empty())
                    fmt::print(stderr, "permanode: {} entries written to {}\n", written, output);
            }
            catch (const std::invalid_argument &e)
            {
                throw CLI::ValidationError(e.what());
            }
        });
}

void RegisterFollowCommand(CLI::App &app, CommonOptions &common)
{
    static FollowOptions options;
    static std::int64_t from = -1;
    auto *follow = app.add_subcommand(
        "follow", "Follow a record stream as a consumer group: print each record as a line of "
                  "JSON as it arrives (the ledger's own stream by default: what an address does, "
                  "with --tag ADDRESS), committing the group's offset; a restart resumes after "
                  "the last record committed. Wakes on LISTEN/NOTIFY, never polls");
    follow->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    follow->add_option("--dir", common.dir, "Embedded cluster directory");
    follow->add_option("--group", options.group, "Consumer group")->required();
    follow->add_option("--tag", options.tag,
                       "Only records with this tag (an address, a 0x-hex tag, an output kind)");
    follow->add_option("--namespace", options.namespace_name, "Stream namespace")
        ->capture_default_str();
    follow->add_option("--shard", options.shard_name, "Stream shard")->capture_default_str();
    follow->add_option("--from", from, "First offset (default: after the group's commit)")
        ->check(CLI::NonNegativeNumber);
    follow->add_option("--max-records", options.max_records,
                       "Stop after this many records (default: follow until interrupted)");
    follow->callback(
        [&]
        {
            if (from >= 0)
                options.from = static_cast<std::uint64_t>(from);
            InstallInterruptHandlers();
            Follow(DsnFor(common), options);
            Exit(kOk);
        });
}

void RegisterSyncCommand(CLI::App &app, CommonOptions &common)
{
    static SyncOptions options;
    static std::uint32_t from = 0, to = 0;
    static bool no_progress = false;
    auto *sync = app.add_subcommand(
        "sync",
        "Follow a node: archive every milestone it confirms, in order, then each new one as it "
        "is confirmed; a restart resumes after the newest milestone archived. Each milestone is "
        "checked before it commits: its cone against its payload's Merkle roots (TIP-4), and the "
        "outputs the node says it created and consumed against those ingest derives\n\n"
        "Exit codes: 0 ok (--to, --until-synced or --gaps done), 2 bad command line, 3 database "
        "error, 5 no cluster, 7 the node has pruned milestones the archive needs, 8 the node is "
        "behind the archive, "
        "9 the node follows another network, 10 a milestone's cone, payload and ledger updates "
        "disagree (nothing of it archived), 130 interrupted (after the milestones in flight)");
    auto *inx = sync->add_option("--inx", options.inx,
                                 "HOST:PORT of a Hornet 2.x node's INX server (Hornet: "
                                 "inx.enabled, localhost:9029)");
    auto *api = sync->add_option(
        "--api", options.api,
        "URL of a node's REST API instead: the core API v2 (Stardust) or the API v1 "
        "(Chrysalis, Hornet 1.x or inx-api-core-v1), whichever it serves; a permanode's own "
        "`permanode serve` too (http://localhost:14265)");
    inx->excludes(api);
    sync->add_flag("--gaps", options.gaps,
                   "Fill the gaps of permanode.sync_gaps() from the node, as far as it has them "
                   "(those it does not have are named and stay), then stop");
    sync->add_option("--requests", options.requests,
                     "REST requests at once per milestone (default 8)")
        ->check(CLI::Range(1, 64));
    sync->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    sync->add_option("--dir", common.dir, "Embedded cluster directory");
    sync->add_option("--from", from,
                     "The first milestone wanted (default: after the archive's newest of the "
                     "node's era, or on an empty archive the oldest the node has)");
    sync->add_option("--to", to, "Stop after this milestone");
    sync->add_flag("--until-synced", options.until_synced,
                   "Stop once the node's confirmed milestone is archived");
    sync->add_option("--ahead", options.ahead,
                     "Milestones fetched ahead of the writer (default 16)")
        ->check(CLI::Range(1, 1024));
    sync->add_flag("--no-progress", no_progress, "No progress lines");
    sync->callback(
        [&]
        {
            if (options.inx.empty() && options.api.empty())
            {
                fmt::print(stderr, "permanode sync: name the node: --inx HOST:PORT or --api URL\n");
                Exit(kUsage);
            }
            if (from > 0)
                options.from = from;
            if (to > 0)
                options.to = to;
            options.progress = !no_progress;
            Exit(Sync(StartedDsnFor(common), options));
        });
}

void RegisterDecodeCommand(CLI::App &app)
{
    static std::vector<std::string> inputs;
    static std::string protocol = "stardust";
    auto *decode = app.add_subcommand(
        "decode", "Print raw blocks or messages (hex), or legacy transactions (trytes), as JSON "
                  "in the shape their node API (or iota.js) serves, with the IDs or hash computed "
                  "from them\n\nExit codes: 0 ok, 4 bad input (which argument or stdin line, the "
                  "field and the byte or tryte offset on stderr)");
    decode
        ->add_option("INPUT", inputs,
                     "Raw blocks as hex (0x optional), legacy transactions as 2673 trytes, or - "
                     "for one per line of standard input")
        ->required();
    decode
        ->add_option("--protocol", protocol,
                     "stardust (blocks), chrysalis (messages) or legacy (ternary transactions)")
        ->check(CLI::IsMember({"stardust", "chrysalis", "legacy"}));
    decode->callback(
        [&]
        {
            Protocol chosen = protocol == "chrysalis" ? Protocol::kChrysalis
                              : protocol == "legacy"  ? Protocol::kLegacy
                                                      : Protocol::kStardust;
            int rc = RunDecode(inputs, chosen);
            if (rc != kOk)
                throw CLI::RuntimeError(rc);
        });
}

void RegisterDumpCommands(CLI::App &app, CommonOptions &common)
{
    static std::string dump_dir, archives_dir;
    auto add_common = [&](CLI::App *cmd)
    {
        cmd->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
        cmd->add_option("--dir", common.dir, "Embedded cluster directory");
        cmd->add_option("DUMP", dump_dir, "Dump directory (pg_dump's directory format)")
            ->required();
        cmd->add_option("--archives", archives_dir,
                        "Directory of the archives, written and read by the server "
                        "(default DUMP/permanode_archives)");
    };
    auto *dump = app.add_subcommand(
        "dump", "Logical backup: pg_dump of the database (directory format) and a copy of its "
                "archives (superuser)");
    add_common(dump);
    dump->callback([&] { DumpDatabase(DsnFor(common), dump_dir, archives_dir); });
    auto *restore = app.add_subcommand(
        "restore-dump", "Restore a `permanode dump` into a new, empty database: pg_restore, "
                        "then the archives, each checked against its manifest (superuser)");
    add_common(restore);
    restore->callback([&] { RestoreDump(DsnFor(common), dump_dir, archives_dir); });
}

void RegisterArchiveCommands(CLI::App &app, CommonOptions &common)
{
    static int older_than = -1, from_range = -1, to_range = -1;
    auto *archive = app.add_subcommand(
        "archive", "Move old milestone ranges of every ledger table (but sync) into RocksDB "
                   "archives; queries read them as before. Only ranges below the range of the "
                   "newest synced milestone");
    archive->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    archive->add_option("--dir", common.dir, "Embedded cluster directory");
    auto *older = archive->add_option("--older-than", older_than,
                                      "Archive every range whose milestones are all older than "
                                      "the newest synced milestone minus N");
    auto *from = archive->add_option("--from-range", from_range,
                                     "First ms_range_id to archive (milestone / chunk size)");
    auto *to = archive->add_option("--to-range", to_range, "ms_range_id after the last one");
    older->check(CLI::NonNegativeNumber)->excludes(from)->excludes(to);
    from->check(CLI::NonNegativeNumber)->needs(to);
    to->check(CLI::NonNegativeNumber)->needs(from);
    archive->callback(
        [&]
        {
            if (older_than < 0 && from_range < 0)
                throw CLI::ValidationError("archive", "give --older-than N or --from-range A "
                                                      "--to-range B");
            pqxx::connection conn(DsnFor(common));
            if (older_than >= 0)
                ArchiveOlderThan(conn, older_than);
            else
                ArchiveRanges(conn, from_range, to_range);
        });

    static int restore_from = -1, restore_to = -1;
    auto *restore = app.add_subcommand(
        "restore", "Put archived ranges back into ordinary partitions (each archive overlapping "
                   "the ranges is restored whole)");
    restore->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    restore->add_option("--dir", common.dir, "Embedded cluster directory");
    restore->add_option("--from-range", restore_from, "First ms_range_id to restore")
        ->required()
        ->check(CLI::NonNegativeNumber);
    restore->add_option("--to-range", restore_to, "ms_range_id after the last one")
        ->required()
        ->check(CLI::NonNegativeNumber);
    restore->callback(
        [&]
        {
            pqxx::connection conn(DsnFor(common));
            RestoreRanges(conn, restore_from, restore_to);
        });
}

void RegisterDemoCommand(CLI::App &app, CommonOptions &common)
{
    static DemoOptions options;
    auto *demo = app.add_subcommand(
        "demo", "The main job on the embedded default: start the cluster, ingest the Shimmer "
                "fixtures and a generated ledger, run example queries");
    demo->add_option("--dir", common.dir, "Embedded cluster directory");
    demo->add_option("--fixtures", options.fixtures,
                     "Directory of the Shimmer fixtures (default: $PERMANODE_FIXTURES, else "
                     "../shared/fixtures/shimmer next to the sources)");
    demo->add_option("--milestones", options.milestones,
                     "Milestones of the generated ledger (default 2000)");
    demo->callback(
        [&]
        {
            options.dir = common.dir;
            Exit(RunDemo(options));
        });
}

void RegisterInitCommand(CLI::App &app, CommonOptions &common)
{
    static std::string network = "shimmer";
    auto *init =
        app.add_subcommand("init", "Install the extensions in a database and set its network");
    init->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    init->add_option("--dir", common.dir, "Embedded cluster directory");
    init->add_option("--network", network, "shimmer, iota or testnet (default shimmer)")
        ->check(CLI::IsMember({"shimmer", "iota", "testnet", "shimmer-testnet", "iota-testnet"}));
    init->callback(
        [&]
        {
            std::string dsn = StartedDsnFor(common);
            pqxx::connection conn(dsn);
            pqxx::nontransaction tx(conn);
            tx.exec0("CREATE EXTENSION IF NOT EXISTS permanode CASCADE");
            auto hrp = tx.exec_params1("SELECT permanode.init($1)", network)[0].as<std::string>();
            fmt::print("permanode initialized for {} (addresses {}1...) in database {}\n", network,
                       hrp, conn.dbname());
        });
}

void RegisterIngestCommand(CLI::App &app, CommonOptions &common)
{
    static IngestOptions options;
    static bool no_progress = false;
    static bool sync_commit = false;
    auto *ingest = app.add_subcommand(
        "ingest", "Load milestone bundles (client/cli/BUNDLE_FORMAT.md), one transaction per "
                  "milestone; already present milestones are left alone\n\n"
                  "Exit codes: 0 ok, 3 database error, 4 bad input (FILE:LINE on stderr; "
                  "nothing of that milestone is committed), 5 no cluster, 130 interrupted "
                  "(after the milestones in flight)");
    ingest->add_option("FILE", options.input, "Bundle file, or - for stdin")->required();
    ingest->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    ingest->add_option("--dir", common.dir, "Embedded cluster directory");
    ingest->add_flag("--skip-bad", options.skip_bad,
                     "Report bad milestones on stderr (and in --rejects) and go on");
    ingest->add_option("--rejects", options.rejects_path,
                       "Also write rejected lines as NDJSON {file, line, milestone_index, error, "
                       "bundle} to this file");
    ingest
        ->add_option("--pipeline", options.pipeline_depth,
                     "Milestones in flight at once on each connection (default 8)")
        ->check(CLI::Range(1, 256));
    ingest
        ->add_option("--jobs", options.jobs,
                     "Connections ingesting different milestones at once, each its own server "
                     "process; they commit out of file order (default: one per core, 2 to 8)")
        ->check(CLI::Range(1, 64));
    ingest->add_flag("--sync-commit", sync_commit,
                     "Flush each milestone's commit to disk before it counts as ingested "
                     "(slower; by default commits are flushed together, and always before "
                     "ingest exits)");
    ingest->add_flag("--no-progress", no_progress, "No progress line, even on a terminal");
    static bool no_precheck = false;
    ingest->add_flag("--no-precheck", no_precheck,
                     "Leave decoding checks to the server (its errors still name FILE:LINE and "
                     "the block)");
    static bool no_measure = false;
    ingest->add_flag("--no-measure", no_measure,
                     "Leave the milestones' analytics to permanode analytics --fill (by default "
                     "ingest measures what it loaded once the milestones before are measured)");
    ingest->callback(
        [&]
        {
            options.measure = !no_measure;
            options.progress = !no_progress;
            options.synchronous_commit = sync_commit;
            options.precheck = !no_precheck;
            std::string dsn = StartedDsnFor(common);
            IngestSummary summary;
            Exit(Ingest(dsn, options, summary));
        });
}

void RegisterImportDmpCommand(CLI::App &app, CommonOptions &common)
{
    static DmpImportOptions options;
    auto *import = app.add_subcommand(
        "import-dmp",
        "Load legacy (ternary) transactions from IRI's .dmp export (hash,trytes,snapshot_index "
        "lines) into the legacy tables; each hash is computed again and must be the line's; "
        "transactions already held are left alone\n\n"
        "Exit codes: 0 ok, 3 database error, 4 bad input (FILE:LINE on stderr; the batches "
        "before its batch are in), 5 no cluster, 130 interrupted");
    import->add_option("FILE", options.files, ".dmp files in order, or - for stdin")->required();
    import->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    import->add_option("--dir", common.dir, "Embedded cluster directory");
    import->add_option("--snapshot", options.snapshot,
                       "Global snapshot to load first (IRI's Snapshot.txt: ADDRESS;BALANCE lines)");
    import->add_option("--coordinator", options.coordinator,
                       "The Coordinator's address (81 trytes): its bundles are the milestones");
    import
        ->add_option("--layout", options.layout,
                     "Transaction layout: auto (told from each transaction), current "
                     "(November 2017 on) or old (files before snapshot 242662)")
        ->check(CLI::IsMember({"auto", "current", "old"}));
    import->add_option("--batch", options.batch_size, "Transactions per batch (default 1000)")
        ->check(CLI::Range(1, 100000));
    import
        ->add_option("--jobs", options.jobs,
                     "Connections importing batches at once (default 2); with more than one, "
                     "batches after a bad line that were already sent may be in too")
        ->check(CLI::Range(1, 64));
    import->callback(
        [&]
        {
            InstallInterruptHandlers();
    Exit(ImportDmpFiles(StartedDsnFor(common), options));
});
} // namespace permanode::cli

void RegisterImportChronicleCommand(CLI::App &app)
{
    static std::string input, output;
    static std::int64_t timestamp = -1;
    static bool node_fields = false;
    auto *import = app.add_subcommand(
        "import-chronicle",
        "Convert inx-chronicle test data (MongoDB extended JSON) into milestone bundles");
    import->add_option("FILE", input, "in_memory_data.json or blocks_ms_*.json")->required();
    import->add_option("-o,--output", output, "Bundle file to write (default: stdout)");
    import
        ->add_option("--milestone-timestamp", timestamp,
                     "Unix time of milestones whose own payload is not among the blocks "
                     "(default: that of the latest milestone payload among them)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{UINT32_MAX}));
    import->add_flag("--node-fields", node_fields,
                     "Also write what the node recorded of each milestone (in_memory_data.json "
                     "only: milestone_id, milestone, protocol_parameters, created, consumed; see "
                     "BUNDLE_FORMAT.md), for a test INX node; ingest ignores them");
    import->callback(
        [&]
        {
            ImportOptions options;
    if (timestamp >= 0)
        options.milestone_timestamp = static_cast<std::uint32_t>(timestamp);
    options.node_fields = node_fields;
    std::vector<ChronicleMilestone> milestones;
    try
    {
        milestones = ImportChronicleMilestones(input, options);
    }
    catch (const ImportError &e)
    {
        fmt::print(stderr, "{}: {}\n", input, e.what());
        Exit(kBadInput);
    }
    std::ofstream file;
    if (!output.empty())
    {
        file.open(output, std::ios::trunc);
        if (!file)
            throw std::runtime_error("cannot write " + output);
    }
    std::ostream &out = output.empty() ? std::cout : file;
    std::size_t blocks = 0, with_node_fields = 0;
    for (const ChronicleMilestone &milestone : milestones)
    {
        std::string line = FormatBundle(milestone.bundle);
        if (milestone.node_fields)
        {
            line = WithNodeFields(std::move(line), *milestone.node_fields);
            with_node_fields++;
        }
        out << line << '\n';
        blocks += milestone.bundle.blocks.size();
    }
    out.flush();
    if (!out)
        throw std::runtime_error("cannot write " + (output.empty() ? "stdout" : output));
    fmt::print(stderr, "{} milestones, {} blocks\n", milestones.size(), blocks);
    if (node_fields && with_node_fields < milestones.size())
        fmt::print(stderr, "node fields on {} of them (the blocks form has none)\n",
                   with_node_fields);
});
} // namespace permanode::cli

void RegisterGenerateCommand(CLI::App &app)
{
    static GeneratorOptions options;
    static std::string output, snapshot, protocol = "stardust", blocks_per_milestone = "40-90",
                                         outputs_per_transaction = "1-3";
    static bool node_fields = false;
    static std::string migration_tails, end_model, carry;
    static std::uint64_t chrysalis_addresses_seed = 0;
    auto *generate = app.add_subcommand(
        "generate",
        "Write a synthetic Stardust ledger (or, with --protocol chrysalis, a Chrysalis one) as "
        "milestone bundles (deterministic for a seed; signatures, public keys and merkle proofs "
        "are random bytes and not verified), or with --protocol legacy a ternary ledger as IRI's "
        ".dmp export (hash,trytes,snapshot_index lines; value bundles validly signed, milestone "
        "signatures and proof of work not real)");
    generate
        ->add_option("--protocol", protocol,
                     "stardust (blocks, protocol 2), chrysalis (messages, protocol 1: "
                     "mainnet's network ID, indexation spam, value transactions with dust "
                     "allowances, receipts) or legacy (ternary transactions, current layout: "
                     "signed value bundles, zero-value spam, Coordinator milestone bundles); "
                     "default stardust")
        ->check(CLI::IsMember({"stardust", "chrysalis", "legacy"}));
    generate->add_option("--milestones", options.milestones, "Milestones to write (default 100)");
    generate
        ->add_option("--start-index", options.start_index,
                     "Index of the first (genesis) milestone (default 1)")
        ->check(CLI::Range(0u, static_cast<unsigned>(INT32_MAX)));
    generate->add_option("--start-timestamp", options.start_timestamp,
                         "Unix time of the first milestone (default 2023-01-01, then every 5 s; "
                         "Chrysalis: 2021-05-01, then every 10 s; legacy: 2019-06-01, then "
                         "every 60 s, not before 2017-11-01)");
    generate->add_option("--blocks-per-milestone", blocks_per_milestone,
                         "MIN-MAX blocks (messages, legacy: transactions besides the milestone "
                         "bundle) in each milestone's cone (default 40-90; Chrysalis: 150-350; "
                         "legacy: 20-50)");
    generate->add_option("--outputs-per-transaction", outputs_per_transaction,
                         "MIN-MAX new outputs a transaction creates besides the chained alias, "
                         "NFT and token outputs (Chrysalis: besides a micro payment or a dust "
                         "allowance; legacy: outputs of a value bundle besides its remainder, "
                         "1-2; default 1-3)");
    generate
        ->add_option("--tx-share", options.transaction_share,
                     "Share of blocks carrying a transaction (default 0.15; Chrysalis: 0.05; "
                     "legacy: share of bundles moving value, 0.1)")
        ->check(CLI::Range(0.0, 1.0));
    generate
        ->add_option("--genesis-addresses", options.genesis_addresses,
                     "Addresses the genesis snapshot funds (default 200; legacy: 40)")
        ->check(CLI::Range(1u, 100000u));
    generate->add_option("--snapshot", snapshot,
                         "legacy: also write the genesis snapshot to this file, as IRI's "
                         "Snapshot.txt (ADDRESS;BALANCE lines summing to the supply)");
    generate->add_option("--seed", options.seed, "Random seed (default 1)");
    generate->add_flag("--node-fields", node_fields,
                       "stardust: also write what a node knows of each milestone (milestone_id, "
                       "milestone, protocol_parameters, created, consumed; see BUNDLE_FORMAT.md), "
                       "for a test INX node; ingest ignores them");
    generate->add_option("--migration-tails", migration_tails,
                         "chrysalis: a file of legacy transaction hashes (81 trytes a line) that "
                         "the receipts name first, in order, as the migration's named the legacy "
                         "bundles they migrated");
    generate->add_option("--end-model", end_model,
                         "chrysalis: also write the outputs unspent at the end to this file "
                         "(OUTPUT_ID OWNER_HASH AMOUNT lines), for --carry");
    generate->add_option("--carry", carry,
                         "stardust: continue a Chrysalis ledger as IOTA's upgrade did: the "
                         "genesis books the outputs of this --end-model file again, under their "
                         "IDs");
    generate->add_option("--chrysalis-addresses-seed", chrysalis_addresses_seed,
                         "stardust: draw addresses from those of the Chrysalis ledger generated "
                         "with this seed");
    generate->add_option("-o,--output", output,
                         "Bundle file (legacy: .dmp file) to write (default: stdout)");
    generate->callback(
        [generate]
        {
            if ((!migration_tails.empty() || !end_model.empty()) && protocol != "chrysalis")
                throw CLI::ValidationError("--migration-tails/--end-model",
                                           "only with --protocol chrysalis");
            if ((!carry.empty() || generate->count("--chrysalis-addresses-seed")) &&
                protocol != "stardust")
                throw CLI::ValidationError("--carry/--chrysalis-addresses-seed",
                                           "only with --protocol stardust");
            try
            {
                if (!migration_tails.empty())
                    options.migration_tails = ReadMigrationTails(migration_tails);
                if (!carry.empty())
                    options.carried = ReadModel(carry);
            }
            catch (const EraFileError &e)
            {
                fmt::print(stderr, "{}\n", e.what());
                Exit(kBadInput);
            }
            if (generate->count("--chrysalis-addresses-seed"))
                options.chrysalis_addresses_seed = chrysalis_addresses_seed;
            bool chrysalis = protocol == "chrysalis", legacy = protocol == "legacy";
            if (chrysalis || legacy)
            {
                // The protocol's defaults for what the command line leaves out.
                GeneratorOptions defaults =
                    chrysalis ? ChrysalisGeneratorDefaults() : LegacyGeneratorDefaults();
                if (generate->count("--start-timestamp") == 0)
                    options.start_timestamp = defaults.start_timestamp;
                if (generate->count("--blocks-per-milestone") == 0)
                    blocks_per_milestone =
                        fmt::format("{}-{}", defaults.min_blocks, defaults.max_blocks);
                if (generate->count("--tx-share") == 0)
                    options.transaction_share = defaults.transaction_share;
                if (legacy && generate->count("--outputs-per-transaction") == 0)
                    outputs_per_transaction = fmt::format("{}-{}", defaults.min_fresh_outputs,
                                                          defaults.max_fresh_outputs);
                if (legacy && generate->count("--genesis-addresses") == 0)
                    options.genesis_addresses = defaults.genesis_addresses;
            }
            if (!snapshot.empty() && !legacy)
                throw CLI::ValidationError("--snapshot", "only with --protocol legacy");
            if (node_fields && (chrysalis || legacy))
                throw CLI::ValidationError("--node-fields", "only with --protocol stardust");
            if (legacy && options.start_timestamp < LegacyEarliestStart())
                throw CLI::ValidationError(
                    "--start-timestamp",
                    "the legacy generator writes the current layout, used from 2017-11-01 "
                    "(1509494400) on");
            std::tie(options.min_blocks, options.max_blocks) =
                ParseMinMax("--blocks-per-milestone", blocks_per_milestone, 1, 10000);
            std::tie(options.min_fresh_outputs, options.max_fresh_outputs) =
                ParseMinMax("--outputs-per-transaction", outputs_per_transaction, 1, 100);

            std::ofstream file;
            if (!output.empty())
            {
                file.open(output, std::ios::trunc);
                if (!file)
                    throw std::runtime_error("cannot write " + output);
            }
            std::ostream &out = output.empty() ? std::cout : file;
            InstallInterruptHandlers();
            Progress progress("generate", options.milestones, Progress::StderrIsTerminal());
            std::unique_ptr<LedgerGenerator> stardust;
            std::unique_ptr<ChrysalisLedgerGenerator> v1;
            std::unique_ptr<LegacyLedgerGenerator> ternary;
            if (chrysalis)
                v1 = std::make_unique<ChrysalisLedgerGenerator>(options);
            else if (legacy)
                ternary = std::make_unique<LegacyLedgerGenerator>(options);
            else
                stardust = std::make_unique<LedgerGenerator>(options);
            if (ternary)
                fmt::print(stderr, "coordinator {}\n", ternary->Coordinator());
            if (ternary && !snapshot.empty())
            {
                std::ofstream snapshot_file(snapshot, std::ios::trunc);
                for (const SnapshotBalance &entry : ternary->Snapshot())
                    snapshot_file << entry.address << ';' << entry.balance << '\n';
                if (!snapshot_file.flush())
                    throw std::runtime_error("cannot write " + snapshot);
            }
            std::uint64_t blocks = 0;
            for (std::uint32_t i = 0; i < options.milestones && !Interrupted(); ++i)
            {
                if (ternary)
                {
                    for (const DmpLine &line : ternary->Next())
                    {
                        out << FormatDmpLine(line) << '\n';
                        blocks++;
                    }
                }
                else if (node_fields)
                {
                    NodeFields fields;
                    MilestoneBundle bundle = stardust->Next(&fields);
                    blocks += bundle.blocks.size();
                    out << WithNodeFields(FormatBundle(bundle), fields) << '\n';
                }
                else
                {
                    MilestoneBundle bundle = chrysalis ? v1->Next() : stardust->Next();
                    blocks += bundle.blocks.size();
                    out << FormatBundle(bundle) << '\n';
                }
                progress.Update(i + 1, i + 1, blocks);
            }
            progress.Finish();
            out.flush();
            if (!out)
                throw std::runtime_error("cannot write " + (output.empty() ? "stdout" : output));
            if (Interrupted())
                Exit(kInterrupted);
            if (v1 && !end_model.empty())
                WriteModel(v1->Model(), end_model);
        });
}

} // namespace permanode::cli
