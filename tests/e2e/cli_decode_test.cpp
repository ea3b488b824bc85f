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
