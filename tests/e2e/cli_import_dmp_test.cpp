// `permanode import-dmp` against the test cluster: a generated legacy ledger in, its counts,
// milestones and balances out, checked against what the test reads from the .dmp and snapshot
// files itself (with the codec, not our SQL); a second import adds nothing; a bundle split over
// two files is incomplete after the first and complete after the second; a bad line stops the
// import at FILE:LINE with the lines before it in and nothing after it.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "codec/legacy/transaction.hpp"
#include "run_cli.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

namespace fs = std::filesystem;
namespace legacy = permanode::codec::legacy;

namespace
{

using permanode::test::RunCli;

constexpr std::uint32_t kStartIndex = 500;
constexpr std::uint32_t kMilestones = 30;

struct Line
{
    std::string text;
    std::string hash;
    std::uint32_t milestone = 0;
    legacy::Transaction tx;
};

class ImportDmpTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        database_ = permanode::test::FreshTestDatabase("import_dmp_");
        dsn_ = permanode::test::TestDsn() + " dbname=" + database_;
        auto init = RunCli(fmt::format("init --dsn '{}' --network iota", dsn_));
        ASSERT_EQ(init.exit_code, 0) << init.output;
        dir_ = fs::temp_directory_path() / ("permanode-" + database_);
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        auto r = RunCli(fmt::format(
            "generate --protocol legacy --milestones {} --start-index {} -o '{}' --snapshot '{}'",
            kMilestones, kStartIndex, (dir_ / "ledger.dmp").string(),
            (dir_ / "snapshot.txt").string()));
        ASSERT_EQ(r.exit_code, 0) << r.output;
        std::size_t at = r.output.find("coordinator ");
        ASSERT_NE(at, std::string::npos) << r.output;
        coordinator_ = r.output.substr(at + 12, legacy::kHashTrytes);
        std::ifstream in(dir_ / "ledger.dmp");
        for (std::string text; std::getline(in, text);)
        {
            Line line;
            line.text = text;
            line.hash = text.substr(0, legacy::kHashTrytes);
            std::string trytes = text.substr(legacy::kHashTrytes + 1, legacy::kTransactionTrytes);
            line.milestone = static_cast<std::uint32_t>(
                std::stoul(text.substr(legacy::kHashTrytes + legacy::kTransactionTrytes + 2)));
            line.tx = legacy::DecodeTransaction(trytes);
            lines_.push_back(std::move(line));
        }
        ASSERT_GT(lines_.size(), kMilestones * 20);
    }
    void TearDown() override { fs::remove_all(dir_); }

    permanode::test::CliResult Import(const std::string &args)
    {
        return RunCli(fmt::format("import-dmp --dsn '{}' {}", dsn_, args));
    }
    // On one connection for the test (its balance checks ask a query per address: a new
    // connection for each made this test take two minutes).
    std::string Query(const std::string &sql)
    {
        if (!conn_)
            conn_ = std::make_unique<pqxx::connection>(dsn_);
        pqxx::nontransaction tx(*conn_);
        auto rows = tx.exec(sql);
        return rows.empty() || rows[0][0].is_null() ? "" : rows[0][0].c_str();
    }
    void WriteLines(const fs::path &path, std::size_t from, std::size_t to,
                    const std::set<std::size_t> &skip = {})
    {
        std::ofstream out(path, std::ios::trunc);
        for (std::size_t i = from; i < to; i++)
            if (!skip.count(i))
                out << lines_[i].text << '\n';
    }
    // Balances at the end of a milestone, from the snapshot file and the lines.
    std::map<std::string, std::int64_t> BalancesAt(std::uint32_t milestone)
    {
        std::map<std::string, std::int64_t> balances;
        std::ifstream in(dir_ / "snapshot.txt");
        for (std::string text; std::getline(in, text);)
            balances[text.substr(0, legacy::kHashTrytes)] +=
                std::stoll(text.substr(legacy::kHashTrytes + 1));
        for (const Line &line : lines_)
            if (line.milestone <= milestone)
                balances[line.tx.address] += line.tx.value;
        return balances;
    }

    std::string database_, dsn_, coordinator_;
    std::unique_ptr<pqxx::connection> conn_;
    fs::path dir_;
    std::vector<Line> lines_;
};

} // namespace

TEST_F(ImportDmpTest, LedgerInMilestonesAndBalancesOutAgainAddsNothing)
{
    std::string args =
        fmt::format("'{}' --snapshot '{}' --coordinator {} --batch 97",
                    (dir_ / "ledger.dmp").string(), (dir_ / "snapshot.txt").string(), coordinator_);
    auto r = Import(args);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(
        r.output.find(fmt::format("{} lines, {} new transactions", lines_.size(), lines_.size())),
        std::string::npos)
        << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.transactions"), std::to_string(lines_.size()));
    // The days that moved value are rolled up at the end: the overview reads their addresses.
    EXPECT_NE(
        r.output.find(fmt::format(
            "{} days rolled up",
            Query("SELECT count(*) FROM legacy.daily_analytics WHERE value_transactions > 0"))),
        std::string::npos)
        << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.daily_analytics WHERE NOT rolled_up"), "0");
    EXPECT_EQ(Query("SELECT sum(total_addresses) FROM legacy.daily_analytics"),
              Query("SELECT sum(n) FROM (SELECT count(DISTINCT address) AS n FROM "
                    "legacy.transactions WHERE value <> 0 "
                    "GROUP BY (issued_at AT TIME ZONE 'UTC')::date) s"));
    std::size_t zero = 0;
    for (const Line &line : lines_)
        zero += line.tx.value == 0;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.zero_value"), std::to_string(zero));
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.incomplete_bundles"), "0");
    EXPECT_EQ(Query("SELECT format('%s %s %s', count(*), min(milestone_index), "
                    "max(milestone_index)) FROM legacy.milestones"),
              fmt::format("{} {} {}", kMilestones, kStartIndex, kStartIndex + kMilestones - 1));
    // Each milestone's tail is the Coordinator's transaction at index 0 confirmed by it.
    for (const Line &line : lines_)
    {
        if (line.tx.address == coordinator_ && line.tx.current_index == 0)
        {
            EXPECT_EQ(
                Query(fmt::format("SELECT hash FROM legacy.milestones WHERE milestone_index = {}",
                                  line.milestone)),
                line.hash);
        }
    }

    // Every address's balance at a middle milestone and at the end, as the files say.
    for (std::uint32_t milestone : {kStartIndex + kMilestones / 2, kStartIndex + kMilestones - 1})
    {
        std::size_t checked = 0;
        for (const auto &[address, balance] : BalancesAt(milestone))
        {
            ASSERT_EQ(Query(fmt::format("SELECT legacy.balance('{}', {})", address, milestone)),
                      std::to_string(balance))
                << address << " at " << milestone;
            checked++;
        }
        EXPECT_GT(checked, 40u);
    }

    auto again = Import(args);
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find(
                  fmt::format("{} lines, 0 new transactions, 0 days rolled up", lines_.size())),
              std::string::npos)
        << again.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.transactions"), std::to_string(lines_.size()));
}

TEST_F(ImportDmpTest, BundleSplitOverTwoFilesCompletesWithTheSecond)
{
    // A value bundle of several transactions: its middle one goes into the second file.
    std::size_t middle = 0;
    for (std::size_t i = 0; i < lines_.size() && middle == 0; i++)
        if (lines_[i].tx.value < 0 && lines_[i].tx.last_index >= 2 &&
            lines_[i].tx.current_index > 0 && lines_[i].tx.current_index < lines_[i].tx.last_index)
            middle = i;
    ASSERT_NE(middle, 0u);
    const Line &held = lines_[middle];
    WriteLines(dir_ / "first.dmp", 0, lines_.size(), {middle});
    WriteLines(dir_ / "second.dmp", middle, middle + 1);

    auto first = Import(fmt::format("'{}'", (dir_ / "first.dmp").string()));
    ASSERT_EQ(first.exit_code, 0) << first.output;
    EXPECT_EQ(Query("SELECT format('%s %s', bundle_hash, missing) FROM legacy.incomplete_bundles"),
              fmt::format("{} {{{}}}", held.tx.bundle, held.tx.current_index));
    auto second = Import(fmt::format("'{}'", (dir_ / "second.dmp").string()));
    ASSERT_EQ(second.exit_code, 0) << second.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.incomplete_bundles"), "0");
    EXPECT_EQ(Query(fmt::format("SELECT complete FROM legacy.bundle_state WHERE bundle_hash = '{}'",
                                held.tx.bundle)),
              "t");
}

TEST_F(ImportDmpTest, BadLinesStopAtFileAndLine)
{
    // Line 7's hash is not its transaction's (the server finds it): with one connection, the
    // batch before its batch goes in (lines 1-4), nothing from its batch on.
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < 10; i++)
        texts.push_back(lines_[i].text);
    texts[6][0] = texts[6][0] == 'A' ? 'B' : 'A';
    {
        std::ofstream out(dir_ / "bad_hash.dmp");
        for (const auto &t : texts)
            out << t << '\n';
    }
    auto r = Import(fmt::format("'{}' --batch 4 --jobs 1", (dir_ / "bad_hash.dmp").string()));
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find(fmt::format("{}:7: the transaction hashes to {}",
                                        (dir_ / "bad_hash.dmp").string(), lines_[6].hash)),
              std::string::npos)
        << r.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.transactions"), "4");

    // Shapes: a missing field, a short trytes field, a bad snapshot index.
    std::vector<std::pair<std::string, std::string>> cases = {
        {lines_[0].hash + "," + lines_[0].text.substr(82, 2673), "hash,trytes,snapshot_index"},
        {lines_[0].hash + ",ABC,1", "the trytes has 3 characters, not 2673"},
        {lines_[0].text.substr(0, lines_[0].text.rfind(',')) + ",-1", "is not a milestone index"}};
    for (const auto &[text, message] : cases)
    {
        {
            std::ofstream out(dir_ / "bad_shape.dmp");
            out << lines_[1].text << '\n' << text << '\n';
        }
        auto bad = Import(fmt::format("'{}'", (dir_ / "bad_shape.dmp").string()));
        EXPECT_EQ(bad.exit_code, 4) << bad.output;
        EXPECT_NE(bad.output.find(fmt::format("{}:2: ", (dir_ / "bad_shape.dmp").string())),
                  std::string::npos)
            << bad.output;
        EXPECT_NE(bad.output.find(message), std::string::npos) << bad.output;
    }
    // A snapshot line that is not ADDRESS;BALANCE.
    {
        std::ofstream out(dir_ / "bad_snapshot.txt");
        out << "ABC;12\n";
    }
    auto snap = Import(fmt::format("'{}' --snapshot '{}'", (dir_ / "ledger.dmp").string(),
                                   (dir_ / "bad_snapshot.txt").string()));
    EXPECT_EQ(snap.exit_code, 4) << snap.output;
    EXPECT_NE(snap.output.find((dir_ / "bad_snapshot.txt").string() + ":1:"), std::string::npos)
        << snap.output;
    EXPECT_EQ(Query("SELECT count(*) FROM legacy.transactions"), "4");
}
