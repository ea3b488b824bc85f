// The indexer's unlockableByAddress against TIP-18's expiration unlock condition, end to end: an
// output with an expiration is unlockable by its address before its time and by its return
// address at or after it, judged at the ledger's own time (the newest milestone's timestamp).
// Two generated ledgers go into one database, the second starting eight days after the first:
// every expiration of the first (at most 7 days after its output) has passed at the newest
// milestone, none of the second's has (at least an hour after its output, which the second's
// few minutes of milestones never reach). The expected lists come from the bundles, decoded with
// the codec; the server is the real one, as the read-only login.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "codec/bech32.hpp"
#include "codec/block.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/ledger.hpp"
#include "codec/reader.hpp"
#include "run_cli.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using nlohmann::json;
using permanode::test::RunCli;
using permanode::test::RunningServer;
using permanode::test::TestDsn;
namespace codec = permanode::codec;

namespace
{

constexpr std::uint32_t kFirstStart = 1'700'000'000;
constexpr std::uint32_t kSecondStart = kFirstStart + 8 * 86400;
const std::string kDatabase = "permanode_http_unlockable";

// One output a bundle creates, as the test needs it.
struct CreatedOutput
{
    std::string id;
    codec::OutputType kind;
    std::string address;                     // bech32, empty when none
    std::string return_address;              // of the expiration, empty when none
    std::optional<std::uint32_t> expiration; // unix seconds
};

// What the bundles hold: every output created, the IDs spent, the newest milestone.
struct Ledger
{
    std::vector<CreatedOutput> created;
    std::set<std::string> spent;
    std::int32_t newest_index = 0;
    std::uint32_t newest_timestamp = 0;
};

std::string Bech32(const std::optional<codec::Address> &address)
{
    return address ? codec::AddressToBech32(*address, "smr") : std::string();
}

CreatedOutput Describe(const codec::OutputId &id, const codec::Output &output)
{
    codec::IndexedFields fields = codec::IndexOutput(output, id);
    return {codec::ToHex(codec::ToBytes(id)), fields.kind, Bech32(fields.address),
            Bech32(fields.expiration_return_address), fields.expiration};
}

// Reads a bundle file into `ledger`: snapshot outputs, and what included transactions create
// and spend.
void ReadBundles(const std::string &path, Ledger &ledger)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty())
        {
            continue;
        }
        json bundle = json::parse(line);
        std::int32_t index = bundle["milestone_index"];
        if (index > ledger.newest_index)
        {
            ledger.newest_index = index;
            ledger.newest_timestamp = bundle["milestone_timestamp"];
        }
        for (const auto &snapshot : bundle.value("snapshot_outputs", json::array()))
        {
            auto id_bytes = codec::FromHexFixed<34>(snapshot["output_id"].get<std::string>());
            auto bytes = codec::FromHex(snapshot["output"].get<std::string>());
            ASSERT_TRUE(id_bytes && bytes);
            codec::ByteReader reader(*bytes);
            codec::Output output = codec::DecodeOutput(reader, codec::kTransactionOutputTypes);
            ledger.created.push_back(Describe(codec::OutputIdFromBytes(*id_bytes), output));
        }
        for (const auto &entry : bundle["blocks"])
        {
            if (entry["inclusion_state"] != "included")
            {
                continue;
            }
            auto bytes = codec::FromHex(entry["block"].get<std::string>());
            ASSERT_TRUE(bytes);
            codec::DecodedBlock decoded = codec::DecodeBlockWithIds(*bytes);
            const codec::TransactionPayload *payload = codec::TransactionOf(decoded.block);
            ASSERT_TRUE(payload != nullptr && decoded.transaction_id);
            for (const auto &created : codec::CreatedOutputs(*payload, *decoded.transaction_id))
            {
                ledger.created.push_back(Describe(created.output_id, created.output));
            }
            for (const auto &consumed : codec::ConsumedOutputs(*payload))
            {
                ledger.spent.insert(codec::ToHex(codec::ToBytes(consumed)));
            }
        }
    }
}

// TIP-18: the address that can unlock the output at `now`.
std::string UnlockerAt(const CreatedOutput &output, std::uint32_t now)
{
    return output.expiration && *output.expiration <= now ? output.return_address : output.address;
}

class HttpUnlockable : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        dir_ = ::testing::TempDir() + "unlockable_" + std::to_string(getpid());
        std::filesystem::create_directories(dir_);
        const std::string first = dir_ + "/first.ndjson";
        const std::string second = dir_ + "/second.ndjson";
        auto generate = [](const std::string &args)
        {
            auto result = RunCli("generate --milestones 40 " + args);
            ASSERT_EQ(result.exit_code, 0) << result.output;
        };
        generate("--start-index 1000 --start-timestamp " + std::to_string(kFirstStart) +
                 " --seed 31 -o '" + first + "'");
        generate("--start-index 5000 --start-timestamp " + std::to_string(kSecondStart) +
                 " --seed 32 -o '" + second + "'");

        {
            pqxx::connection admin(TestDsn());
            pqxx::nontransaction(admin).exec("DROP DATABASE IF EXISTS " + kDatabase +
                                             " WITH (FORCE)");
            pqxx::nontransaction(admin).exec("CREATE DATABASE " + kDatabase);
        }
        {
            // Ranges of 1000 milestones: the two ledgers are in ranges 1 and 5.
            pqxx::connection db(DatabaseDsn());
            pqxx::nontransaction tx(db);
            tx.exec("SET client_min_messages = warning");
            tx.exec("CREATE EXTENSION permanode CASCADE");
            tx.exec("SELECT permanode.init('shimmer')");
            tx.exec("SELECT permanode.set_chunk_size(table_name, 1000) FROM "
                    "permanode.ledger_tables");
            tx.exec("DO $$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader; "
                    "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END$$");
        }
        for (const auto &file : {first, second})
        {
            auto result =
                RunCli("ingest --no-measure '" + file + "' --dsn '" + DatabaseDsn() + "'");
            ASSERT_EQ(result.exit_code, 0) << result.output;
        }
        ledger_ = new Ledger;
        ReadBundles(first, *ledger_);
        ReadBundles(second, *ledger_);
        server_ = new RunningServer(DatabaseDsn() + " user=permanode_http_test");
    }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
        delete ledger_;
        ledger_ = nullptr;
        std::filesystem::remove_all(dir_);
    }
    void SetUp() override { ASSERT_NE(server_, nullptr) << "the ledgers were not set up"; }
    static std::string DatabaseDsn() { return TestDsn() + " dbname=" + kDatabase; }

    // The IDs one indexer request lists (a single page), checking the page's ledger index: the
    // newest milestone's, or `at` (ledgerIndex).
    static std::set<std::string> Listed(const std::string &kind, const std::string &address,
                                        bool include_spent, std::int32_t at = 0)
    {
        std::string path = "/api/indexer/v1/outputs/" + kind + "?pageSize=1000" +
                           (include_spent ? "&includeSpent=true" : "") +
                           "&unlockableByAddress=" + address +
                           (at ? "&ledgerIndex=" + std::to_string(at) : "");
        auto result = server_->Get(path);
        if (!result)
        {
            ADD_FAILURE() << "no response for " << path;
            return {};
        }
        EXPECT_EQ(result->status, 200) << path << ": " << result->body;
        json body = json::parse(result->body);
        EXPECT_FALSE(body.contains("cursor")) << path;
        EXPECT_EQ(body["ledgerIndex"], at ? at : ledger_->newest_index) << path;
        return body["items"].get<std::set<std::string>>();
    }

    // The outputs of a kind that `address` can unlock at the newest milestone's time.
    static std::set<std::string> Expected(codec::OutputType kind, const std::string &address,
                                          bool include_spent)
    {
        std::set<std::string> ids;
        for (const auto &output : ledger_->created)
        {
            if (output.kind == kind && UnlockerAt(output, ledger_->newest_timestamp) == address &&
                (include_spent || ledger_->spent.count(output.id) == 0))
            {
                ids.insert(output.id);
            }
        }
        return ids;
    }

    static std::string dir_; // the bundle files
    static RunningServer *server_;
    static Ledger *ledger_;
};
std::string HttpUnlockable::dir_;
RunningServer *HttpUnlockable::server_ = nullptr;
Ledger *HttpUnlockable::ledger_ = nullptr;

} // namespace

TEST_F(HttpUnlockable, ExpiredGoesToTheReturnAddressUnexpiredStaysWithTheOwner)
{
    ASSERT_EQ(ledger_->newest_index, 5039);
    const std::uint32_t now = ledger_->newest_timestamp;
    // An unspent basic output of each case whose two addresses differ (the generator's return
    // address is the sender's, the address a drawn one).
    const CreatedOutput *expired = nullptr;
    const CreatedOutput *unexpired = nullptr;
    for (const auto &output : ledger_->created)
    {
        if (output.kind != codec::OutputType::kBasic || !output.expiration ||
            output.address == output.return_address || ledger_->spent.count(output.id) != 0)
        {
            continue;
        }
        const CreatedOutput *&slot = *output.expiration <= now ? expired : unexpired;
        slot = slot == nullptr ? &output : slot;
    }
    ASSERT_NE(expired, nullptr) << "the first ledger has no unspent output with an expiration";
    ASSERT_NE(unexpired, nullptr) << "the second ledger has no unspent output with an expiration";

    for (bool include_spent : {false, true})
    {
        SCOPED_TRACE(include_spent ? "all outputs" : "unspent outputs");
        EXPECT_EQ(Listed("basic", expired->return_address, include_spent).count(expired->id), 1u);
        EXPECT_EQ(Listed("basic", expired->address, include_spent).count(expired->id), 0u);
        EXPECT_EQ(Listed("basic", unexpired->address, include_spent).count(unexpired->id), 1u);
        EXPECT_EQ(Listed("basic", unexpired->return_address, include_spent).count(unexpired->id),
                  0u);
    }
}

TEST_F(HttpUnlockable, ListsAreExactlyWhatEachAddressCanUnlock)
{
    // Every address that owns, or is the return address of, an output with an expiration.
    std::set<std::string> addresses;
    for (const auto &output : ledger_->created)
    {
        if (output.expiration)
        {
            addresses.insert(output.address);
            addresses.insert(output.return_address);
        }
    }
    ASSERT_GE(addresses.size(), 4u);
    for (const auto &address : addresses)
    {
        for (bool include_spent : {false, true})
        {
            SCOPED_TRACE(address + (include_spent ? ", all outputs" : ", unspent outputs"));
            EXPECT_EQ(Listed("basic", address, include_spent),
                      Expected(codec::OutputType::kBasic, address, include_spent));
            EXPECT_EQ(Listed("nft", address, include_spent),
                      Expected(codec::OutputType::kNft, address, include_spent));
        }
    }
}

TEST_F(HttpUnlockable, PagesWithCursorsCoverTheList)
{
    // The return address of the most expired outputs: its list mixes outputs it owns with
    // outputs handed back to it.
    std::map<std::string, int> handed_back;
    for (const auto &output : ledger_->created)
    {
        if (output.expiration && *output.expiration <= ledger_->newest_timestamp)
        {
            handed_back[output.return_address]++;
        }
    }
    ASSERT_FALSE(handed_back.empty());
    auto most = std::max_element(handed_back.begin(), handed_back.end(),
                                 [](const auto &a, const auto &b) { return a.second < b.second; });
    const std::string address = most->first;
    for (bool include_spent : {false, true})
    {
        SCOPED_TRACE(include_spent ? "all outputs" : "unspent outputs");
        std::set<std::string> paged;
        std::string cursor;
        int pages = 0;
        do
        {
            auto result = server_->Get("/api/indexer/v1/outputs/basic?pageSize=3" +
                                       std::string(include_spent ? "&includeSpent=true" : "") +
                                       "&unlockableByAddress=" + address +
                                       (cursor.empty() ? "" : "&cursor=" + cursor));
            ASSERT_TRUE(result);
            ASSERT_EQ(result->status, 200) << result->body;
            json page = json::parse(result->body);
            ASSERT_LE(page["items"].size(), 3u);
            for (const auto &id : page["items"])
            {
                EXPECT_TRUE(paged.insert(id.get<std::string>()).second) << id << " twice";
            }
            cursor = page.value("cursor", "");
            pages++;
        } while (!cursor.empty() && pages < 200);
        std::set<std::string> expected =
            Expected(codec::OutputType::kBasic, address, include_spent);
        EXPECT_GT(expected.size(), 3u);
        EXPECT_EQ(paged, expected);
    }
}

TEST_F(HttpUnlockable, AtAnEarlierMilestoneExpirationsAreJudgedAtItsTime)
{
    // At the first ledger's last milestone (1039) the second ledger does not exist yet, and no
    // expiration of the first has passed: each output is its owner's, also those that the
    // return address unlocks now.
    Ledger first;
    ReadBundles(dir_ + "/first.ndjson", first);
    ASSERT_EQ(first.newest_index, 1039);
    std::set<std::string> addresses;
    const CreatedOutput *expired_now = nullptr;
    for (const auto &output : first.created)
    {
        if (!output.expiration)
            continue;
        addresses.insert(output.address);
        addresses.insert(output.return_address);
        if (output.kind == codec::OutputType::kBasic && first.spent.count(output.id) == 0 &&
            output.address != output.return_address &&
            *output.expiration <= ledger_->newest_timestamp && expired_now == nullptr)
            expired_now = &output;
    }
    ASSERT_NE(expired_now, nullptr);
    EXPECT_EQ(Listed("basic", expired_now->address, false, 1039).count(expired_now->id), 1u);
    EXPECT_EQ(Listed("basic", expired_now->return_address, false, 1039).count(expired_now->id), 0u);
    EXPECT_EQ(Listed("basic", expired_now->return_address, false).count(expired_now->id), 1u);
    for (const auto &address : addresses)
    {
        SCOPED_TRACE(address);
        std::set<std::string> expected;
        for (const auto &output : first.created)
            if (output.kind == codec::OutputType::kBasic && first.spent.count(output.id) == 0 &&
                UnlockerAt(output, first.newest_timestamp) == address)
                expected.insert(output.id);
        EXPECT_EQ(Listed("basic", address, false, 1039), expected);
    }
}
