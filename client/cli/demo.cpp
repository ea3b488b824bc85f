// The demo: load real and generated milestones, then query them.
#include "demo.hpp"

#include "bundle.hpp"
#include "chronicle_import.hpp"
#include "commands.hpp"
#include "embedded_cluster.hpp"
#include "generator.hpp"
#include "ingest.hpp"

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

void WriteBundles(const std::vector<MilestoneBundle> &bundles, const fs::path &path)
{
    std::ofstream out(path, std::ios::trunc);
    for (const MilestoneBundle &bundle : bundles)
        out << FormatBundle(bundle) << '\n';
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

// Writes the generated ledger once; later runs reuse the file.
fs::path GeneratedLedger(const fs::path &work, std::uint32_t milestones)
{
    fs::path path = work / fmt::format("generated-{}-{}.ndjson", kGeneratedSeed, milestones);
    if (fs::exists(path))
        return path;
    fmt::print("generating {} milestones of a synthetic ledger ...\n", milestones);
    GeneratorOptions options;
    options.milestones = milestones;
    options.start_index = kGeneratedStart;
    options.start_timestamp = kGeneratedTimestamp;
    options.seed = kGeneratedSeed;
    LedgerGenerator generator(options);
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
    pqxx::result rows = tx.exec(sql);
    std::vector<std::size_t> widths(rows.columns());
    for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
        widths[c] = std::string(rows.column_name(c)).size();
    for (const auto &row : rows)
        for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
            widths[c] = std::max(widths[c], std::string(row[c].c_str()).size());
    auto line = [&](auto cell)
    {
        std::string text;
        for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
            text += fmt::format("{}{:<{}}", c ? " | " : " ", cell(c), widths[c]);
        fmt::print("{}\n", text);
    };
    line([&](pqxx::row::size_type c) { return std::string(rows.column_name(c)); });
    std::size_t total = 0;
    for (std::size_t width : widths)
        total += width + 3;
    fmt::print("{}\n", std::string(total, '-'));
    for (const auto &row : rows)
        line([&](pqxx::row::size_type c) { return std::string(row[c].c_str()); });
    fmt::print("({} rows)\n", rows.size());
}

void ExampleQueries(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    Show(tx, "rows per table",
         "SELECT t AS table_name, n AS rows FROM (VALUES "
         "('messages', (SELECT count(*) FROM messages)), "
         "('transactions', (SELECT count(*) FROM transactions)), "
         "('milestones', (SELECT count(*) FROM milestones)), "
         "('basic_outputs', (SELECT count(*) FROM basic_outputs)), "
         "('alias_outputs', (SELECT count(*) FROM alias_outputs)), "
         "('foundry_outputs', (SELECT count(*) FROM foundry_outputs)), "
         "('nft_outputs', (SELECT count(*) FROM nft_outputs)), "
         "('spent_outputs', (SELECT count(*) FROM spent_outputs)), "
         "('unspent_outputs', (SELECT count(*) FROM unspent_outputs)), "
         "('tags', (SELECT count(*) FROM tags)), "
         "('parents', (SELECT count(*) FROM parents)), "
         "('sync', (SELECT count(*) FROM sync))) AS v(t, n)");

    // The busiest address of the real Shimmer data, then its outputs newest first.
    pqxx::result busiest =
        tx.exec("SELECT address FROM basic_outputs WHERE milestone_index < 3000000 "
                "AND address IS NOT NULL GROUP BY address ORDER BY count(*) DESC, address LIMIT 1");
    if (!busiest.empty())
    {
        std::string address = busiest[0][0].c_str();
        Show(tx, "an address's outputs, newest first (lookup basic_outputs_by_address)",
             "SELECT output_id, milestone_index, ms_timestamp, amount FROM "
             "basic_outputs_by_address WHERE address = " +
                 tx.quote(address) + " ORDER BY ms_range_id DESC, ms_timestamp DESC LIMIT 5");
    }
    pqxx::result some_output =
        tx.exec("SELECT output_id FROM basic_outputs WHERE milestone_index = 17340 "
                "ORDER BY output_id LIMIT 1");
    if (!some_output.empty())
        Show(tx, "a point lookup by output ID (the locator names its one partition)",
             "SELECT output_id, milestone_index, address, amount, tag FROM basic_outputs "
             "WHERE output_id = " +
                 tx.quote(std::string(some_output[0][0].c_str())));
    Show(tx, "ingested ranges and the gaps between them",
         "SELECT 'synced' AS kind, * FROM sync_ranges() UNION ALL "
         "SELECT 'gap', * FROM sync_gaps() ORDER BY 2");
    // Hook for the cold tier: once `permanode archive` exists, the demo archives the oldest
    // range here and repeats the lookups above to show that they answer from RocksDB.
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
    Load(dsn, GeneratedLedger(work, options.milestones));
    ExampleQueries(dsn);
    return kOk;
}

} // namespace permanode::cli
