// The ledger as of any milestone (ledgerIndex=N), end to end, against the generators' own
// models: the test drives a Chrysalis generator (milestones 1-60) and a Stardust one (1001-1120)
// in process, keeps each one's unspent set (the set it draws inputs from, not our SQL) at a few
// milestones, and writes the bundles. Two databases get the same bundles, one in milestone order
// and one in reverse (every spend then arrives before the output it spends). The real server,
// logged in as a reader, must answer every question at every kept milestone as the model says.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "bundle.hpp"
#include "chrysalis_generator.hpp"
#include "codec/bech32.hpp"
#include "generator.hpp"
#include "run_cli.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using nlohmann::json;
using permanode::cli::ModelOutput;
using permanode::test::RunCli;
using permanode::test::RunningServer;
using permanode::test::TestDsn;
namespace codec = permanode::codec;
namespace cli = permanode::cli;

namespace
{

const std::vector<std::int32_t> kChrysalisKept = {1, 20, 45, 60};
const std::vector<std::int32_t> kStardustKept = {1001, 1010, 1033, 1060, 1087, 1120};
const std::vector<std::string> kDatabases = {"permanode_as_of", "permanode_as_of_reversed"};

// The model at a milestone, by owner (bech32 under smr, the archive's network).
struct Held
{
    std::map<std::string, std::vector<ModelOutput>> by_owner;
    std::set<std::string> ids;
};

std::string Owner(const ModelOutput &output)
{
    return codec::AddressToBech32(codec::Address{codec::AddressType::kEd25519, output.owner_hash},
                                  "smr");
}

Held Index(const std::vector<ModelOutput> &model)
{
    Held held;
    for (const auto &output : model)
    {
        held.by_owner[Owner(output)].push_back(output);
        held.ids.insert(output.output_id);
    }
    return held;
}

class AsOf : public ::testing::Test
{
  protected:
    // Generates `milestones` bundles into `lines`, keeping the model at the `kept` milestones.
    template <typename Generator>
    static void Generate(Generator &generator, std::uint32_t milestones,
                         const std::vector<std::int32_t> &kept, std::vector<std::string> &lines)
    {
        for (std::uint32_t i = 0; i < milestones; i++)
        {
            cli::MilestoneBundle bundle = generator.Next();
            lines.push_back(cli::FormatBundle(bundle));
            auto index = static_cast<std::int32_t>(bundle.milestone_index);
            if (std::count(kept.begin(), kept.end(), index))
                held_[index] = Index(generator.Model());
        }
    }

    static void SetUpTestSuite()
    {
        dir_ = ::testing::TempDir() + "as_of_" + std::to_string(getpid());
        std::filesystem::create_directories(dir_);
        std::vector<std::string> lines;

        cli::GeneratorOptions chrysalis = cli::ChrysalisGeneratorDefaults();
        chrysalis.milestones = 60;
        chrysalis.start_index = 1;
        chrysalis.transaction_share = 0.3;
        chrysalis.min_blocks = 40;
        chrysalis.max_blocks = 80;
        chrysalis.seed = 43;
        cli::ChrysalisLedgerGenerator chrysalis_generator(chrysalis);
        Generate(chrysalis_generator, chrysalis.milestones, kChrysalisKept, lines);

        cli::GeneratorOptions stardust;
        stardust.milestones = 120;
        stardust.start_index = 1001;
        stardust.start_timestamp = 1'700'000'000;
        stardust.transaction_share = 0.5;
        stardust.seed = 41;
        stardust.genesis_addresses = 60;
        cli::LedgerGenerator stardust_generator(stardust);
        Generate(stardust_generator, stardust.milestones, kStardustKept, lines);

        const std::string in_order = dir_ + "/in_order.ndjson";
        const std::string reversed = dir_ + "/reversed.ndjson";
        {
            std::ofstream out(in_order);
            for (const auto &line : lines)
                out << line << '\n';
            std::ofstream back(reversed);
            for (auto it = lines.rbegin(); it != lines.rend(); ++it)
                back << *it << '\n';
        }
        for (std::size_t d = 0; d < kDatabases.size(); d++)
        {
            {
                pqxx::connection admin(TestDsn());
                pqxx::nontransaction(admin).exec("DROP DATABASE IF EXISTS " + kDatabases[d] +
                                                 " WITH (FORCE)");
                pqxx::nontransaction(admin).exec("CREATE DATABASE " + kDatabases[d]);
            }
            {
                // Ranges of 20 milestones: the kept milestones are in several ranges each.
                pqxx::connection db(DatabaseDsn(d));
                pqxx::nontransaction tx(db);
                tx.exec("SET client_min_messages = warning");
                tx.exec("CREATE EXTENSION permanode CASCADE");
                tx.exec("SELECT permanode.init('shimmer')");
                tx.exec("SELECT permanode.set_chunk_size(table_name, 20) FROM "
                        "permanode.ledger_tables");
                tx.exec("DO $$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE "
                        "permanode_reader; EXCEPTION WHEN duplicate_object OR unique_violation "
                        "THEN NULL; END$$");
            }
            // One connection: the reversed file must arrive exactly in its order.
            auto result = RunCli("ingest --no-measure --jobs 1 '" + (d == 0 ? in_order : reversed) +
                                 "' --dsn '" + DatabaseDsn(d) + "'");
            ASSERT_EQ(result.exit_code, 0) << result.output;
            servers_[d] = new RunningServer(DatabaseDsn(d) + " user=permanode_http_test");
        }
    }
    static void TearDownTestSuite()
    {
        for (auto *&server : servers_)
        {
            delete server;
            server = nullptr;
        }
        std::filesystem::remove_all(dir_);
    }
    void SetUp() override
    {
        for (auto *server : servers_)
            ASSERT_NE(server, nullptr) << "the ledgers were not set up";
    }
    static std::string DatabaseDsn(std::size_t d) { return TestDsn() + " dbname=" + kDatabases[d]; }

    static json GetJson(std::size_t d, const std::string &path, int status = 200)
    {
        auto result = servers_[d]->Get(path);
        if (!result)
        {
            ADD_FAILURE() << "no response for " << path;
            return json();
        }
        EXPECT_EQ(result->status, status) << path << ": " << result->body;
        return json::parse(result->body, nullptr, false);
    }

    // Every item of a paged list (pageSize 4), checking each page's ledgerIndex.
    static std::vector<json> AllPages(std::size_t d, const std::string &path, std::int32_t at)
    {
        std::vector<json> items;
        std::string cursor;
        for (int pages = 0; pages < 500; pages++)
        {
            json page = GetJson(d, path + (path.find('?') == std::string::npos ? "?" : "&") +
                                       "pageSize=4&ledgerIndex=" + std::to_string(at) +
                                       (cursor.empty() ? "" : "&cursor=" + cursor));
            EXPECT_EQ(page["ledgerIndex"], at) << path;
            EXPECT_LE(page["items"].size(), 4u) << path;
            for (const auto &item : page["items"])
                items.push_back(item);
            cursor = page.value("cursor", "");
            if (cursor.empty())
                break;
        }
        return items;
    }

    // The owners of a kept milestone to ask about: the ones holding the most outputs, and a few
    // holding one.
    static std::vector<std::string> Owners(std::int32_t at)
    {
        std::vector<std::pair<std::size_t, std::string>> counted;
        for (const auto &[owner, outputs] : held_.at(at).by_owner)
            counted.emplace_back(outputs.size(), owner);
        std::sort(counted.rbegin(), counted.rend());
        std::vector<std::string> owners;
        for (std::size_t i = 0; i < counted.size() && owners.size() < 6; i++)
            owners.push_back(counted[i].second);
        for (auto it = counted.rbegin(); it != counted.rend() && owners.size() < 9; ++it)
            owners.push_back(it->second);
        return owners;
    }

    static std::string dir_;
    static RunningServer *servers_[2];
    static std::map<std::int32_t, Held> held_;
};
std::string AsOf::dir_;
RunningServer *AsOf::servers_[2] = {nullptr, nullptr};
std::map<std::int32_t, Held> AsOf::held_;

} // namespace

TEST_F(AsOf, StardustBalancesPerKindAreTheModels)
{
    for (std::size_t d = 0; d < kDatabases.size(); d++)
    {
        for (std::int32_t at : kStardustKept)
        {
            for (const auto &owner : Owners(at))
            {
                SCOPED_TRACE(kDatabases[d] + ", milestone " + std::to_string(at) + ", " + owner);
                std::map<std::string, std::uint64_t> by_kind;
                std::uint64_t total = 0;
                for (const auto &output : held_.at(at).by_owner.at(owner))
                {
                    by_kind[output.kind] += output.amount;
                    total += output.amount;
                }
                json body = GetJson(d, "/api/explorer/v2/balance/" + owner +
                                           "?ledgerIndex=" + std::to_string(at));
                EXPECT_EQ(body["ledgerIndex"], at);
                EXPECT_EQ(body["totalBalance"], std::to_string(total));
                json expected = json::object();
                for (const auto &[kind, amount] : by_kind)
                    expected[kind] = std::to_string(amount);
                EXPECT_EQ(body["balanceByKind"], expected);
            }
        }
    }
}

TEST_F(AsOf, HeldOutputPagesAreTheModels)
{
    for (std::size_t d = 0; d < kDatabases.size(); d++)
    {
        for (std::int32_t at : kStardustKept)
        {
            for (const auto &owner : Owners(at))
            {
                SCOPED_TRACE(kDatabases[d] + ", milestone " + std::to_string(at) + ", " + owner);
                std::map<std::string, std::uint64_t> expected;
                for (const auto &output : held_.at(at).by_owner.at(owner))
                    expected[output.output_id] = output.amount;
                std::map<std::string, std::uint64_t> listed;
                std::int32_t previous = at;
                for (const auto &item :
                     AllPages(d, "/api/explorer/v2/balance/" + owner + "/outputs", at))
                {
                    EXPECT_TRUE(listed
                                    .emplace(item["outputId"],
                                             std::stoull(item["amount"].get<std::string>()))
                                    .second)
                        << item << " twice";
                    // Newest first, held at the milestone: booked by it, spent after it.
                    EXPECT_LE(item["milestoneIndexBooked"].get<std::int32_t>(), previous);
                    previous = item["milestoneIndexBooked"];
                    if (item.contains("milestoneIndexSpent"))
                    {
                        EXPECT_GT(item["milestoneIndexSpent"].get<std::int32_t>(), at);
                    }
                }
                EXPECT_EQ(listed, expected);
            }
        }
    }
}

TEST_F(AsOf, IndexerPagesAreTheModels)
{
    const std::map<std::string, std::string> routes = {
        {"basic", "/api/indexer/v1/outputs/basic?address="},
        {"nft", "/api/indexer/v1/outputs/nft?address="},
        {"alias", "/api/indexer/v1/outputs/alias?stateController="}};
    for (std::size_t d = 0; d < kDatabases.size(); d++)
    {
        for (std::int32_t at : kStardustKept)
        {
            for (const auto &owner : Owners(at))
            {
                for (const auto &[kind, route] : routes)
                {
                    SCOPED_TRACE(kDatabases[d] + ", milestone " + std::to_string(at) + ", " +
                                 owner + ", " + kind);
                    std::set<std::string> expected;
                    for (const auto &output : held_.at(at).by_owner.at(owner))
                        if (output.kind == kind)
                            expected.insert(output.output_id);
                    std::set<std::string> listed;
                    for (const auto &id : AllPages(d, route + owner, at))
                        EXPECT_TRUE(listed.insert(id.get<std::string>()).second) << id;
                    EXPECT_EQ(listed, expected);
                }
            }
        }
    }
}

TEST_F(AsOf, ChainOutputsAreTheModels)
{
    int checked = 0;
    for (std::size_t d = 0; d < kDatabases.size(); d++)
    {
        for (std::int32_t at : kStardustKept)
        {
            for (const auto &[owner, outputs] : held_.at(at).by_owner)
            {
                for (const auto &output : outputs)
                {
                    if (output.chain_id.empty())
                        continue;
                    json body =
                        GetJson(d, "/api/indexer/v1/outputs/" + output.kind + "/" +
                                       output.chain_id + "?ledgerIndex=" + std::to_string(at));
                    EXPECT_EQ(body["items"], json::array({output.output_id}))
                        << output.kind << " " << output.chain_id << " at " << at;
                    EXPECT_EQ(body["ledgerIndex"], at);
                    checked++;
                }
            }
        }
    }
    EXPECT_GT(checked, 20);
}

TEST_F(AsOf, OutputMetadataIsSpentFromTheSpendingMilestoneOn)
{
    // Outputs held at one kept milestone and gone at the next were spent in between; outputs
    // held at the next and not at the first were created in between.
    int spent = 0, created = 0;
    for (std::size_t k = 0; k + 1 < kStardustKept.size(); k++)
    {
        const std::int32_t first = kStardustKept[k], next = kStardustKept[k + 1];
        const Held &before = held_.at(first), &after = held_.at(next);
        for (std::size_t d = 0; d < kDatabases.size(); d++)
        {
            int budget = 4;
            for (const auto &id : before.ids)
            {
                if (after.ids.count(id) || budget == 0)
                    continue;
                budget--;
                std::string path = "/api/core/v2/outputs/" + id + "/metadata?ledgerIndex=";
                json then = GetJson(d, path + std::to_string(first));
                EXPECT_EQ(then["isSpent"], false) << id << " at " << first;
                EXPECT_EQ(then["ledgerIndex"], first);
                json later = GetJson(d, path + std::to_string(next));
                EXPECT_EQ(later["isSpent"], true) << id << " at " << next;
                EXPECT_GT(later["milestoneIndexSpent"].get<std::int32_t>(), first);
                EXPECT_LE(later["milestoneIndexSpent"].get<std::int32_t>(), next);
                spent++;
            }
            budget = 3;
            for (const auto &id : after.ids)
            {
                if (before.ids.count(id) || budget == 0)
                    continue;
                budget--;
                json body = GetJson(d,
                                    "/api/core/v2/outputs/" + id +
                                        "/metadata?ledgerIndex=" + std::to_string(first),
                                    404);
                EXPECT_NE(body["error"]["message"].get<std::string>().find("created at milestone"),
                          std::string::npos)
                    << body;
                created++;
            }
        }
    }
    EXPECT_GT(spent, 30);
    EXPECT_GT(created, 20);
}

TEST_F(AsOf, ChrysalisBalancesAndOutputsAreTheModels)
{
    for (std::size_t d = 0; d < kDatabases.size(); d++)
    {
        for (std::int32_t at : kChrysalisKept)
        {
            for (const auto &owner : Owners(at))
            {
                SCOPED_TRACE(kDatabases[d] + ", milestone " + std::to_string(at) + ", " + owner);
                std::uint64_t total = 0;
                std::set<std::string> expected;
                for (const auto &output : held_.at(at).by_owner.at(owner))
                {
                    total += output.amount;
                    expected.insert(output.output_id);
                }
                // The explorer's balance, in the era of the milestone asked for.
                json explorer = GetJson(d, "/api/explorer/v2/balance/" + owner +
                                               "?ledgerIndex=" + std::to_string(at));
                EXPECT_EQ(explorer["totalBalance"], std::to_string(total));
                EXPECT_EQ(explorer["balanceByKind"], json({{"legacy", std::to_string(total)}}));
                // The REST API v1, under the Chrysalis network's own HRP.
                std::string iota = codec::AddressToBech32(
                    codec::Address{codec::AddressType::kEd25519,
                                   held_.at(at).by_owner.at(owner).front().owner_hash},
                    "iota");
                json balance =
                    GetJson(d, "/api/v1/addresses/" + iota + "?ledgerIndex=" + std::to_string(at));
                EXPECT_EQ(balance["data"]["balance"], total);
                EXPECT_EQ(balance["data"]["ledgerIndex"], at);
                json outputs = GetJson(d, "/api/v1/addresses/" + iota +
                                              "/outputs?ledgerIndex=" + std::to_string(at));
                std::set<std::string> listed;
                for (const auto &id : outputs["data"]["outputIds"])
                    listed.insert("0x" + id.get<std::string>());
                EXPECT_EQ(listed, expected);
            }
        }
    }
}

TEST_F(AsOf, MilestonesNotHeldAreBadRequests)
{
    const std::string owner = Owners(1120).front();
    for (const char *at : {"1121", "0", "-1", "x", "99999999999"})
    {
        json body = GetJson(
            0, "/api/explorer/v2/balance/" + owner + "?ledgerIndex=" + std::string(at), 400);
        EXPECT_NE(body["error"]["message"].get<std::string>().find("ledgerIndex"),
                  std::string::npos)
            << at << ": " << body;
        GetJson(0, "/api/indexer/v1/outputs/basic?address=" + owner + "&ledgerIndex=" + at, 400);
    }
    // A Stardust milestone is not a Chrysalis one for the REST API v1.
    const ModelOutput &chrysalis = held_.at(60).by_owner.begin()->second.front();
    std::string iota = codec::AddressToBech32(
        codec::Address{codec::AddressType::kEd25519, chrysalis.owner_hash}, "iota");
    json body = GetJson(0, "/api/v1/addresses/" + iota + "?ledgerIndex=1060", 400);
    EXPECT_NE(body["error"]["message"].get<std::string>().find("not a Chrysalis milestone"),
              std::string::npos)
        << body;
}
