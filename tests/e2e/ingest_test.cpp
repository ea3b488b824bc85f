// `permanode import-chronicle`, `generate` and `ingest` against the test cluster: real fixtures
// in, counts and lookups out; re-ingest changes nothing; bad lines stop the ingest at FILE:LINE
// with nothing of their milestone committed, or are skipped with --skip-bad.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "run_cli.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

namespace fs = std::filesystem;

namespace
{

using permanode::test::RunCli;
using Result = permanode::test::CliResult;

std::string Fixtures()
{
    const char *env = std::getenv("PERMANODE_FIXTURES");
    return env && *env ? env : PERMANODE_FIXTURES_DEFAULT;
}

std::vector<std::string> ReadLines(const fs::path &path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

void WriteLines(const fs::path &path, const std::vector<std::string> &lines)
{
    std::ofstream out(path, std::ios::trunc);
    for (const auto &line : lines)
        out << line << '\n';
}

// Each test gets its own database with the extension, made by `permanode init`, and a scratch
// directory with the fixtures converted into bundles.
class IngestTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        database_ = permanode::test::FreshTestDatabase("ingest_");
        dsn_ = permanode::test::TestDsn() + " dbname=" + database_;
        auto init = RunCli(fmt::format("init --dsn '{}' --network shimmer", dsn_));
        ASSERT_EQ(init.exit_code, 0) << init.output;

        dir_ = fs::temp_directory_path() / ("permanode-" + database_);
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        for (const char *name : {"in_memory_data", "blocks_ms_2418187"})
        {
            auto r = RunCli(fmt::format("import-chronicle '{}/{}.json' -o '{}'", Fixtures(), name,
                                        (dir_ / (std::string(name) + ".ndjson")).string()));
            ASSERT_EQ(r.exit_code, 0) << r.output;
        }
    }

    void TearDown() override { fs::remove_all(dir_); }

    Result Ingest(const fs::path &file, const std::string &flags = {})
    {
        return RunCli(
            fmt::format("ingest --dsn '{}' --no-measure {} '{}'", dsn_, flags, file.string()));
    }

    std::string Query(const std::string &sql)
    {
        pqxx::connection conn(dsn_);
        pqxx::nontransaction tx(conn);
        auto rows = tx.exec(sql);
        return rows.empty() || rows[0][0].is_null() ? "" : rows[0][0].c_str();
    }

    // Row counts of every table ingest writes, as one comparable string.
    std::string Fingerprint()
    {
        std::string out;
        for (const char *table :
             {"messages", "transactions", "milestones", "basic_outputs", "alias_outputs",
              "foundry_outputs", "nft_outputs", "spent_outputs", "unspent_outputs", "tags",
              "parents", "sync", "block_locator", "output_locator", "addresses_hints", "tag_hints",
              "ms_analytics", "address_analytics"})
            out += fmt::format("{}={} ", table,
                               Query(fmt::format("SELECT count(*) FROM permanode.{}", table)));
        return out;
    }

    // Keys without their hint row (tags of blocks, basic outputs' addresses, address
    // analytics): after an ingest, 0.
    std::string MissingHints()
    {
        return Query(
            "SELECT count(*) FROM ("
            " SELECT DISTINCT tag::text AS k, 'message' AS kind, ms_range_id FROM permanode.tags"
            " UNION SELECT address::text, 'extended', ms_range_id FROM permanode.basic_outputs"
            "  WHERE address IS NOT NULL"
            " UNION SELECT address::text, 'analytics', ms_range_id"
            "  FROM permanode.address_analytics) a "
            "WHERE NOT EXISTS (SELECT FROM permanode.tag_hints h"
            "  WHERE a.kind = 'message' AND h.tag::text = a.k AND h.table_kind = 'message'"
            "  AND h.ms_range_id = a.ms_range_id) "
            "AND NOT EXISTS (SELECT FROM permanode.addresses_hints h"
            "  WHERE a.kind <> 'message' AND h.address::text = a.k AND h.output_kind = a.kind"
            "  AND h.variant = 'address' AND h.ms_range_id = a.ms_range_id)");
    }

    fs::path Bundles(const char *name) const { return dir_ / (std::string(name) + ".ndjson"); }

    std::string database_;
    std::string dsn_;
    fs::path dir_;
};

// The first output of 17339's first included transaction (a Soonaverse basic output).
constexpr const char *kKnownOutput =
    "0x1fed844e2f82b20517c856d368104fcd268965602c5abaf189bfed06f367e5140000";

TEST_F(IngestTest, FixturesGiveTheirCountsAndLookups)
{
    auto a = Ingest(Bundles("in_memory_data"));
    ASSERT_EQ(a.exit_code, 0) << a.output;
    EXPECT_NE(a.output.find("ingested 3 milestones, 0 already present, 0 skipped: 112 blocks"),
              std::string::npos)
        << a.output;
    auto b = Ingest(Bundles("blocks_ms_2418187"));
    ASSERT_EQ(b.exit_code, 0) << b.output;
    EXPECT_NE(b.output.find("sync gaps: 17342-2418186"), std::string::npos) << b.output;

    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages"), "200");
    EXPECT_EQ(Query("SELECT string_agg(milestone_index::text, ',' ORDER BY milestone_index) "
                    "FROM permanode.sync"),
              "17339,17340,17341,2418187");
    // Outputs created by the cones' included transactions, as inx-chronicle lists them.
    EXPECT_EQ(Query("SELECT (SELECT count(*) FROM permanode.basic_outputs) + "
                    "(SELECT count(*) FROM permanode.alias_outputs) + "
                    "(SELECT count(*) FROM permanode.nft_outputs) + "
                    "(SELECT count(*) FROM permanode.foundry_outputs)"),
              "74");
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.spent_outputs"), "29");
    EXPECT_EQ(Query(fmt::format("SELECT amount || ' ' || convert_from(tag, 'UTF8') FROM "
                                "permanode.basic_outputs WHERE output_id = '{}'",
                                kKnownOutput)),
              "13300500 Soonaverse");
    EXPECT_EQ(Query(fmt::format("SELECT count(*) > 0 FROM permanode.basic_outputs_by_address "
                                "WHERE address = (SELECT address FROM permanode.basic_outputs "
                                "WHERE output_id = '{}')",
                                kKnownOutput)),
              "t");
    EXPECT_EQ(Query("SELECT from_milestone || '-' || to_milestone FROM permanode.sync_gaps()"),
              "17342-2418186");
}

TEST_F(IngestTest, ReingestChangesNothing)
{
    ASSERT_EQ(Ingest(Bundles("in_memory_data")).exit_code, 0);
    ASSERT_EQ(Ingest(Bundles("blocks_ms_2418187")).exit_code, 0);
    std::string before = Fingerprint();
    auto again = Ingest(Bundles("in_memory_data"));
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find("ingested 0 milestones, 3 already present"), std::string::npos)
        << again.output;
    auto from_stdin = RunCli(fmt::format("ingest --dsn '{}' --no-measure - < '{}'", dsn_,
                                         Bundles("blocks_ms_2418187").string()));
    EXPECT_EQ(from_stdin.exit_code, 0) << from_stdin.output;
    EXPECT_NE(from_stdin.output.find("1 already present"), std::string::npos) << from_stdin.output;
    EXPECT_EQ(Fingerprint(), before);
}

// A file with 17339 (good) on line 1 and a broken 17340 on line 2.
struct BadCase
{
    const char *name;
    std::function<std::string(nlohmann::json &, const std::string &)> make_bad;
    const char *expected; // in the message
    std::uint32_t milestone = 17340;
};

TEST_F(IngestTest, BadLinesStopAtFileLineWithNothingCommitted)
{
    std::vector<std::string> lines = ReadLines(Bundles("in_memory_data"));
    ASSERT_EQ(lines.size(), 3u);
    // Index of 17340's first included (transaction) block.
    nlohmann::json original = nlohmann::json::parse(lines[1]);
    std::size_t transaction = 0;
    while (original["blocks"][transaction]["inclusion_state"] != "included")
        ++transaction;

    std::vector<BadCase> cases = {
        {"malformed JSON",
         [](nlohmann::json &, const std::string &line) { return line.substr(0, 200); },
         "malformed JSON"},
        {"bad hex",
         [](nlohmann::json &j, const std::string &)
         {
             j["blocks"][3]["block"] =
                 "0xzz" + j["blocks"][3]["block"].get<std::string>().substr(4);
             return j.dump();
         },
         "block 3: \"block\" is not valid hex"},
        {"undecodable block",
         [](nlohmann::json &j, const std::string &)
         {
             std::string hex = j["blocks"][3]["block"];
             j["blocks"][3]["block"] = hex.substr(0, hex.size() - 10);
             return j.dump();
         },
         "block 3 (0x"},
        {"milestone index mismatch",
         [](nlohmann::json &j, const std::string &)
         {
             j["milestone_index"] = 17338; // its cone carries the payload of 17339
             return j.dump();
         },
         "milestone index mismatch", 17338},
        {"inclusion state contradicts the payload",
         [&](nlohmann::json &j, const std::string &)
         {
             j["blocks"][transaction]["inclusion_state"] = "no_transaction";
             return j.dump();
         },
         "does not fit its transaction payload"},
        {"a block already in another milestone's cone",
         [&](nlohmann::json &j, const std::string &)
         {
             nlohmann::json first = nlohmann::json::parse(lines[0]);
             for (const auto &block : first["blocks"])
                 if (block["inclusion_state"] == "no_transaction")
                 {
                     j["blocks"].push_back(block);
                     break;
                 }
             return j.dump();
         },
         "duplicate key value violates unique constraint"},
    };
    for (auto &c : cases)
    {
        SCOPED_TRACE(c.name);
        nlohmann::json bad = original;
        fs::path file = dir_ / "bad.ndjson";
        WriteLines(file, {lines[0], c.make_bad(bad, lines[1])});
        auto r = Ingest(file);
        EXPECT_EQ(r.exit_code, 4) << r.output;
        EXPECT_NE(r.output.find(file.string() + ":2: "), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(c.expected), std::string::npos) << r.output;
        EXPECT_EQ(Query("SELECT count(*) FROM permanode.sync WHERE milestone_index = 17339"), "1");
        EXPECT_EQ(Query(fmt::format("SELECT count(*) FROM permanode.sync WHERE milestone_index "
                                    "= {}",
                                    c.milestone)),
                  "0");
        EXPECT_EQ(Query(fmt::format("SELECT count(*) FROM permanode.messages WHERE "
                                    "milestone_index = {}",
                                    c.milestone)),
                  "0");
    }
}

TEST_F(IngestTest, ServerDecodeErrorIsMappedToFileLineAndBlock)
{
    std::vector<std::string> lines = ReadLines(Bundles("in_memory_data"));
    nlohmann::json bad = nlohmann::json::parse(lines[1]);
    std::string hex = bad["blocks"][5]["block"];
    bad["blocks"][5]["block"] = hex.substr(0, hex.size() - 10);
    fs::path file = dir_ / "server.ndjson";
    WriteLines(file, {lines[0], bad.dump()});
    auto r = Ingest(file, "--no-precheck");
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find(file.string() + ":2: milestone 17340: block 5 (0x"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("SQLSTATE 22P02"), std::string::npos) << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages WHERE milestone_index = 17340"), "0");
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.sync"), "1");
}

TEST_F(IngestTest, SkipBadGoesOnAndWritesRejects)
{
    std::vector<std::string> lines = ReadLines(Bundles("in_memory_data"));
    fs::path file = dir_ / "skip.ndjson";
    WriteLines(file, {lines[0], "{\"milestone_index\": 17340, \"blocks\": [", lines[2]});
    fs::path rejects = dir_ / "rejects.ndjson";
    auto r = Ingest(file, fmt::format("--skip-bad --rejects '{}'", rejects.string()));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(file.string() + ":2: milestone 17340: malformed JSON"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("ingested 2 milestones, 0 already present, 1 skipped"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(Query("SELECT string_agg(milestone_index::text, ',' ORDER BY milestone_index) "
                    "FROM permanode.sync"),
              "17339,17341");
    std::vector<std::string> rejected = ReadLines(rejects);
    ASSERT_EQ(rejected.size(), 1u);
    auto entry = nlohmann::json::parse(rejected[0]);
    EXPECT_EQ(entry["line"], 2);
    EXPECT_EQ(entry["milestone_index"], 17340);
    EXPECT_EQ(entry["bundle"], "{\"milestone_index\": 17340, \"blocks\": [");
}

TEST_F(IngestTest, GeneratedLedgerIngestsConsistently)
{
    fs::path file = dir_ / "generated.ndjson";
    auto g = RunCli(fmt::format("generate --milestones 60 --start-index 100 --seed 3 "
                                "--blocks-per-milestone 30-50 --tx-share 0.4 "
                                "--genesis-addresses 50 -o '{}'",
                                file.string()));
    ASSERT_EQ(g.exit_code, 0) << g.output;
    std::size_t blocks = 0;
    std::uint32_t expected_index = 100;
    for (const auto &line : ReadLines(file))
    {
        auto bundle = nlohmann::json::parse(line);
        EXPECT_EQ(bundle["milestone_index"], expected_index++);
        blocks += bundle["blocks"].size();
    }
    auto r = Ingest(file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("ingested 60 milestones"), std::string::npos) << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages"), std::to_string(blocks));
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.sync_gaps()"), "0");
    // The genesis snapshot's outputs, booked at the first milestone.
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.basic_outputs WHERE milestone_index = 100 "
                    "AND message_id = '0x" +
                    std::string(64, '0') + "'"),
              "50");
    // Every generated spend spends a known output: unspent = created - spent.
    EXPECT_EQ(Query("SELECT (SELECT count(*) FROM permanode.basic_outputs) + "
                    "(SELECT count(*) FROM permanode.alias_outputs) + "
                    "(SELECT count(*) FROM permanode.nft_outputs) + "
                    "(SELECT count(*) FROM permanode.foundry_outputs) - "
                    "(SELECT count(*) FROM permanode.spent_outputs) - "
                    "(SELECT count(*) FROM permanode.unspent_outputs)"),
              "0");
    EXPECT_NE(Query("SELECT count(*) FROM permanode.spent_outputs"), "0");
    EXPECT_NE(Query("SELECT count(*) FROM permanode.alias_outputs"), "0");
    EXPECT_NE(Query("SELECT count(*) FROM permanode.nft_outputs"), "0");
    // Each milestone row comes from the payload in the next milestone's cone.
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.milestones"), "59");
    EXPECT_EQ(MissingHints(), "0");
}

TEST_F(IngestTest, GenerateIsDeterministicForASeed)
{
    auto Generate = [&](const char *name, int seed)
    {
        fs::path file = dir_ / name;
        auto r =
            RunCli(fmt::format("generate --milestones 20 --seed {} -o '{}'", seed, file.string()));
        EXPECT_EQ(r.exit_code, 0) << r.output;
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::string a = Generate("a.ndjson", 9), b = Generate("b.ndjson", 9),
                c = Generate("c.ndjson", 10);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

// --outputs-per-transaction sets how many new outputs each transaction creates (the chained
// alias, NFT and token outputs come on top).
TEST_F(IngestTest, GenerateCreatesTheOutputsPerTransactionAskedFor)
{
    fs::path file = dir_ / "wide.ndjson";
    auto g = RunCli(fmt::format("generate --milestones 30 --tx-share 1 --outputs-per-transaction "
                                "10-12 --seed 3 -o '{}'",
                                file.string()));
    ASSERT_EQ(g.exit_code, 0) << g.output;
    ASSERT_EQ(Ingest(file).exit_code, 0);
    // Most transactions get 10-12 new outputs; none more than 12 plus the chained ones (up to
    // two per input, three inputs at most, and one minted token set).
    EXPECT_EQ(Query("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n) >= 10 AND max(n) <= "
                    "12 + 7 AND count(*) > 100 FROM (SELECT transaction_id, count(*) AS n FROM "
                    "permanode.transactions WHERE variant = 'output' GROUP BY 1) t"),
              "t");
}

TEST_F(IngestTest, InterruptStopsAfterTheMilestonesInFlight)
{
    fs::path file = dir_ / "long.ndjson";
    // Long enough that the interrupt comes while milestones are still to go (it comes after 20).
    constexpr int kMilestones = 500;
    auto g = RunCli(
        fmt::format("generate --milestones {} --seed 4 -o '{}'", kMilestones, file.string()));
    ASSERT_EQ(g.exit_code, 0) << g.output;
    // SIGINT once the ingest is under way (a shell's background job: our handler replaces the
    // SIG_IGN it inherits).
    std::string command = fmt::format(
        "'{0}' ingest --dsn '{1}' '{2}' > '{3}/out' 2>&1 & pid=$!; "
        "until [ \"$(psql -XAtq -d '{1}' -c 'SELECT count(*) >= 20 FROM permanode.sync')\" = t ]; "
        "do sleep 0.1; done; kill -INT $pid; wait $pid; echo $? > '{3}/rc'",
        PERMANODE_CLI_PATH, dsn_, file.string(), dir_.string());
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::string rc = ReadLines(dir_ / "rc").at(0), output = ReadLines(dir_ / "out").at(0);
    EXPECT_EQ(rc, "130") << output;
    std::string synced = Query("SELECT count(*) FROM permanode.sync");
    EXPECT_NE(output.find("interrupted: ingested " + synced + " milestones"), std::string::npos)
        << output;
    EXPECT_LT(std::stoi(synced), kMilestones);
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.sync_gaps()"), "0");
    // Every key of the milestones committed before the interrupt has its hint row.
    EXPECT_EQ(MissingHints(), "0");
    // The rest goes in on the next run.
    auto rest = Ingest(file);
    EXPECT_EQ(rest.exit_code, 0) << rest.output;
    EXPECT_NE(rest.output.find(fmt::format("ingested {} milestones, {} already present",
                                           kMilestones - std::stoi(synced), synced)),
              std::string::npos)
        << rest.output;
    // The second run's sessions knew none of the first run's hint rows: none is missing.
    EXPECT_EQ(MissingHints(), "0");
}

TEST_F(IngestTest, UsageAndInputErrors)
{
    auto missing = Ingest(dir_ / "no-such-file.ndjson");
    EXPECT_EQ(missing.exit_code, 1) << missing.output;
    EXPECT_NE(missing.output.find("cannot open"), std::string::npos) << missing.output;
    EXPECT_EQ(RunCli("ingest").exit_code, 2);
    EXPECT_EQ(RunCli("generate --blocks-per-milestone 9-3").exit_code, 2);
    EXPECT_EQ(RunCli("generate --outputs-per-transaction 5-2").exit_code, 2);
    auto help = RunCli("ingest --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.output.find("--skip-bad"), std::string::npos) << help.output;
    fs::path junk = dir_ / "junk.json";
    WriteLines(junk, {"[1, 2"});
    auto import = RunCli(fmt::format("import-chronicle '{}'", junk.string()));
    EXPECT_EQ(import.exit_code, 4) << import.output;
    EXPECT_NE(import.output.find(junk.string() + ": "), std::string::npos) << import.output;
}

// `permanode archive`, `status` and `restore`: range 1 (17339-17341 at the default chunk size
// 10000) goes cold and comes back, and the ledger's rows stay the same throughout.
TEST_F(IngestTest, ArchiveStatusAndRestore)
{
    ASSERT_EQ(Ingest(Bundles("in_memory_data")).exit_code, 0);
    ASSERT_EQ(Ingest(Bundles("blocks_ms_2418187")).exit_code, 0);
    std::string hot = Fingerprint();
    std::string known = Query(fmt::format(
        "SELECT amount FROM permanode.basic_outputs WHERE output_id = '{}'", kKnownOutput));

    auto archive = RunCli(fmt::format("archive --dsn '{}' --older-than 0", dsn_));
    ASSERT_EQ(archive.exit_code, 0) << archive.output;
    EXPECT_NE(archive.output.find("messages_archive_1_2"), std::string::npos) << archive.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.status WHERE tier = 'cold'"), "11");
    EXPECT_EQ(Fingerprint(), hot);
    EXPECT_EQ(Query(fmt::format("SELECT amount FROM permanode.basic_outputs WHERE output_id = '{}'",
                                kKnownOutput)),
              known);

    auto status = RunCli(fmt::format("status --dsn '{}'", dsn_));
    ASSERT_EQ(status.exit_code, 0) << status.output;
    EXPECT_NE(status.output.find(" messages          | 1      | cold | 112 "), std::string::npos)
        << status.output;
    EXPECT_NE(status.output.find(" messages          | 241    | hot  | 88 "), std::string::npos)
        << status.output;
    EXPECT_NE(status.output.find(" total "), std::string::npos) << status.output;

    // The newest milestone's range may still be written by ingest.
    auto refused = RunCli(fmt::format("archive --dsn '{}' --from-range 241 --to-range 242", dsn_));
    EXPECT_EQ(refused.exit_code, 3) << refused.output;
    EXPECT_NE(refused.output.find("ingest may still write it"), std::string::npos)
        << refused.output;
    auto usage = RunCli(fmt::format("archive --dsn '{}'", dsn_));
    EXPECT_EQ(usage.exit_code, 2) << usage.output;

    auto restore = RunCli(fmt::format("restore --dsn '{}' --from-range 0 --to-range 241", dsn_));
    ASSERT_EQ(restore.exit_code, 0) << restore.output;
    EXPECT_NE(restore.output.find("(11 rows)"), std::string::npos) << restore.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.status WHERE tier = 'cold'"), "0");
    EXPECT_EQ(Fingerprint(), hot);
}

// The policy: with archive_older_than set, ingest runs permanode.maintain() after the file.
TEST_F(IngestTest, IngestAppliesTheArchivePolicy)
{
    ASSERT_EQ(Ingest(Bundles("in_memory_data")).exit_code, 0);
    Query("INSERT INTO permanode.settings VALUES ('archive_older_than', '1000')");
    auto b = Ingest(Bundles("blocks_ms_2418187"));
    ASSERT_EQ(b.exit_code, 0) << b.output;
    EXPECT_NE(b.output.find("maintenance: archived 973 rows"), std::string::npos) << b.output;
    // The fixtures' day (2022-09-28) is finished once 2418187 (2023-02-14) is in: rolled up.
    EXPECT_NE(b.output.find("maintenance: rolled up the analytics of 1 finished day\n"),
              std::string::npos)
        << b.output;
    EXPECT_EQ(Query("SELECT string_agg(date::text, ',') FROM permanode.daily_analytics"),
              "2022-09-28");
    EXPECT_EQ(Query("SELECT string_agg(DISTINCT from_range::text, ',') FROM permanode.status "
                    "WHERE tier = 'cold'"),
              "1");
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages"), "200");
}

// Ingest on several connections at once across many small ranges, so that sessions keep making
// the next range's partitions while others write to them (#29: a session routed rows with a
// partition descriptor that lacked a partition another session had just attached, and failed
// with 23514 "no partition of relation ... found for row"). Each run ingests into a fresh
// database with 5 milestones per range: 80 ranges in CI (a smoke run: over 1,000 partitions made
// while the other sessions write); by hand, for longer: PERMANODE_STRESS_MILESTONES=3000
// PERMANODE_STRESS_ROUNDS=5.
TEST_F(IngestTest, ConcurrentIngestAcrossManySmallRanges)
{
    const int milestones = permanode::test::StressSize("PERMANODE_STRESS_MILESTONES", 400);
    const int rounds = permanode::test::StressSize("PERMANODE_STRESS_ROUNDS", 1);
    fs::path file = dir_ / "stress.ndjson";
    auto g = RunCli(fmt::format("generate --milestones {} --seed 11 --blocks-per-milestone 4-8 "
                                "--tx-share 0.5 -o '{}'",
                                milestones, file.string()));
    ASSERT_EQ(g.exit_code, 0) << g.output;
    std::size_t blocks = 0;
    for (const auto &line : ReadLines(file))
        blocks += nlohmann::json::parse(line)["blocks"].size();

    for (int jobs : {2, 4})
        for (int round = 0; round < rounds; ++round)
        {
            SCOPED_TRACE(fmt::format("--jobs {}, round {}", jobs, round));
            std::string database = fmt::format("{}_j{}_r{}", database_, jobs, round);
            pqxx::connection admin(permanode::test::TestDsn());
            pqxx::nontransaction atx(admin);
            atx.exec0("DROP DATABASE IF EXISTS " + atx.quote_name(database));
            atx.exec0("CREATE DATABASE " + atx.quote_name(database));
            std::string dsn = permanode::test::TestDsn() + " dbname=" + database;
            auto init = RunCli(fmt::format("init --dsn '{}' --network shimmer", dsn));
            ASSERT_EQ(init.exit_code, 0) << init.output;
            {
                pqxx::connection conn(dsn);
                pqxx::nontransaction tx(conn);
                tx.exec("SELECT permanode.set_chunk_size(table_name, 5) "
                        "FROM permanode.ledger_tables");
            }
            auto r = RunCli(fmt::format("ingest --dsn '{}' --jobs {} --no-measure '{}'", dsn, jobs,
                                        file.string()));
            EXPECT_EQ(r.exit_code, 0) << r.output;
            EXPECT_NE(r.output.find(fmt::format("ingested {} milestones", milestones)),
                      std::string::npos)
                << r.output;
            {
                pqxx::connection conn(dsn);
                pqxx::nontransaction tx(conn);
                EXPECT_EQ(tx.exec1("SELECT count(*) FROM permanode.sync_gaps()")[0].as<int>(), 0);
                EXPECT_EQ(tx.exec1("SELECT count(*) FROM permanode.messages")[0].as<std::size_t>(),
                          blocks);
                EXPECT_EQ(tx.exec1("SELECT count(DISTINCT ms_range_id) FROM permanode.messages")[0]
                              .as<int>(),
                          milestones / 5 + 1); // milestones 1..N
            }
            atx.exec0("DROP DATABASE " + atx.quote_name(database));
        }
}

// The real Chrysalis messages as the two testnet7 milestones they form (the pg_regress test
// chrysalis_ledger and the demo assemble the same cones), one bundle line each. The fixture
// holds part of each cone only, which each line says ("partial_cone").
std::vector<std::string> ChrysalisLines()
{
    std::ifstream in(fs::path(Fixtures()).parent_path() / "chrysalis" / "chrysalis_messages.json");
    nlohmann::json fixture = nlohmann::json::parse(in);
    auto hex = [&](const std::string &prefix)
    {
        for (const auto &m : fixture["messages"])
            if (m["message_id_computed"].get<std::string>().rfind(prefix, 0) == 0)
                return "0x" + m["message_hex"].get<std::string>();
        ADD_FAILURE() << "no fixture message " << prefix;
        return std::string();
    };
    auto block = [&](const std::string &prefix, const char *state) {
        return nlohmann::json{{"block", hex(prefix)}, {"inclusion_state", state}};
    };
    nlohmann::json first = {
        {"protocol_version", 1},
        {"milestone_index", 16241},
        {"milestone_timestamp", 1617959712},
        {"blocks",
         {block("10dbee9c", "no_transaction"), block("30d87fa9", "no_transaction"),
          block("70a9a9bc", "included"), block("92f427d6", "included"),
          block("89e4d40f", "included"), block("53e5f848", "no_transaction")}},
        {"partial_cone", true}};
    nlohmann::json second = {{"protocol_version", 1},
                             {"milestone_index", 16242},
                             {"milestone_timestamp", 1617959722},
                             {"blocks", {block("1f7af3df", "included")}},
                             {"partial_cone", true}};
    return {first.dump(), second.dump()};
}

TEST_F(IngestTest, ChrysalisMilestonesIngestBeforeStardustOnes)
{
    std::vector<std::string> lines = ChrysalisLines();
    fs::path file = dir_ / "chrysalis.ndjson";
    WriteLines(file, lines);
    auto r = Ingest(file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("ingested 2 milestones"), std::string::npos) << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages WHERE version = 1"), "7");
    EXPECT_EQ(Query("SELECT count(*) FILTER (WHERE NOT is_used) || '/' || "
                    "count(*) FILTER (WHERE is_used) FROM permanode.legacy_outputs"),
              "20/1");
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.unspent_outputs WHERE output_kind = "
                    "'legacy'"),
              "19");
    // Again: already present, nothing changes.
    std::string before = Fingerprint();
    auto again = Ingest(file);
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find("2 already present"), std::string::npos) << again.output;
    EXPECT_EQ(Fingerprint(), before);

    // The Stardust era follows.
    auto stardust = Ingest(Bundles("in_memory_data"));
    ASSERT_EQ(stardust.exit_code, 0) << stardust.output;
    EXPECT_EQ(
        Query("SELECT string_agg(protocol_version || ':' || n, ',' ORDER BY protocol_version) "
              "FROM "
              "(SELECT protocol_version, count(*) n FROM permanode.milestone_protocols "
              "GROUP BY 1) s"),
        "1:2,2:3");
    auto status = RunCli(fmt::format("status --dsn '{}'", dsn_));
    EXPECT_NE(status.output.find("Chrysalis"), std::string::npos) << status.output;

    // A Chrysalis milestone after Stardust ones: refused at its line, nothing written.
    nlohmann::json late = nlohmann::json::parse(lines[1]);
    late["milestone_index"] = 17400;
    fs::path overlap = dir_ / "overlap.ndjson";
    WriteLines(overlap, {late.dump()});
    auto refused = Ingest(overlap, "--no-precheck");
    EXPECT_EQ(refused.exit_code, 4) << refused.output;
    EXPECT_NE(refused.output.find(overlap.string() + ":1: milestone 17400: Chrysalis milestone "
                                                     "17400 overlaps the Stardust milestones"),
              std::string::npos)
        << refused.output;
    EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages WHERE milestone_index = 17400"), "0");
}

TEST_F(IngestTest, BadChrysalisLinesStopAtFileLine)
{
    std::vector<std::string> lines = ChrysalisLines();
    nlohmann::json bad = nlohmann::json::parse(lines[1]);
    std::string hex = bad["blocks"][0]["block"];
    bad["blocks"][0]["block"] = hex.substr(0, hex.size() - 10);
    fs::path file = dir_ / "bad-chrysalis.ndjson";
    WriteLines(file, {lines[0], bad.dump()});
    for (const char *flags : {"", "--no-precheck"})
    {
        SCOPED_TRACE(flags);
        auto r = Ingest(file, flags);
        EXPECT_EQ(r.exit_code, 4) << r.output;
        EXPECT_NE(r.output.find(file.string() + ":2: milestone 16242: block 0 (0x"),
                  std::string::npos)
            << r.output;
        EXPECT_NE(r.output.find("as a Chrysalis message"), std::string::npos) << r.output;
        EXPECT_EQ(Query("SELECT count(*) FROM permanode.messages WHERE milestone_index = 16242"),
                  "0");
        EXPECT_EQ(Query("SELECT count(*) FROM permanode.sync WHERE milestone_index = 16241"), "1");
    }
    // A Stardust block in a Chrysalis bundle is named as what it is not.
    nlohmann::json stardust = nlohmann::json::parse(ReadLines(Bundles("in_memory_data"))[0]);
    stardust["protocol_version"] = 1;
    fs::path mixed = dir_ / "mixed.ndjson";
    WriteLines(mixed, {stardust.dump()});
    auto r = Ingest(mixed);
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find(mixed.string() + ":1: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("does not decode as a Chrysalis message"), std::string::npos)
        << r.output;
    // An unknown protocol version.
    stardust["protocol_version"] = 3;
    WriteLines(mixed, {stardust.dump()});
    auto unknown = Ingest(mixed);
    EXPECT_EQ(unknown.exit_code, 4) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown \"protocol_version\" 3"), std::string::npos)
        << unknown.output;
}

} // namespace
