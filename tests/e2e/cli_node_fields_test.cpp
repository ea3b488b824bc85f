// The node fields of `permanode generate --node-fields` and `permanode import-chronicle
// --node-fields` (client/cli/BUNDLE_FORMAT.md): what a node knows of each milestone, written from
// the generator's own ledger and from Chronicle's records, checked here against what ingest
// derives (the client library's UTXO changes), against the codec, and against the fixtures.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chronicle_model.hpp"
#include "codec/block.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/payload.hpp"
#include "codec/protocol_parameters.hpp"
#include "permanode/client.hpp"
#include "run_cli.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

namespace fs = std::filesystem;

namespace
{

using nlohmann::json;
using permanode::test::RunCli;
using namespace permanode;

// `generate --milestones 40 --seed 5` of the generator's revision 2 (every block references the
// one before it, so cones are in TIP-2's white-flag order); --node-fields must not change it.
constexpr const char *kSeed5Md5 = "3026317c29eabf3ccf47712f011e4e41";

const char *const kNodeFields[] = {"milestone_id", "milestone", "protocol_parameters", "created",
                                   "consumed"};

std::string Fixtures()
{
    const char *env = std::getenv("PERMANODE_FIXTURES");
    return env && *env ? env : PERMANODE_FIXTURES_DEFAULT;
}

std::vector<json> ReadLines(const fs::path &path)
{
    std::ifstream in(path);
    std::vector<json> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(json::parse(line));
    return lines;
}

std::string Md5(const fs::path &path)
{
    std::string command = "md5sum '" + path.string() + "'";
    FILE *pipe = popen(command.c_str(), "r");
    char digest[33] = {};
    if (pipe == nullptr || std::fscanf(pipe, "%32s", digest) != 1)
        digest[0] = '\0';
    if (pipe != nullptr)
        pclose(pipe);
    return digest;
}

codec::Bytes Hex(const json &value)
{
    return codec::FromHex(value.get<std::string>()).value();
}

std::vector<std::string> Sorted(std::vector<std::string> ids)
{
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> OutputIds(const json &records)
{
    std::vector<std::string> ids;
    for (const json &record : records)
        ids.push_back(record.at("output_id").get<std::string>());
    return Sorted(ids);
}

// A line without its node fields.
json WithoutNodeFields(json line)
{
    for (const char *field : kNodeFields)
        line.erase(field);
    return line;
}

// The `milestone` field decodes as a milestone payload of the line's index and timestamp, and
// `milestone_id` is its essence's hash.
void ExpectOwnMilestone(const json &line)
{
    ASSERT_TRUE(line.contains("milestone") && line.contains("milestone_id")) << line.dump(0);
    codec::Bytes bytes = Hex(line["milestone"]);
    codec::ByteReader reader{codec::ByteSpan(bytes)};
    codec::Payload payload = codec::DecodeBlockPayload(reader);
    EXPECT_EQ(reader.Remaining(), 0u);
    const auto *milestone = std::get_if<codec::MilestonePayload>(&payload);
    ASSERT_NE(milestone, nullptr);
    EXPECT_EQ(milestone->essence.index, line["milestone_index"].get<std::uint32_t>());
    EXPECT_EQ(milestone->essence.timestamp, line["milestone_timestamp"].get<std::uint32_t>());
    EXPECT_EQ(codec::ToHex(codec::ComputeMilestoneId(milestone->essence)),
              line["milestone_id"].get<std::string>());
}

// The milestone payloads a line's cone carries, serialized, by index.
std::map<std::uint32_t, codec::Bytes> PayloadsInCone(const json &line)
{
    std::map<std::uint32_t, codec::Bytes> payloads;
    for (const json &block : line["blocks"])
    {
        codec::Block decoded = codec::DecodeBlock(Hex(block["block"]));
        if (const auto *milestone = codec::MilestoneOf(decoded))
        {
            codec::ByteWriter writer(payloads[milestone->essence.index]);
            codec::EncodeMilestone(writer, *milestone);
        }
    }
    return payloads;
}

codec::ProtocolParameters ParametersOf(const json &line)
{
    const json &parameters = line.at("protocol_parameters");
    EXPECT_EQ(parameters.at("protocol_version"), 2);
    return codec::DecodeProtocolParameters(Hex(parameters.at("params")));
}

class NodeFieldsTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() /
               ("permanode-node-fields-" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path Run(const std::string &args, const char *name)
    {
        fs::path file = dir_ / name;
        auto r = RunCli(fmt::format("{} -o '{}'", args, file.string()));
        EXPECT_EQ(r.exit_code, 0) << r.output;
        return file;
    }

    fs::path dir_;
};

// Per milestone, the generator's created and consumed outputs are those ingest derives; each
// milestone's payload is its own and is the one N+1's cone carries; a consumed output's booking
// is where it was created.
TEST_F(NodeFieldsTest, GeneratedNodeFieldsEqualWhatIngestDerives)
{
    constexpr std::uint32_t kFirst = 1000, kMilestones = 300;
    fs::path file = Run(fmt::format("generate --node-fields --milestones {} --start-index {} "
                                    "--seed 9 --blocks-per-milestone 10-30 --tx-share 0.5 "
                                    "--genesis-addresses 40",
                                    kMilestones, kFirst),
                        "generated.ndjson");
    std::vector<json> lines = ReadLines(file);
    ASSERT_EQ(lines.size(), kMilestones);

    std::string database = test::FreshTestDatabase("node_fields_");
    std::string dsn = test::TestDsn() + " dbname=" + database;
    auto init = RunCli(fmt::format("init --dsn '{}' --network shimmer", dsn));
    ASSERT_EQ(init.exit_code, 0) << init.output;
    auto ingest = RunCli(fmt::format("ingest --dsn '{}' --no-measure '{}'", dsn, file.string()));
    ASSERT_EQ(ingest.exit_code, 0) << ingest.output;

    client::Client client(dsn);
    std::map<std::string, json> booked; // output ID -> {index, timestamp, block_id, output}
    std::size_t created = 0, consumed = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        const json &line = lines[i];
        std::uint32_t index = line["milestone_index"];
        SCOPED_TRACE(fmt::format("milestone {}", index));
        auto changes = client.GetUtxoChanges(static_cast<std::int32_t>(index));
        ASSERT_TRUE(changes.has_value());
        EXPECT_EQ(OutputIds(line["created"]), Sorted(changes->created_outputs));
        EXPECT_EQ(OutputIds(line["consumed"]), Sorted(changes->consumed_outputs));
        created += line["created"].size();
        consumed += line["consumed"].size();

        ExpectOwnMilestone(line);
        if (i + 1 < lines.size())
        {
            EXPECT_EQ(PayloadsInCone(lines[i + 1]).at(index), Hex(line["milestone"]));
        }
        EXPECT_EQ(line.contains("protocol_parameters"), i == 0);

        for (const json &record : line["created"])
            booked[record["output_id"].get<std::string>()] = {
                {"index", index}, {"timestamp", line["milestone_timestamp"]}, {"record", record}};
        for (const json &record : line["consumed"])
        {
            const json &at = booked.at(record["output_id"].get<std::string>());
            EXPECT_EQ(record["milestone_index_booked"], at["index"]);
            EXPECT_EQ(record["milestone_timestamp_booked"], at["timestamp"]);
            EXPECT_EQ(record["block_id"], at["record"]["block_id"]);
            EXPECT_EQ(record["output"], at["record"]["output"]);
        }
    }
    EXPECT_GT(consumed, 100u);
    EXPECT_GT(created, consumed);

    // The genesis: Shimmer's parameters with the generated supply, its outputs created first.
    codec::ProtocolParameters parameters = ParametersOf(lines[0]);
    EXPECT_EQ(parameters.network_name, "shimmer");
    EXPECT_EQ(parameters.token_supply, 40 * 1'000'000'000'000ull);
    EXPECT_EQ(OutputIds(lines[0]["snapshot_outputs"]).size(), 40u);
    for (const json &snapshot : lines[0]["snapshot_outputs"])
        EXPECT_NE(std::find(lines[0]["created"].begin(), lines[0]["created"].end(), snapshot),
                  lines[0]["created"].end());
}

// The flag adds fields and changes nothing else; without it the output is what it always was.
TEST_F(NodeFieldsTest, GenerateWithoutTheFlagIsUnchanged)
{
    fs::path plain = Run("generate --milestones 40 --seed 5", "plain.ndjson");
    EXPECT_EQ(Md5(plain), kSeed5Md5);
    fs::path with = Run("generate --milestones 40 --seed 5 --node-fields", "with.ndjson");
    std::vector<json> plain_lines = ReadLines(plain), with_lines = ReadLines(with);
    ASSERT_EQ(plain_lines.size(), with_lines.size());
    for (std::size_t i = 0; i < plain_lines.size(); ++i)
        EXPECT_EQ(WithoutNodeFields(with_lines[i]), plain_lines[i]) << "line " << i + 1;
    EXPECT_EQ(RunCli("generate --protocol chrysalis --node-fields --milestones 1").exit_code, 2);
}

// import-chronicle's node fields are in_memory_data.json's records: created and consumed output
// IDs, bookings and spending transactions, milestone IDs and Shimmer's parameters.
TEST_F(NodeFieldsTest, ChronicleNodeFieldsAreTheNodesRecords)
{
    fs::path source = fs::path(Fixtures()) / "in_memory_data.json";
    fs::path file =
        Run(fmt::format("import-chronicle --node-fields '{}'", source.string()), "shimmer.ndjson");
    fs::path plain = Run(fmt::format("import-chronicle '{}'", source.string()), "plain.ndjson");
    std::ifstream in(source);
    json data = json::parse(in);
    std::vector<json> lines = ReadLines(file), plain_lines = ReadLines(plain);
    ASSERT_EQ(lines.size(), 3u);
    ASSERT_EQ(plain_lines.size(), 3u);

    auto Hex32 = [](const json &binary) { return codec::ToHex(chronicle::Binary32(binary)); };
    auto IdOf = [](const json &record)
    { return codec::ToHex(codec::ToBytes(chronicle::ChronicleOutputId(record.at("output_id")))); };
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        const json &line = lines[i];
        SCOPED_TRACE(fmt::format("milestone {}", line["milestone_index"].get<int>()));
        EXPECT_EQ(WithoutNodeFields(line), plain_lines[i]);
        const json &milestone = data.at(std::to_string(line["milestone_index"].get<int>()));

        std::vector<std::string> created, consumed;
        for (const json &record : milestone["created"])
            created.push_back(IdOf(record));
        for (const json &record : milestone["consumed"])
            consumed.push_back(IdOf(record["output"]));
        EXPECT_EQ(OutputIds(line["created"]), Sorted(created));
        EXPECT_EQ(OutputIds(line["consumed"]), Sorted(consumed));
        ASSERT_EQ(line["consumed"].size(), milestone["consumed"].size());
        for (std::size_t j = 0; j < milestone["consumed"].size(); ++j)
        {
            const json &record = milestone["consumed"][j], &written = line["consumed"][j];
            EXPECT_EQ(written["milestone_index_booked"],
                      record["output"]["booked"]["milestone_index"]);
            EXPECT_EQ(written["milestone_timestamp_booked"],
                      record["output"]["booked"]["milestone_timestamp"]);
            EXPECT_EQ(written["transaction_id_spent"],
                      Hex32(record["spent_metadata"]["transaction_id"]));
        }

        EXPECT_EQ(line["milestone_id"], Hex32(milestone["milestone_data"]["milestone_id"]));
        ExpectOwnMilestone(line);
        if (i + 1 < lines.size()) // the real block's payload, byte for byte
        {
            EXPECT_EQ(PayloadsInCone(lines[i + 1]).at(line["milestone_index"]),
                      Hex(line["milestone"]));
        }
        EXPECT_EQ(line.contains("protocol_parameters"), i == 0);
    }
    codec::ProtocolParameters parameters = ParametersOf(lines[0]);
    EXPECT_EQ(parameters.network_name, "shimmer");
    EXPECT_EQ(parameters.bech32_hrp, "smr");
    EXPECT_EQ(parameters.token_supply, 1813620509061365ull);

    // The blocks form has no node records: the flag changes nothing there.
    fs::path blocks = fs::path(Fixtures()) / "blocks_ms_2418187.json";
    fs::path with = Run(fmt::format("import-chronicle --node-fields '{}'", blocks.string()),
                        "blocks_with.ndjson");
    fs::path without = Run(fmt::format("import-chronicle '{}'", blocks.string()), "blocks.ndjson");
    EXPECT_EQ(Md5(with), Md5(without));
}

} // namespace
