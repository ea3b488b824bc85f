// `permanode decode` on the real Shimmer blocks and Chrysalis messages of the fixtures: every ID as
// the network computed it, and bad input rejected with its line, field and byte offset.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_cli.hpp"

namespace
{

using permanode::test::RunCli;

std::string Fixtures()
{
    const char *env = std::getenv("PERMANODE_FIXTURES");
    return env && *env ? env : PERMANODE_FIXTURES_DEFAULT;
}

// MongoDB extended JSON's {"$binary": {"base64": ...}} as lowercase hex.
std::string HexOfBinary(const nlohmann::json &binary)
{
    static const std::string kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text = binary.at("$binary").at("base64").get<std::string>();
    std::string hex;
    unsigned bits = 0, value = 0;
    for (char c : text)
    {
        size_t digit = kAlphabet.find(c);
        if (digit == std::string::npos)
            continue; // padding
        value = (value << 6) | static_cast<unsigned>(digit);
        bits += 6;
        if (bits >= 8)
        {
            bits -= 8;
            hex += fmt::format("{:02x}", (value >> bits) & 0xff);
        }
    }
    return hex;
}

struct FixtureBlock
{
    std::string id_hex;  // 0x...
    std::string raw_hex; // without 0x
};

std::vector<FixtureBlock> FixtureBlocks()
{
    std::ifstream in(Fixtures() + "/blocks_ms_2418187.json");
    nlohmann::json blocks = nlohmann::json::parse(in);
    std::vector<FixtureBlock> out;
    for (const auto &b : blocks)
        out.push_back({"0x" + HexOfBinary(b.at("_id")), HexOfBinary(b.at("raw"))});
    return out;
}

std::string WriteLines(const std::vector<std::string> &lines)
{
    auto path =
        std::filesystem::temp_directory_path() / fmt::format("permanode-decode-{}.txt", ::getpid());
    std::ofstream out(path);
    for (const auto &line : lines)
        out << line << "\n";
    return path.string();
}

} // namespace

TEST(CliDecodeTest, EveryFixtureBlockDecodesToItsNetworkId)
{
    std::vector<FixtureBlock> blocks = FixtureBlocks();
    ASSERT_EQ(blocks.size(), 88u);
    std::vector<std::string> lines;
    for (const auto &b : blocks)
        lines.push_back(b.raw_hex);
    std::string file = WriteLines(lines);
    auto r = RunCli(fmt::format("decode - < '{}'", file));
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::istringstream out(r.output);
    std::string line;
    size_t i = 0, transactions = 0, milestones = 0;
    while (std::getline(out, line))
    {
        ASSERT_LT(i, blocks.size());
        nlohmann::json json = nlohmann::json::parse(line);
        EXPECT_EQ(json.at("blockId"), blocks[i].id_hex) << "block " << i;
        EXPECT_EQ(json.at("block").at("protocolVersion"), 2);
        transactions += json.contains("transactionId");
        milestones += json.contains("milestoneId");
        i++;
    }
    EXPECT_EQ(i, blocks.size());
    EXPECT_GT(transactions, 0u);
    EXPECT_EQ(milestones, 1u); // the cone of milestone 2418187 holds its milestone block
}

TEST(CliDecodeTest, OneArgumentIsPrettyPrinted)
{
    FixtureBlock block = FixtureBlocks().front();
    auto r = RunCli("decode 0x" + block.raw_hex);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\n  \"blockId\": \"" + block.id_hex + "\""), std::string::npos)
        << r.output;
}

TEST(CliDecodeTest, TruncatedBlockNamesItsLineFieldAndOffset)
{
    std::vector<FixtureBlock> blocks = FixtureBlocks();
    std::string cut = blocks[1].raw_hex.substr(0, blocks[1].raw_hex.size() - 2);
    std::string file = WriteLines({blocks[0].raw_hex, cut, blocks[2].raw_hex});
    auto r = RunCli(fmt::format("decode - < '{}'", file));
    std::filesystem::remove(file);
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find(blocks[0].id_hex), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("stdin:2: block."), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(" at byte "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(blocks[2].id_hex), std::string::npos) << "stops at the bad line";
}

TEST(CliDecodeTest, EveryChrysalisFixtureMessageDecodesToItsId)
{
    std::ifstream in(Fixtures() + "/../chrysalis/chrysalis_messages.json");
    nlohmann::json messages = nlohmann::json::parse(in).at("messages");
    ASSERT_EQ(messages.size(), 11u);
    std::vector<std::string> lines;
    for (const auto &m : messages)
        lines.push_back(m.at("message_hex").get<std::string>());
    std::string file = WriteLines(lines);
    auto r = RunCli(fmt::format("decode --protocol chrysalis - < '{}'", file));
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::istringstream out(r.output);
    std::string line;
    size_t i = 0;
    while (std::getline(out, line))
    {
        ASSERT_LT(i, messages.size());
        nlohmann::json json = nlohmann::json::parse(line);
        std::string id = messages[i].at("message_id_computed").get<std::string>();
        EXPECT_EQ("0x" + json.at("messageId").get<std::string>(),
                  id.rfind("0x", 0) == 0 ? id : "0x" + id)
            << messages[i].at("label");
        EXPECT_TRUE(json.at("message").contains("parentMessageIds"));
        i++;
    }
    EXPECT_EQ(i, messages.size());
    // A Stardust block is not a Chrysalis message: read as one, its bytes after the first eight
    // (taken for the network ID) give an impossible parent count.
    auto stardust = RunCli("decode --protocol chrysalis " + FixtureBlocks().front().raw_hex);
    EXPECT_EQ(stardust.exit_code, 4) << stardust.output;
    EXPECT_NE(stardust.output.find("message.parents at byte 8"), std::string::npos)
        << stardust.output;
}

TEST(CliDecodeTest, NotHexIsBadInput)
{
    auto r = RunCli("decode 0xzz");
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find("argument 1: not hex"), std::string::npos) << r.output;
}

// The legacy fixtures' transactions (2673 trytes each), by file: trytes and hash.
std::vector<std::pair<std::string, std::string>> LegacyTransactions()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &entry : std::filesystem::directory_iterator(Fixtures() + "/../legacy"))
    {
        if (entry.path().extension() != ".json")
            continue;
        std::ifstream in(entry.path());
        nlohmann::json fixture = nlohmann::json::parse(in);
        for (const auto &tx : fixture.at("transactions"))
            out.emplace_back(tx.at("trytes").get<std::string>(), tx.at("hash").get<std::string>());
    }
    return out;
}

TEST(CliDecodeTest, EveryLegacyFixtureTransactionDecodesToItsHash)
{
    std::vector<std::pair<std::string, std::string>> txs = LegacyTransactions();
    ASSERT_EQ(txs.size(), 153u);
    std::vector<std::string> lines;
    for (const auto &tx : txs)
        lines.push_back(tx.first);
    std::string file = WriteLines(lines);
    auto r = RunCli(fmt::format("decode --protocol legacy - < '{}'", file));
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 2000);
    std::istringstream out(r.output);
    std::string line;
    size_t i = 0, old_layout = 0;
    while (std::getline(out, line))
    {
        ASSERT_LT(i, txs.size());
        nlohmann::json json = nlohmann::json::parse(line);
        EXPECT_EQ(json.at("hash"), txs[i].second);
        EXPECT_EQ(json.at("signatureMessageFragment").get<std::string>(),
                  txs[i].first.substr(0, 2187));
        EXPECT_EQ(json.size(), json.contains("layout") ? 17u : 16u);
        old_layout += json.contains("layout");
        i++;
    }
    EXPECT_EQ(i, txs.size());
    EXPECT_EQ(old_layout, 1u); // the 2017 milestone transaction
}

TEST(CliDecodeTest, BadLegacyTransactionNamesItsLineAndTryte)
{
    std::vector<std::pair<std::string, std::string>> txs = LegacyTransactions();
    ASSERT_GE(txs.size(), 3u);
    std::string bad = txs[1].first;
    bad[2200] = 'a';
    std::string file = WriteLines({txs[0].first, bad, txs[2].first});
    auto r = RunCli(fmt::format("decode --protocol legacy - < '{}'", file));
    std::filesystem::remove(file);
    EXPECT_EQ(r.exit_code, 4) << r.output;
    EXPECT_NE(r.output.find(txs[0].second), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("stdin:2: transaction at tryte 2200: 'a' is not a tryte"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find(txs[2].second), std::string::npos) << "stops at the bad line";

    auto short_one = RunCli("decode --protocol legacy " + txs[0].first.substr(0, 2000));
    EXPECT_EQ(short_one.exit_code, 4) << short_one.output;
    EXPECT_NE(short_one.output.find("argument 1: transaction at tryte 2000: a transaction has "
                                    "2673 trytes, got 2000"),
              std::string::npos)
        << short_one.output;
    // One argument is pretty-printed, like the other protocols.
    auto one = RunCli("decode --protocol legacy " + txs[0].first);
    EXPECT_EQ(one.exit_code, 0) << one.output;
    EXPECT_NE(one.output.find("\n  \"hash\": \"" + txs[0].second + "\""), std::string::npos);
}
