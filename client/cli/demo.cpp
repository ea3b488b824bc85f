// The demo: load real and generated milestones, then query them.
#include "demo.hpp"

#include "archive.hpp"
#include "bundle.hpp"
#include "bundle_check.hpp"
#include "chronicle_import.hpp"
#include "chrysalis_fixtures.hpp"
#include "chrysalis_generator.hpp"
#include "commands.hpp"
#include "embedded_cluster.hpp"
#include "generator.hpp"
#include "ingest.hpp"
#include "legacy_fixtures.hpp"
#include "legacy_generator.hpp"
#include "legacy_import.hpp"
#include "print_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <pqxx/pqxx>

namespace fs = std::filesystem;

namespace permanode::cli
{
namespace
{

// The generated ledger follows the real one at a distance, so the sync table shows both the
// ranges and the gaps between them.
constexpr std::uint32_t kGeneratedStart = 3'000'000;
constexpr std::uint32_t kGeneratedTimestamp = 1'700'000'000; // 2023-11-14
constexpr std::uint64_t kGeneratedSeed = 42;
constexpr int kDemoChunkSize = 1000;

void WriteBundles(const std::vector<MilestoneBundle> &bundles, const fs::path &path)
{
    std::ofstream out(path, std::ios::trunc);
    for (const MilestoneBundle &bundle : bundles)
        out << FormatBundle(bundle) << '\n';
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

// The generated Chrysalis ledger comes first, before the real Chrysalis milestones (16241-16242)
// and the Stardust ones: from milestone 1000, in March 2021, 40-90 messages per milestone (a
// lighter mix than the generator's default, to keep the demo short).
constexpr std::uint32_t kChrysalisStart = 1000;
constexpr std::uint32_t kChrysalisTimestamp = 1'617'000'000; // 2021-03-29
constexpr std::uint32_t kChrysalisMilestones = 1000;

// The generators' revision: a file written by an earlier one is not reused (2: every block
// references the one before it, so cones are in TIP-2's white-flag order; 3: the eras continue
// each other: Chrysalis receipts name legacy bundles, Stardust carries Chrysalis's outputs).
constexpr int kGeneratorRevision = 3;

// Writes a generated ledger once; later runs reuse the file.
template <typename Generator>
fs::path GeneratedLedger(const fs::path &work, const std::string &name,
                         const GeneratorOptions &options)
{
    fs::path path = work / fmt::format("generated-{}-{}-{}-{}.ndjson", name, kGeneratorRevision,
                                       options.seed, options.milestones);
    if (fs::exists(path))
        return path;
    fmt::print("generating {} milestones of a synthetic {} ledger ...\n", options.milestones, name);
    std::uint32_t milestones = options.milestones;
    Generator generator(options);
    fs::path partial = path;
    partial += ".partial";
    {
        std::ofstream out(partial, std::ios::trunc);
        for (std::uint32_t i = 0; i < milestones; ++i)
            out << FormatBundle(generator.Next()) << '\n';
        if (!out)
            throw std::runtime_error("cannot write " + partial.string());
    }
    fs::rename(partial, path);
    return path;
}

// The legacy era: a generated ternary ledger from the last hour of June 2019 (so that it spans
// two months, one to be archived), from milestone 100000, then the real fixture transactions
// (2017 to 2021) with their test network's three milestones.
constexpr std::uint32_t kLegacyStart = 100'000;
constexpr std::uint32_t kLegacyTimestamp = 1'561'935'600; // 2019-06-30T23:00:00Z
constexpr std::uint32_t kLegacyMilestones = 120;

void ImportLines(DmpImporter &importer, const std::vector<DmpLine> &lines, const std::string &name)
{
    for (std::size_t i = 0; i < lines.size(); i++)
        importer.Add(lines[i], name, i + 1);
    importer.Finish();
}

void LoadLegacy(const std::string &dsn, const fs::path &work, const fs::path &legacy_fixtures)
{
    GeneratorOptions options = LegacyGeneratorDefaults();
    options.milestones = kLegacyMilestones;
    options.start_index = kLegacyStart;
    options.start_timestamp = kLegacyTimestamp;
    options.seed = kGeneratedSeed;
    LegacyLedgerGenerator generator(options);
    fs::path dmp =
        work / fmt::format("generated-legacy-{}-{}.dmp", options.seed, options.milestones);
    std::vector<DmpLine> lines;
    if (fs::exists(dmp))
    {
        std::ifstream in(dmp);
        for (std::string text; std::getline(in, text);)
            lines.push_back(ParseDmpLine(text));
    }
    else
    {
        fmt::print("generating {} milestones of a synthetic legacy ledger ...\n",
                   options.milestones);
        for (std::uint32_t i = 0; i < options.milestones; ++i)
            for (DmpLine &line : generator.Next())
                lines.push_back(std::move(line));
        std::ofstream out(dmp, std::ios::trunc);
        for (const DmpLine &line : lines)
            out << FormatDmpLine(line) << '\n';
        if (!out)
            throw std::runtime_error("cannot write " + dmp.string());
    }
    std::vector<SnapshotEntry> snapshot;
    for (const SnapshotBalance &entry : generator.Snapshot())
        snapshot.push_back({entry.address, entry.balance});

    fmt::print("$ permanode import-dmp --coordinator {} (the legacy fixtures as .dmp lines)\n",
               kFixtureCoordinator);
    DmpImporter fixtures(dsn, "auto", 1000);
    fixtures.SetCoordinator(kFixtureCoordinator);
    ImportLines(fixtures, LegacyFixtureLines(legacy_fixtures.string()), "legacy fixtures");
    fmt::print("{} lines, {} new transactions, {} days rolled up\n", fixtures.Lines(),
               fixtures.Imported(), fixtures.DaysRolledUp());
    fmt::print("$ permanode import-dmp {} --snapshot (its genesis) --coordinator {}\n",
               dmp.filename().string(), generator.Coordinator());
    DmpImporter generated(dsn, "auto", 1000, 2);
    generated.SetCoordinator(generator.Coordinator());
    generated.LoadSnapshot(snapshot);
    ImportLines(generated, lines, dmp.string());
    fmt::print("{} lines, {} new transactions, {} days rolled up\n", generated.Lines(),
               generated.Imported(), generated.DaysRolledUp());
}

// Archives the legacy months before July 2019: the older fixtures and the generated ledger's
// June; its July and the newer fixtures stay hot.
void ArchiveOldMonths(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    fmt::print("\n$ psql -c \"SELECT * FROM legacy.archive(0, legacy.month_id(2019, 7))\"\n");
    PrintTable(tx.exec("SELECT table_name, count(*) AS archives, sum(rows) AS rows "
                       "FROM legacy.archive(0, legacy.month_id(2019, 7)) GROUP BY 1 ORDER BY 1"));
    tx.commit();
}

void Load(const std::string &dsn, const fs::path &path)
{
    fmt::print("$ permanode ingest {}\n", path.filename().string());
    IngestOptions options;
    options.input = path.string();
    IngestSummary summary;
    int rc = Ingest(dsn, options, summary);
    if (rc != kOk)
        throw CLI::RuntimeError(rc);
}

// Runs a query and prints it as an aligned table.
void Show(pqxx::work &tx, const std::string &title, const std::string &sql)
{
    fmt::print("\n-- {}\n{}\n", title, sql);
    PrintTable(tx.exec(sql));
}

// Chunks of 1000 milestones instead of 10000, so that the demo's few thousand milestones fill
// several ranges, some cold and some hot. Only in a new database (chunk sizes are fixed once a
// table holds rows).
void ChooseChunkSizes(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    if (tx.exec1("SELECT EXISTS (SELECT 1 FROM permanode.sync)")[0].as<bool>())
        return;
    fmt::print("$ psql -c \"SELECT permanode.set_chunk_size(table_name, {0}) FROM "
               "permanode.ledger_tables\"\n",
               kDemoChunkSize);
    tx.exec_params("SELECT permanode.set_chunk_size(table_name, $1) FROM permanode.ledger_tables",
                   kDemoChunkSize);
    tx.commit();
}

// Archives every range below the one of the newest milestone: the fixtures' ranges and the
// older half of the generated ledger. A second run finds nothing hot left to archive there.
void ArchiveOldRanges(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    int newest_range = 0;
    {
        pqxx::read_transaction tx(conn);
        newest_range = tx.exec1("SELECT permanode.ms_range_id('messages', max(milestone_index)) "
                                "FROM permanode.sync")[0]
                           .as<int>();
    }
    fmt::print("\n$ permanode archive --from-range 0 --to-range {}\n", newest_range);
    ArchiveRanges(conn, 0, newest_range);
    fmt::print("\n$ permanode status\n");
    PrintLedgerStatus(conn);
}

void ExampleQueries(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    Show(tx, "rows per table, counted over every range, hot and cold",
         "SELECT t AS table_name, n AS rows FROM (VALUES "
         "('messages', (SELECT count(*) FROM messages)), "
         "('transactions', (SELECT count(*) FROM transactions)), "
         "('milestones', (SELECT count(*) FROM milestones)), "
         "('basic_outputs', (SELECT count(*) FROM basic_outputs)), "
         "('alias_outputs', (SELECT count(*) FROM alias_outputs)), "
         "('foundry_outputs', (SELECT count(*) FROM foundry_outputs)), "
         "('nft_outputs', (SELECT count(*) FROM nft_outputs)), "
         "('legacy_outputs', (SELECT count(*) FROM legacy_outputs)), "
         "('spent_outputs', (SELECT count(*) FROM spent_outputs)), "
         "('unspent_outputs', (SELECT count(*) FROM unspent_outputs)), "
         "('tags', (SELECT count(*) FROM tags)), "
         "('parents', (SELECT count(*) FROM parents)), "
         "('sync', (SELECT count(*) FROM sync))) AS v(t, n)");

    // An address of the generated ledger with outputs in several ranges: its lookup reads
    // archived ranges through RocksDB and hot ones through their indexes, in one query.
    pqxx::result spread = tx.exec(
        "SELECT address FROM basic_outputs WHERE milestone_index >= 3000000 AND address IS NOT "
        "NULL GROUP BY address ORDER BY count(DISTINCT ms_range_id) DESC, count(*) DESC, "
        "address LIMIT 1");
    if (!spread.empty())
    {
        std::string address = tx.quote(std::string(spread[0][0].c_str()));
        Show(tx,
             "an address's outputs per range, from both tiers (lookup basic_outputs_by_address)",
             "SELECT b.ms_range_id, s.tier, count(*) AS outputs, sum(b.amount) AS amount "
             "FROM basic_outputs_by_address b JOIN status s ON s.table_name = 'basic_outputs' "
             "AND b.ms_range_id >= s.from_range AND b.ms_range_id < s.to_range "
             "WHERE b.address = " +
                 address + " GROUP BY 1, 2 ORDER BY 1");
        Show(tx, "the same address's outputs, newest first",
             "SELECT output_id, milestone_index, ms_timestamp, amount FROM "
             "basic_outputs_by_address WHERE address = " +
                 address + " ORDER BY ms_range_id DESC, ms_timestamp DESC LIMIT 5");
        Show(tx,
             "its balance as of the first, a middle and the newest generated milestone "
             "(balance_at: the unspent set and the retired outputs alive then)",
             "SELECT m AS milestone_index, b.output_kind, b.balance, b.outputs FROM (SELECT "
             "unnest(ARRAY[min(milestone_index), (min(milestone_index) + max(milestone_index)) "
             "/ 2, max(milestone_index)]) m FROM sync WHERE milestone_index >= 3000000) s "
             "CROSS JOIN LATERAL balance_at(" +
                 address + ", m) b ORDER BY 1, 2");
    }
    pqxx::result some_output =
        tx.exec("SELECT output_id FROM basic_outputs WHERE milestone_index = 17340 "
                "ORDER BY output_id LIMIT 1");
    if (!some_output.empty())
        Show(tx, "a point lookup by output ID in an archived range (the locator names its range)",
             "SELECT output_id, milestone_index, address, amount, tag FROM basic_outputs "
             "WHERE output_id = " +
                 tx.quote(std::string(some_output[0][0].c_str())));
    // Both eras in one schema: the same tables, lookups and tiers answer for each.
    Show(tx, "messages per era and tier (Chrysalis messages are version 1, Stardust blocks 2)",
         "SELECT m.version, s.tier, count(*) AS messages, count(DISTINCT m.milestone_index) AS "
         "milestones FROM messages m JOIN status s ON s.table_name = 'messages' "
         "AND m.ms_range_id >= s.from_range AND m.ms_range_id < coalesce(s.to_range, "
         "s.from_range + 1) GROUP BY 1, 2 ORDER BY 1, 2");
    Show(tx, "a tag used in both eras (a Chrysalis indexation key, a Stardust tag)",
         "SELECT m.version, count(*) AS messages, min(t.milestone_index) AS first_milestone, "
         "max(t.milestone_index) AS last_milestone FROM tags t JOIN messages m "
         "USING (message_id) WHERE t.tag = convert_to('HORNET Spammer', 'UTF8') GROUP BY 1 "
         "ORDER BY 1");
    pqxx::result legacy =
        tx.exec("SELECT address FROM legacy_outputs WHERE milestone_index < 16000 GROUP BY address "
                "ORDER BY count(DISTINCT ms_range_id) DESC, count(*) DESC, address LIMIT 1");
    if (!legacy.empty())
        Show(tx,
             "a Chrysalis address's outputs: created (is_used f) and spent (t) rows per range "
             "and tier (lookup legacy_outputs_by_address)",
             "SELECT l.ms_range_id, s.tier, l.is_used, count(*) AS outputs, sum(l.amount) AS "
             "amount FROM legacy_outputs_by_address l JOIN status s ON s.table_name = "
             "'legacy_outputs' AND l.ms_range_id >= s.from_range AND l.ms_range_id < s.to_range "
             "WHERE l.address = " +
                 tx.quote(std::string(legacy[0][0].c_str())) + " GROUP BY 1, 2, 3 ORDER BY 1, 3");
    Show(tx, "activity per day across both eras (ms_analytics, hot and cold)",
         "SELECT d.date, p.protocol_version, count(*) AS milestones, sum(a.message_count) AS "
         "messages, sum(a.transaction_count) AS transactions, sum(a.transferred_tokens) AS "
         "tokens FROM ms_analytics a JOIN milestone_protocols p USING (milestone_index) "
         "JOIN date_cache d ON a.milestone_index BETWEEN d.start_ms AND d.end_ms "
         "GROUP BY 1, 2 ORDER BY 1");
    Show(tx, "the legacy era: transactions per month and tier (legacy.status)",
         "SELECT legacy.month_name(from_month) AS from_month, "
         "legacy.month_name(to_month - 1) AS to_month, tier, rows "
         "FROM legacy.status WHERE table_name = 'legacy.transactions'::regclass ORDER BY 1");
    Show(tx,
         "all three eras, month by month: legacy transactions, Chrysalis messages, Stardust "
         "blocks, and the tokens they moved",
         "SELECT legacy.month_name(month_id) AS month, 'legacy' AS era, "
         "count(*) AS transactions_or_messages, sum(value) FILTER (WHERE value > 0) AS tokens "
         "FROM legacy.transactions GROUP BY 1 UNION ALL "
         "SELECT to_char(d.date, 'YYYY-MM'), CASE p.protocol_version WHEN 1 THEN 'chrysalis' "
         "ELSE 'stardust' END, sum(a.message_count), sum(a.transferred_tokens) "
         "FROM ms_analytics a JOIN milestone_protocols p USING (milestone_index) "
         "JOIN date_cache d ON a.milestone_index BETWEEN d.start_ms AND d.end_ms "
         "GROUP BY 1, 2 ORDER BY 1, 2");
    pqxx::result busiest = tx.exec(
        "SELECT address FROM legacy.edges WHERE address IS NOT NULL AND milestone_index >= " +
        std::to_string(kLegacyStart) +
        " GROUP BY address ORDER BY count(DISTINCT month_id) DESC, count(*) DESC, address LIMIT 1");
    if (!busiest.empty())
    {
        std::string address = tx.quote(std::string(busiest[0][0].c_str()));
        Show(tx,
             "a legacy address's value moves, newest first, over a hot and an archived month "
             "(legacy.edges by address: the hints name its months)",
             "SELECT e.issued_at, e.value, e.milestone_index, e.bundle_hash, s.tier "
             "FROM legacy.edges e JOIN legacy.status s ON s.table_name = 'legacy.edges'::regclass "
             "AND e.month_id >= s.from_month AND e.month_id < s.to_month WHERE e.address = " +
                 address +
                 " ORDER BY e.month_id DESC, e.issued_at DESC, e.transaction_hash DESC "
                 "LIMIT 6");
        Show(tx, "its balance at three milestones (snapshot plus confirmed moves)",
             fmt::format("SELECT m AS milestone_index, legacy.balance({}, m) AS balance FROM "
                         "unnest(ARRAY[{}, {}, {}]) m",
                         address, kLegacyStart, kLegacyStart + kLegacyMilestones / 2,
                         kLegacyStart + kLegacyMilestones - 1));
    }
    Show(tx, "a real bundle from an archived month (2019-05), in index order",
         "SELECT current_index, label, value, transaction_hash FROM legacy.bundles "
         "WHERE bundle_hash = 'BJVQHAHPDFGNEELCFLIEXWWKZXLPUZQMDXFGKKOGPDEGJDALESJZFVKIIRJSGKXDN"
         "WJOQBRIUEBTGACG9' ORDER BY month_id, current_index, transaction_hash");
    Show(tx, "real bundles held incomplete, and the indexes they miss",
         "SELECT bundle_hash, last_index, missing FROM legacy.incomplete_bundles "
         "ORDER BY bundle_hash LIMIT 5");
    Show(tx,
         "verification of the generated Stardust ranges, one archived and one hot: block IDs "
         "hashed again, each milestone derived again from its stored cone and compared, "
         "Merkle roots checked (permanode verify does every range)",
         fmt::format("SELECT r AS ms_range_id, (SELECT count(*) FROM verify(r, r + 1)) AS "
                     "mismatches FROM generate_series((SELECT max(milestone_index) FROM sync) / "
                     "{0} - 1, (SELECT max(milestone_index) FROM sync) / {0}) r",
                     kDemoChunkSize));
    Show(tx, "ingested ranges and the gaps between them",
         "SELECT 'synced' AS kind, * FROM sync_ranges() UNION ALL "
         "SELECT 'gap', * FROM sync_gaps() ORDER BY 2");
}

} // namespace

std::string FixturesDirectory(const std::string &option)
{
    if (!option.empty())
        return option;
    if (const char *env = std::getenv("PERMANODE_FIXTURES"); env && *env)
        return env;
    return (fs::path(PERMANODE_SOURCE_DIR) / ".." / "shared" / "fixtures" / "shimmer")
        .lexically_normal()
        .string();
}

// The tail transactions of the legacy value bundles held (t5b1 bytes), for the Chrysalis
// receipts to name as the migration's did: each funds an Ed25519 address from a legacy one.
std::vector<std::array<std::uint8_t, 49>> LegacyTails(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::read_transaction tx(conn);
    std::vector<std::array<std::uint8_t, 49>> tails;
    for (const auto &row :
         tx.exec("SELECT permanode.trytes81_send(b.transaction_hash) FROM legacy.bundles b "
                 "WHERE b.current_index = 0 AND EXISTS (SELECT 1 FROM legacy.bundles i "
                 "WHERE i.bundle_hash = b.bundle_hash AND i.value < 0) "
                 "ORDER BY b.issued_at, b.transaction_hash LIMIT 500"))
    {
        pqxx::binarystring bytes(row[0]);
        std::array<std::uint8_t, 49> tail{};
        std::copy_n(bytes.data(), std::min(bytes.size(), tail.size()), tail.begin());
        tails.push_back(tail);
    }
    return tails;
}

// What a Chrysalis ledger leaves unspent at its end, for the Stardust genesis to carry.
std::vector<ModelOutput> ChrysalisEnd(const GeneratorOptions &options)
{
    ChrysalisLedgerGenerator generator(options);
    for (std::uint32_t i = 0; i < options.milestones; ++i)
        (void)generator.Next();
    return generator.Model();
}

int RunDemo(const DemoOptions &options)
{
    EmbeddedCluster cluster(options.dir.empty() ? EmbeddedCluster::DefaultRoot()
                                                : fs::path(options.dir));
    cluster.Start(false);
    std::string dsn = cluster.Dsn();
    fmt::print("embedded cluster running: {}\n", dsn);

    fs::path work = cluster.Root() / "demo";
    fs::create_directories(work);
    fs::path fixtures = FixturesDirectory(options.fixtures);
    ChooseChunkSizes(dsn);
    for (const char *name : {"in_memory_data.json", "blocks_ms_2418187.json"})
    {
        fs::path source = fixtures / name;
        if (!fs::exists(source))
        {
            fmt::print(stderr,
                       "permanode: no fixture {} (give --fixtures DIR or set PERMANODE_FIXTURES)\n",
                       source.string());
            return kEnvironment;
        }
        fs::path bundles = work / (fs::path(name).stem().string() + ".ndjson");
        fmt::print("$ permanode import-chronicle {} -o {}\n", source.string(), bundles.string());
        WriteBundles(ImportChronicle(source.string(), {}), bundles);
        Load(dsn, bundles);
    }
    // The legacy era first: the Chrysalis receipts name its bundles (it lives in its own schema).
    fs::path shimmer = fixtures.lexically_normal();
    if (!shimmer.has_filename()) // given with a trailing slash
        shimmer = shimmer.parent_path();
    fs::path legacy_fixtures = shimmer.parent_path() / "legacy";
    if (!fs::exists(legacy_fixtures))
    {
        fmt::print(stderr, "permanode: no fixture directory {}\n", legacy_fixtures.string());
        return kEnvironment;
    }
    LoadLegacy(dsn, work, legacy_fixtures);
    // The Chrysalis era: a generated ledger whose receipts migrate the legacy bundles' funds, then
    // the real messages as the two testnet7 milestones they form, before the Stardust milestones
    // (one network's eras do not overlap).
    GeneratorOptions chrysalis_options = ChrysalisGeneratorDefaults();
    chrysalis_options.milestones = kChrysalisMilestones;
    chrysalis_options.start_index = kChrysalisStart;
    chrysalis_options.start_timestamp = kChrysalisTimestamp;
    chrysalis_options.min_blocks = 40;
    chrysalis_options.max_blocks = 90;
    chrysalis_options.transaction_share = 0.2;
    chrysalis_options.seed = kGeneratedSeed;
    chrysalis_options.migration_tails = LegacyTails(dsn);
    Load(dsn, GeneratedLedger<ChrysalisLedgerGenerator>(work, "chrysalis", chrysalis_options));
    fs::path chrysalis = shimmer.parent_path() / "chrysalis" / "chrysalis_messages.json";
    if (!fs::exists(chrysalis))
    {
        fmt::print(stderr, "permanode: no fixture {}\n", chrysalis.string());
        return kEnvironment;
    }
    fs::path chrysalis_bundles = work / "chrysalis-testnet7.ndjson";
    fmt::print("$ (the Chrysalis fixture messages as milestone bundles) > {}\n",
               chrysalis_bundles.string());
    std::vector<MilestoneBundle> testnet7 = ChrysalisFixtureBundles(chrysalis.string());
    for (const MilestoneBundle &bundle : testnet7)
        if (bundle.partial_cone)
            fmt::print("  milestone {}: a partial cone ({} message{} recorded), labelled "
                       "\"partial_cone\": {}\n",
                       bundle.milestone_index, bundle.blocks.size(),
                       bundle.blocks.size() == 1 ? "" : "s", MerkleProblem(bundle).value_or(""));
    WriteBundles(testnet7, chrysalis_bundles);
    Load(dsn, chrysalis_bundles);
    // The Stardust era continues the generated Chrysalis one, as IOTA's upgrade did: its genesis
    // books the Chrysalis outputs unspent at the end again, under their IDs, and the same
    // addresses go on transacting.
    GeneratorOptions stardust_options;
    stardust_options.milestones = options.milestones;
    stardust_options.start_index = kGeneratedStart;
    stardust_options.start_timestamp = kGeneratedTimestamp;
    stardust_options.seed = kGeneratedSeed;
    stardust_options.carried = ChrysalisEnd(chrysalis_options);
    stardust_options.chrysalis_addresses_seed = chrysalis_options.seed;
    Load(dsn, GeneratedLedger<LedgerGenerator>(work, "stardust", stardust_options));
    ArchiveOldRanges(dsn);
    ArchiveOldMonths(dsn);
    ExampleQueries(dsn);
    return kOk;
}

} // namespace permanode::cli
