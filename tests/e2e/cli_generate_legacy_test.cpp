// `permanode generate --protocol legacy` replayed with our legacy codec, without a database: the
// same seed gives the same bytes; every .dmp line's hash is the Curl-P-81 of its trytes; every
// trunk and branch names an earlier line (or the null hash); every bundle passes the codec's
// validator (indexes, balance, Kerl bundle hash, Winternitz signatures, trunk chain); balances
// starting from the genesis snapshot never go negative; each milestone index ends with its
// Coordinator bundle.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "codec/legacy/bundle.hpp"
#include "codec/legacy/curl.hpp"
#include "codec/legacy/signing.hpp"
#include "codec/legacy/transaction.hpp"
#include "run_cli.hpp"

namespace
{

namespace legacy = permanode::codec::legacy;
using permanode::test::RunCli;

constexpr std::uint32_t kStartIndex = 1000;
constexpr std::uint32_t kMilestones = 12;
const std::string kNullHash(legacy::kHashTrytes, '9');

std::filesystem::path TempPath(const std::string &name)
{
    return std::filesystem::temp_directory_path() /
           fmt::format("permanode-legacy-{}-{}", name, ::getpid());
}

std::string ReadFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Generated
{
    std::string dmp;
    std::string snapshot;
};

Generated Generate(const std::string &args)
{
    std::filesystem::path dmp = TempPath("dmp"), snapshot = TempPath("snapshot");
    auto r = RunCli(fmt::format("generate --protocol legacy {} -o '{}' --snapshot '{}'", args,
                                dmp.string(), snapshot.string()));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    Generated out{ReadFile(dmp), ReadFile(snapshot)};
    std::filesystem::remove(dmp);
    std::filesystem::remove(snapshot);
    return out;
}

std::vector<std::string> Split(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start < text.size())
    {
        std::size_t end = text.find(separator, start);
        if (end == std::string::npos)
            end = text.size();
        parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

struct Line
{
    std::string hash;
    std::string trytes;
    std::uint32_t snapshot_index;
    legacy::Transaction tx;
};

std::vector<Line> ParseDmp(const std::string &text)
{
    std::vector<Line> lines;
    for (const std::string &row : Split(text, '\n'))
    {
        std::vector<std::string> fields = Split(row, ',');
        EXPECT_EQ(fields.size(), 3u) << row.substr(0, 100);
        if (fields.size() != 3)
            continue;
        lines.push_back({fields[0], fields[1], static_cast<std::uint32_t>(std::stoul(fields[2])),
                         legacy::DecodeTransaction(fields[1])});
    }
    return lines;
}

const std::string &Args()
{
    static const std::string args =
        fmt::format("--milestones {} --start-index {} --blocks-per-milestone 15-30 --tx-share 0.3 "
                    "--genesis-addresses 12 --seed 23",
                    kMilestones, kStartIndex);
    return args;
}

const Generated &Ledger()
{
    static const Generated generated = Generate(Args());
    return generated;
}

TEST(CliGenerateLegacyTest, SameSeedSameBytes)
{
    const Generated &first = Ledger();
    Generated again = Generate(Args());
    EXPECT_EQ(first.dmp, again.dmp);
    EXPECT_EQ(first.snapshot, again.snapshot);
    Generated other =
        Generate(fmt::format("--milestones 2 --start-index {} --blocks-per-milestone 15-30 "
                             "--genesis-addresses 12 --seed 24",
                             kStartIndex));
    EXPECT_NE(first.dmp.substr(0, 4000), other.dmp.substr(0, 4000));
}

TEST(CliGenerateLegacyTest, HashesRecomputeAndReferencesPointBack)
{
    std::vector<Line> lines = ParseDmp(Ledger().dmp);
    ASSERT_GT(lines.size(), kMilestones * 15);
    std::vector<legacy::Trits> trits;
    for (const Line &line : lines)
    {
        ASSERT_EQ(line.trytes.size(), legacy::kTransactionTrytes);
        trits.push_back(legacy::TransactionTrits(line.trytes));
        EXPECT_EQ(legacy::DetectLayout(trits.back().data()), legacy::Layout::kCurrent);
    }
    // Curl-P-81, 64 at a time, against the hash each line names.
    std::vector<const legacy::Trit *> inputs;
    for (const auto &t : trits)
        inputs.push_back(t.data());
    std::vector<legacy::HashTrits> hashes = legacy::CurlHashMany(inputs, legacy::kTransactionTrits);
    std::set<std::string> seen{kNullHash};
    std::uint32_t previous_index = kStartIndex;
    std::int64_t previous_timestamp = 0;
    for (std::size_t i = 0; i < lines.size(); i++)
    {
        const Line &line = lines[i];
        EXPECT_EQ(legacy::TritsToTrytes(hashes[i]), line.hash) << "line " << i;
        EXPECT_TRUE(seen.count(line.tx.trunk_transaction)) << "line " << i << " trunk";
        EXPECT_TRUE(seen.count(line.tx.branch_transaction)) << "line " << i << " branch";
        EXPECT_TRUE(seen.insert(line.hash).second) << "line " << i << " hash seen before";
        EXPECT_GE(line.snapshot_index, previous_index);
        EXPECT_LT(line.snapshot_index, kStartIndex + kMilestones);
        EXPECT_GE(line.tx.timestamp, previous_timestamp) << "line " << i;
        EXPECT_EQ(line.tx.attachment_timestamp / 1000, line.tx.timestamp);
        previous_index = line.snapshot_index;
        previous_timestamp = line.tx.timestamp;
    }
    EXPECT_EQ(lines.back().snapshot_index, kStartIndex + kMilestones - 1);
}

TEST(CliGenerateLegacyTest, BundlesValidateAndBalancesHold)
{
    std::vector<Line> lines = ParseDmp(Ledger().dmp);
    std::map<std::string, std::int64_t> balances;
    __int128 supply = 0;
    for (const std::string &row : Split(Ledger().snapshot, '\n'))
    {
        std::vector<std::string> fields = Split(row, ';');
        ASSERT_EQ(fields.size(), 2u);
        balances[fields[0]] += std::stoll(fields[1]);
        supply += std::stoll(fields[1]);
    }
    EXPECT_TRUE(supply == legacy::kSupply);
    EXPECT_EQ(balances.size(), 13u); // 12 funded addresses of the seed and the rest

    // A bundle's lines come last index first, its tail last.
    std::size_t bundles = 0, value_bundles = 0, spam_bundles = 0, milestones = 0, area_codes = 0;
    std::set<std::size_t> securities;
    std::string coordinator;
    std::size_t start = 0;
    for (std::size_t i = 0; i < lines.size(); i++)
    {
        if (lines[i].tx.current_index != 0)
            continue;
        std::vector<legacy::Transaction> txs;
        std::vector<std::string> hashes;
        for (std::size_t j = i + 1; j-- > start;)
        {
            txs.push_back(lines[j].tx);
            hashes.push_back(lines[j].hash);
            EXPECT_EQ(lines[j].snapshot_index, lines[i].snapshot_index) << "one milestone a bundle";
        }
        start = i + 1;
        bundles++;
        legacy::BundleVerdict verdict = legacy::ValidateBundle(txs, &hashes);
        ASSERT_TRUE(verdict.Valid())
            << "bundle " << txs[0].bundle << ": " << legacy::BundleCheckName(verdict.failed) << ", "
            << verdict.detail;
        bool moves_value = false;
        for (std::size_t k = 0; k < txs.size(); k++)
        {
            const legacy::Transaction &tx = txs[k];
            if (tx.value == 0)
                continue;
            moves_value = true;
            balances[tx.address] += tx.value;
            EXPECT_GE(balances[tx.address], 0) << tx.address;
            if (tx.value < 0)
            {
                EXPECT_EQ(balances[tx.address], 0) << "an input spends all its address holds";
                std::size_t security = 1;
                while (k + security < txs.size() && txs[k + security].address == tx.address &&
                       txs[k + security].value == 0)
                    security++;
                securities.insert(security);
            }
        }
        if (moves_value)
        {
            value_bundles++;
            auto normalized = legacy::NormalizedBundleHash(txs[0].bundle);
            EXPECT_EQ(std::count(normalized.begin(), normalized.end(), 13), 0);
            continue;
        }
        // A milestone: the last bundle of its snapshot index, three transactions on the
        // Coordinator's address with the index in the obsolete tag.
        bool last_of_index =
            i + 1 == lines.size() || lines[i + 1].snapshot_index != lines[i].snapshot_index;
        if (last_of_index)
        {
            milestones++;
            EXPECT_EQ(txs.size(), 3u);
            if (coordinator.empty())
                coordinator = txs[0].address;
            legacy::Trits tag = legacy::TrytesToTrits(txs[0].obsolete_tag);
            EXPECT_EQ(legacy::TritsToInt(tag.data(), 15), lines[i].snapshot_index);
            for (const auto &tx : txs)
                EXPECT_EQ(tx.address, coordinator);
            continue;
        }
        spam_bundles++;
        const std::string &tag = txs[0].tag;
        if (tag[8] == '9' && tag.find_first_of("9") == 8 &&
            tag.find_first_not_of('9', 11) == std::string::npos)
            area_codes++;
    }
    fmt::print("{} lines, {} bundles: {} moving value, {} spam ({} with area codes), {} "
               "milestones\n",
               lines.size(), bundles, value_bundles, spam_bundles, area_codes, milestones);
    EXPECT_EQ(start, lines.size()) << "the file ends with a whole bundle";
    EXPECT_EQ(milestones, kMilestones);
    EXPECT_GT(value_bundles, 10u);
    EXPECT_GT(spam_bundles, 50u);
    EXPECT_GT(area_codes, 5u);
    EXPECT_EQ(securities, (std::set<std::size_t>{1, 2, 3}));
    __int128 total = 0;
    for (const auto &[address, balance] : balances)
        total += balance;
    EXPECT_TRUE(total == legacy::kSupply);
}

TEST(CliGenerateLegacyTest, RefusesStartBeforeTheCurrentLayout)
{
    auto r = RunCli("generate --protocol legacy --milestones 1 --start-timestamp 1500000000 "
                    "-o /dev/null");
    EXPECT_NE(r.exit_code, 0);
    auto s =
        RunCli("generate --protocol stardust --milestones 1 --snapshot /dev/null -o /dev/null");
    EXPECT_NE(s.exit_code, 0);
}

} // namespace
