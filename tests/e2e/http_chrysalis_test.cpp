// The Chrysalis era over HTTP, end to end: the REST API v1 under /api/v1 (TIP-13 shapes, Hornet
// 1.x errors), seed 000's routes over both eras, the core API refusing Chrysalis rows, the
// OpenAPI document and metrics, the client library's Chrysalis calls, and the same answers once
// the Chrysalis range is archived. The database (http_load_chrysalis.sh) holds the real
// Chrysalis messages as testnet7 milestones 16241-16242 and the real Shimmer fixtures after them;
// two more Chrysalis milestones built here carry what no real fixture has: receipts (TIP-17), a
// dust allowance and a dust output (TIP-15).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "codec/bech32.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "permanode/client.hpp"
#include "http_fixture.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using nlohmann::json;
using permanode::test::RunningServer;
using permanode::test::TestDsn;
namespace chrysalis = permanode::codec::chrysalis;
namespace codec = permanode::codec;

namespace
{

const std::string kDatabase = "permanode_http_chrysalis";

// The fixture messages by the first 8 hex digits of their ID.
struct Fixture
{
    std::string id; // plain hex
    codec::Bytes bytes;
    json record;
};

std::string ChrysalisFixturesDir()
{
    return permanode::test::SharedFixturesDir("PERMANODE_CHRYSALIS_FIXTURES", "chrysalis");
}

const Fixture &F(const std::string &prefix)
{
    static const std::map<std::string, Fixture> fixtures = []
    {
        std::ifstream in(ChrysalisFixturesDir() + "/chrysalis_messages.json");
        json file = json::parse(in);
        std::map<std::string, Fixture> out;
        for (const auto &m : file.at("messages"))
        {
            Fixture f;
            f.id = m.at("message_id_computed");
            f.bytes = *codec::FromHex("0x" + m.at("message_hex").get<std::string>());
            f.record = m;
            out[f.id.substr(0, 8)] = f;
        }
        return out;
    }();
    return fixtures.at(prefix);
}

std::string Hex(const codec::Bytes &bytes)
{
    return codec::ToHex(bytes).substr(2);
}

template <std::size_t N> std::array<std::uint8_t, N> Filled(std::uint8_t value)
{
    std::array<std::uint8_t, N> out;
    out.fill(value);
    return out;
}

// Addresses of the milestones built here: D holds a dust allowance, a dust output and the funds
// both receipts migrate (2 Mi each).
const chrysalis::Ed25519Address kDustAddress{Filled<32>(0xd1)};
const chrysalis::Ed25519Address kOtherAddress{Filled<32>(0xe2)};

// Output 0 of 70a9a9bc's transaction (16241), which 16243 spends.
const std::string kTx70 = "95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e7";
// 1f7af3df's transaction (16242) spends output 12 of it.
const std::string kTx1f = "6c1f317ed905c17710ea81af0a1183f0f8e93600208e7f38330da04b91c85b2d";

struct Built
{
    codec::Bytes bytes;
    std::string id; // plain hex
};

Built Build(const chrysalis::Message &message)
{
    Built built{chrysalis::EncodeMessage(message), ""};
    built.id = codec::ToHex(chrysalis::ComputeMessageId(built.bytes)).substr(2);
    return built;
}

// A milestone message of `index` with a receipt migrated at `migrated_at` that leaves
// `treasury` in the treasury, its parents (and the message's) `parents`.
Built MilestoneWithReceipt(std::uint32_t index, std::uint64_t timestamp,
                           std::vector<codec::Hash32> parents, std::uint32_t migrated_at,
                           std::uint64_t treasury)
{
    std::sort(parents.begin(), parents.end());
    chrysalis::MilestonePayload milestone;
    milestone.essence.index = index;
    milestone.essence.timestamp = timestamp;
    milestone.essence.parents = parents;
    milestone.essence.inclusion_merkle_proof = Filled<32>(0x0a);
    milestone.essence.public_keys = {Filled<32>(0x0b)};
    chrysalis::ReceiptPayload receipt;
    receipt.migrated_at = migrated_at;
    receipt.final = migrated_at % 2 == 1;
    receipt.funds.push_back(
        {Filled<49>(static_cast<std::uint8_t>(migrated_at)), kDustAddress, 2000000});
    receipt.transaction.input.milestone_id = Filled<32>(static_cast<std::uint8_t>(index));
    receipt.transaction.output.amount = treasury;
    milestone.essence.receipt = receipt;
    milestone.signatures = {Filled<64>(0x0c)};
    chrysalis::Message message;
    message.network_id = std::stoull(F("53e5f848").record.at("networkId").get<std::string>());
    message.parents = parents;
    message.payload = milestone;
    message.nonce = index;
    return Build(message);
}

// Milestone 16243: a transaction spending output 0 of 70a9a9bc's transaction into a dust
// allowance (1 Mi) and a dust output (500 i) on D and the rest on E, then its milestone with a
// receipt (migrated at 1000); 16244: its milestone with another receipt (1001).
struct Synthetic
{
    Built transaction;
    std::string transaction_id;
    Built milestone_16243;
    Built milestone_16244;
    std::uint64_t input_amount = 0;
};

const Synthetic &Made()
{
    static const Synthetic made = []
    {
        Synthetic s;
        pqxx::connection admin(TestDsn() + " dbname=" + kDatabase);
        s.input_amount = pqxx::nontransaction(admin)
                             .exec1("SELECT amount FROM permanode.legacy_outputs WHERE "
                                    "output_id = '0x" +
                                    kTx70 + "0000' AND NOT is_used")[0]
                             .as<std::uint64_t>();
        chrysalis::TransactionPayload payload;
        chrysalis::UtxoInput input;
        input.transaction_id = *codec::FromHexFixed<32>("0x" + kTx70);
        input.index = 0;
        payload.essence.inputs.push_back(input);
        // Outputs in lexical order of their bytes: type 0 before type 1.
        payload.essence.outputs.push_back(chrysalis::SigLockedSingleOutput{kDustAddress, 500});
        payload.essence.outputs.push_back(
            chrysalis::SigLockedSingleOutput{kOtherAddress, s.input_amount - 1000500});
        payload.essence.outputs.push_back(
            chrysalis::SigLockedDustAllowanceOutput{kDustAddress, 1000000});
        payload.unlocks.push_back(chrysalis::SignatureUnlock{Filled<32>(0x33), Filled<64>(0x44)});
        chrysalis::Message message;
        message.network_id = std::stoull(F("53e5f848").record.at("networkId").get<std::string>());
        message.parents = {*codec::FromHexFixed<32>("0x" + F("1f7af3df").id)};
        message.payload = payload;
        message.nonce = 7;
        s.transaction = Build(message);
        s.transaction_id = codec::ToHex(chrysalis::ComputeTransactionId(payload)).substr(2);
        s.milestone_16243 = MilestoneWithReceipt(
            16243, 1617959732, {*codec::FromHexFixed<32>("0x" + s.transaction.id)}, 1000,
            133713371337);
        s.milestone_16244 = MilestoneWithReceipt(
            16244, 1617959742, {*codec::FromHexFixed<32>("0x" + s.milestone_16243.id)}, 1001,
            133711371337);
        auto ingest = [&](int index, long timestamp, const std::vector<const Built *> &cone,
                          const std::string &states)
        {
            std::string array;
            for (const Built *built : cone)
            {
                array += (array.empty() ? "" : ", ") + std::string("decode('") + Hex(built->bytes) +
                         "', 'hex')";
            }
            pqxx::nontransaction(admin).exec(
                "SELECT * FROM permanode.ingest_milestone(" + std::to_string(index) + ", " +
                std::to_string(timestamp) + ", ARRAY[" + array + "], '" + states +
                "', protocol_version => 1::smallint)");
        };
        ingest(16243, 1617959732, {&s.transaction, &s.milestone_16243}, "{1,0}");
        ingest(16244, 1617959742, {&s.milestone_16244}, "{0}");
        return s;
    }();
    return made;
}

std::string LoadDatabase()
{
    std::string dsn = permanode::test::LoadDatabase("http_load_chrysalis.sh", kDatabase);
    Made();
    return dsn;
}

class HttpChrysalis : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        admin_dsn_ = LoadDatabase();
        server_ = new RunningServer(ReaderDsn());
    }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
    static std::string ReaderDsn() { return admin_dsn_ + " user=permanode_http_test"; }
    // GET returning the status and the parsed JSON body.
    static std::pair<int, json> Get(const std::string &path)
    {
        auto result = server_->Get(path);
        if (!result)
        {
            ADD_FAILURE() << "no response for " << path;
            return {0, json()};
        }
        EXPECT_EQ(result->get_header_value("Content-Type").rfind("application/json", 0), 0u)
            << path;
        return {result->status, json::parse(result->body)};
    }
    // The "data" of a 200 answer.
    static json Data(const std::string &path)
    {
        auto [status, body] = Get(path);
        EXPECT_EQ(status, 200) << path << "\n" << body.dump();
        return body.contains("data") ? body["data"] : json();
    }
    static std::string One(const std::string &sql)
    {
        pqxx::connection admin(admin_dsn_);
        return pqxx::nontransaction(admin).exec1(sql)[0].c_str();
    }
    // A milestone's ID in plain hex.
    static std::string MilestoneId(int index)
    {
        return One("SELECT milestone_id FROM permanode.milestones WHERE milestone_index = " +
                   std::to_string(index))
            .substr(2);
    }
    static std::string admin_dsn_;
    static RunningServer *server_;
};
std::string HttpChrysalis::admin_dsn_;
RunningServer *HttpChrysalis::server_ = nullptr;

// A Hornet 1.x error: {"error":{"code":"<status>","message":"...<names>..."}}.
void ExpectError(const std::pair<int, json> &response, int status, const std::string &names)
{
    EXPECT_EQ(response.first, status) << response.second.dump();
    EXPECT_EQ(response.second["error"]["code"], std::to_string(status));
    EXPECT_NE(response.second["error"]["message"].get<std::string>().find(names), std::string::npos)
        << response.second.dump();
}

// The fixture cones: message, milestone, inclusion state, white-flag index.
struct Referenced
{
    const char *prefix;
    int milestone;
    const char *state;
};
const std::vector<Referenced> kCones = {
    {"10dbee9c", 16241, "noTransaction"}, {"30d87fa9", 16241, "noTransaction"},
    {"70a9a9bc", 16241, "included"},      {"92f427d6", 16241, "included"},
    {"89e4d40f", 16241, "included"},      {"53e5f848", 16241, "noTransaction"},
    {"1f7af3df", 16242, "included"}};

} // namespace

TEST_F(HttpChrysalis, MessagesMetadataAndRawBytesOfTheFixtures)
{
    for (const auto &cone : kCones)
    {
        const Fixture &f = F(cone.prefix);
        json message = Data("/api/v1/messages/" + f.id);
        EXPECT_EQ(message, chrysalis::ToJson(chrysalis::DecodeMessage(f.bytes))) << f.id;
        // The JSON is the message: it reads back to the same bytes.
        EXPECT_EQ(chrysalis::EncodeMessage(chrysalis::MessageFromJson(message)), f.bytes) << f.id;
        // 0x-prefixed and upper-case IDs name the same message.
        std::string upper = f.id;
        std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
        EXPECT_EQ(Data("/api/v1/messages/0x" + upper), message);

        auto raw = server_->Get("/api/v1/messages/" + f.id + "/raw");
        ASSERT_TRUE(raw);
        EXPECT_EQ(raw->status, 200);
        EXPECT_EQ(raw->get_header_value("Content-Type"), "application/octet-stream");
        EXPECT_EQ(raw->body, std::string(f.bytes.begin(), f.bytes.end()));

        json metadata = Data("/api/v1/messages/" + f.id + "/metadata");
        EXPECT_EQ(metadata["messageId"], f.id);
        EXPECT_EQ(metadata["parentMessageIds"], message["parentMessageIds"]);
        EXPECT_EQ(metadata["isSolid"], true);
        EXPECT_EQ(metadata["referencedByMilestoneIndex"], cone.milestone) << f.id;
        EXPECT_EQ(metadata["ledgerInclusionState"], cone.state) << f.id;
        EXPECT_FALSE(metadata.contains("conflictReason"));
        EXPECT_FALSE(metadata.contains("shouldPromote"));
        EXPECT_EQ(metadata.contains("milestoneIndex"), std::string(cone.prefix) == "53e5f848");
    }
    EXPECT_EQ(Data("/api/v1/messages/" + F("53e5f848").id + "/metadata")["milestoneIndex"], 16241);
}

TEST_F(HttpChrysalis, ChildrenAndMessagesByIndexOfTheChrysalisEraOnly)
{
    // 1f7af3df (16242) is a child of each of its parents.
    json message = Data("/api/v1/messages/" + F("1f7af3df").id);
    for (const auto &parent : message["parentMessageIds"])
    {
        json children = Data("/api/v1/messages/" + parent.get<std::string>() + "/children");
        EXPECT_EQ(children["messageId"], parent);
        EXPECT_EQ(children["maxResults"], 1000);
        EXPECT_EQ(children["count"], children["childrenMessageIds"].size());
        std::set<std::string> ids(children["childrenMessageIds"].begin(),
                                  children["childrenMessageIds"].end());
        EXPECT_TRUE(ids.count(F("1f7af3df").id)) << parent;
    }
    json none = Data("/api/v1/messages/" + F("1f7af3df").id.substr(0, 60) + "0000/children");
    EXPECT_EQ(none["count"], 0);
    EXPECT_EQ(none["childrenMessageIds"], json::array());

    // "HORNET Spammer" tags messages of both eras; the v1 route lists the Chrysalis one, by its
    // UTF-8 text or its hex, and echoes the index as given.
    std::string spammer_hex = "484f524e4554205370616d6d6572";
    ASSERT_GT(std::stoi(One("SELECT count(*) FROM permanode.tags t JOIN permanode.messages m "
                            "USING (message_id) WHERE m.version = 2 AND t.tag = '\\x" +
                            spammer_hex + "'")),
              0);
    for (const std::string &index : {std::string("HORNET%20Spammer"), spammer_hex})
    {
        json found = Data("/api/v1/messages?index=" + index);
        EXPECT_EQ(found["messageIds"], json::array({F("30d87fa9").id})) << index;
        EXPECT_EQ(found["count"], 1);
        EXPECT_EQ(found["maxResults"], 1000);
    }
    EXPECT_EQ(Data("/api/v1/messages?index=" + spammer_hex)["index"], spammer_hex);
    // A transaction essence's indexation is an index too.
    json faucet = Data("/api/v1/messages?index=FAUCET");
    EXPECT_GE(faucet["count"].get<int>(), 1);
    EXPECT_EQ(Data("/api/v1/messages?index=nothing%20tagged%20so")["count"], 0);
}

TEST_F(HttpChrysalis, OutputsCreatedSpentAndUnspent)
{
    // Output 12 of 70a9a9bc's transaction, spent by 1f7af3df's transaction in 16242.
    json spent = Data("/api/v1/outputs/" + kTx70 + "0c00");
    EXPECT_EQ(spent["messageId"], F("70a9a9bc").id);
    EXPECT_EQ(spent["transactionId"], kTx70);
    EXPECT_EQ(spent["outputIndex"], 12);
    EXPECT_EQ(spent["isSpent"], true);
    EXPECT_EQ(spent["milestoneIndexSpent"], 16242);
    EXPECT_EQ(spent["transactionIdSpent"], kTx1f);
    EXPECT_EQ(spent["ledgerIndex"], 16244);
    json tx = chrysalis::ToJson(chrysalis::DecodeMessage(F("70a9a9bc").bytes));
    EXPECT_EQ(spent["output"], tx["payload"]["essence"]["outputs"][12]);

    json unspent = Data("/api/v1/outputs/0x" + kTx70 + "0100");
    EXPECT_EQ(unspent["isSpent"], false);
    EXPECT_FALSE(unspent.contains("milestoneIndexSpent"));
    EXPECT_EQ(unspent["output"], tx["payload"]["essence"]["outputs"][1]);

    // The dust allowance output of 16243.
    json dust = Data("/api/v1/outputs/" + Made().transaction_id + "0200");
    EXPECT_EQ(dust["output"]["type"], 1);
    EXPECT_EQ(dust["output"]["amount"], 1000000);
    EXPECT_EQ(dust["messageId"], Made().transaction.id);
}

TEST_F(HttpChrysalis, AddressBalancesAndOutputs)
{
    std::string d_hex = codec::ToHex(kDustAddress.hash).substr(2);
    std::string d_iota = chrysalis::AddressToBech32(kDustAddress, "iota");
    std::string d_atoi = chrysalis::AddressToBech32(kDustAddress, "atoi");
    // D: a dust output (500), a dust allowance (1 Mi: one dust output of 10 allowed) and twice
    // 2 Mi of migrated funds, whose outputs the receipts' milestones create (milestone ID and
    // index 0).
    // the same key under a Stardust HRP: /api/v1/info names the database's, which is one where
    // the archive holds both eras
    std::string d_smr =
        codec::AddressToBech32({codec::AddressType::kEd25519, kDustAddress.hash}, "smr");
    for (const std::string &path :
         {"/api/v1/addresses/" + d_iota, "/api/v1/addresses/" + d_atoi,
          "/api/v1/addresses/" + d_smr, "/api/v1/addresses/ed25519/" + d_hex})
    {
        json balance = Data(path);
        EXPECT_EQ(balance["addressType"], 0) << path;
        EXPECT_EQ(balance["address"], d_hex) << path;
        EXPECT_EQ(balance["balance"], 5000500) << path;
        EXPECT_EQ(balance["dustAllowed"], true) << path;
        EXPECT_EQ(balance["ledgerIndex"], 16244) << path;
    }
    std::string t = Made().transaction_id;
    std::string migrated_16243 = MilestoneId(16243) + "0000";
    std::string migrated_16244 = MilestoneId(16244) + "0000";
    json outputs = Data("/api/v1/addresses/" + d_iota + "/outputs");
    EXPECT_EQ(Data("/api/v1/addresses/" + d_smr + "/outputs"), outputs);
    EXPECT_EQ(outputs["address"], d_hex);
    EXPECT_EQ(outputs["maxResults"], 1000);
    EXPECT_EQ(outputs["count"], 4);
    // Newest first: 16244's migrated funds lead.
    EXPECT_EQ(outputs["outputIds"][0], migrated_16244);
    std::set<std::string> ids(outputs["outputIds"].begin(), outputs["outputIds"].end());
    EXPECT_EQ(ids, (std::set<std::string>{t + "0000", t + "0200", migrated_16243, migrated_16244}));
    EXPECT_EQ(Data("/api/v1/addresses/ed25519/" + d_hex + "/outputs?type=1")["outputIds"],
              json::array({t + "0200"}));
    json singles = Data("/api/v1/addresses/" + d_iota + "/outputs?type=0");
    EXPECT_EQ(std::set<std::string>(singles["outputIds"].begin(), singles["outputIds"].end()),
              (std::set<std::string>{t + "0000", migrated_16243, migrated_16244}));

    // The address that received output 12 of 70a9a9bc: spent, listed after the unspent ones
    // only with include-spent.
    json tx = chrysalis::ToJson(chrysalis::DecodeMessage(F("70a9a9bc").bytes));
    std::string holder = tx["payload"]["essence"]["outputs"][12]["address"]["address"];
    json without = Data("/api/v1/addresses/ed25519/" + holder + "/outputs");
    json with = Data("/api/v1/addresses/ed25519/" + holder + "/outputs?include-spent=true");
    EXPECT_EQ(with["count"].get<int>(), without["count"].get<int>() + 1);
    EXPECT_EQ(with["outputIds"].back(), kTx70 + "0c00");
    EXPECT_EQ(Data("/api/v1/addresses/ed25519/" + holder + "/outputs?include-spent=false"),
              without);
    // 16243 spent output 0 of 70a9a9bc.
    json first = chrysalis::ToJson(chrysalis::DecodeMessage(F("70a9a9bc").bytes));
    std::string spender = first["payload"]["essence"]["outputs"][0]["address"]["address"];
    json first_outputs =
        Data("/api/v1/addresses/ed25519/" + spender + "/outputs?include-spent=true");
    std::set<std::string> first_ids(first_outputs["outputIds"].begin(),
                                    first_outputs["outputIds"].end());
    EXPECT_TRUE(first_ids.count(kTx70 + "0000"));

    // An address that never held anything.
    json empty = Data("/api/v1/addresses/ed25519/" + std::string(64, '0'));
    EXPECT_EQ(empty["balance"], 0);
    EXPECT_EQ(empty["dustAllowed"], false);
}

TEST_F(HttpChrysalis, MilestonesAndTheirUtxoChanges)
{
    json milestone = Data("/api/v1/milestones/16241");
    EXPECT_EQ(milestone["index"], 16241);
    EXPECT_EQ(milestone["messageId"], F("53e5f848").id);
    EXPECT_EQ(milestone["timestamp"], 1617959712);
    EXPECT_EQ(Data("/api/v1/milestones/16243")["messageId"], Made().milestone_16243.id);
    // 16242 is archived from the fixture's partial cone, without its milestone message
    ExpectError(Get("/api/v1/milestones/16242"), 404,
                "milestone 16242 is archived without its milestone message");
    ExpectError(Get("/api/v1/milestones/16245"), 404, "milestone 16245 not found");

    json changes = Data("/api/v1/milestones/16242/utxo-changes");
    EXPECT_EQ(changes["index"], 16242);
    EXPECT_EQ(changes["consumedOutputs"], json::array({kTx70 + "0c00"}));
    json tx = chrysalis::ToJson(chrysalis::DecodeMessage(F("1f7af3df").bytes));
    EXPECT_EQ(changes["createdOutputs"].size(), tx["payload"]["essence"]["outputs"].size());
    EXPECT_EQ(changes["createdOutputs"][0], kTx1f + "0000");

    // A receipt's migrated funds are outputs its milestone creates.
    json receipt_only = Data("/api/v1/milestones/16244/utxo-changes");
    EXPECT_EQ(receipt_only["createdOutputs"], json::array({MilestoneId(16244) + "0000"}));
    EXPECT_EQ(receipt_only["consumedOutputs"], json::array());

    // A Stardust milestone, and one not ingested.
    ExpectError(Get("/api/v1/milestones/17340"), 404, "17340");
    ExpectError(Get("/api/v1/milestones/17340/utxo-changes"), 404, "17340");
    ExpectError(Get("/api/v1/milestones/99"), 404, "99");
    ExpectError(Get("/api/v1/milestones/99/utxo-changes"), 404, "99");
}

TEST_F(HttpChrysalis, ReceiptsAndTheTreasury)
{
    json all = Data("/api/v1/receipts");
    ASSERT_EQ(all["receipts"].size(), 2u);
    EXPECT_EQ(all["receipts"][0]["milestoneIndex"], 16243);
    EXPECT_EQ(all["receipts"][0]["receipt"]["migratedAt"], 1000);
    EXPECT_EQ(all["receipts"][0]["receipt"]["type"], 3);
    EXPECT_EQ(all["receipts"][0]["receipt"]["final"], false);
    EXPECT_EQ(all["receipts"][0]["receipt"]["funds"][0]["address"]["address"],
              codec::ToHex(kDustAddress.hash).substr(2));
    EXPECT_EQ(all["receipts"][0]["receipt"]["transaction"]["output"]["amount"], 133713371337);
    EXPECT_EQ(all["receipts"][1]["milestoneIndex"], 16244);
    EXPECT_EQ(all["receipts"][1]["receipt"]["final"], true);

    json at = Data("/api/v1/receipts/1001");
    ASSERT_EQ(at["receipts"].size(), 1u);
    EXPECT_EQ(at["receipts"][0], all["receipts"][1]);
    EXPECT_EQ(Data("/api/v1/receipts/5")["receipts"], json::array());

    json treasury = Data("/api/v1/treasury");
    EXPECT_EQ(treasury["amount"], 133711371337);
    std::string milestone_id =
        One("SELECT milestone_id FROM permanode.milestones WHERE milestone_index = 16244");
    EXPECT_EQ(treasury["milestoneId"], milestone_id.substr(2));
    ExpectError(Get("/api/v1/receipts/abc"), 400, "migratedAt");
}

TEST_F(HttpChrysalis, IncludedMessageOfATransaction)
{
    std::string tx = F("70a9a9bc").record.at("transaction_id_computed");
    EXPECT_EQ(Data("/api/v1/transactions/" + tx + "/included-message"),
              chrysalis::ToJson(chrysalis::DecodeMessage(F("70a9a9bc").bytes)));
    EXPECT_EQ(Data("/api/v1/transactions/" + tx + "/included-message/metadata")["messageId"],
              F("70a9a9bc").id);
    auto raw = server_->Get("/api/v1/transactions/" + tx + "/included-message/raw");
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->body, std::string(F("70a9a9bc").bytes.begin(), F("70a9a9bc").bytes.end()));
    json children = Data("/api/v1/transactions/" + tx + "/included-message/children");
    EXPECT_EQ(children["messageId"], F("70a9a9bc").id);
    ExpectError(Get("/api/v1/transactions/" + std::string(64, 'f') + "/included-message"), 404,
                "included message");
}

TEST_F(HttpChrysalis, InfoNamesTheNetworkAndItsMilestones)
{
    json info = Data("/api/v1/info");
    EXPECT_EQ(info["name"], "permanode");
    EXPECT_EQ(info["isHealthy"], true);
    EXPECT_EQ(info["networkId"], "testnet7");
    EXPECT_EQ(info["bech32HRP"], "iota");
    EXPECT_EQ(info["latestMilestoneIndex"], 16244);
    EXPECT_EQ(info["confirmedMilestoneIndex"], 16244);
    EXPECT_EQ(info["latestMilestoneTimestamp"], 1617959742);
    EXPECT_EQ(info["pruningIndex"], 16240);
    EXPECT_EQ(info["features"], json::array());
}

// isHealthy is /health's judgement of the syncs that follow nodes (permanode.sync_health): a live
// sync that reports while the archive is 50 milestones behind its node makes both unhealthy.
TEST_F(HttpChrysalis, InfoIsUnhealthyWhileALiveSyncFallsBehind)
{
    std::string newest = One("SELECT max(milestone_index) FROM permanode.milestone_protocols");
    pqxx::connection admin(admin_dsn_);
    pqxx::nontransaction(admin).exec0(
        "INSERT INTO permanode.sync_follow (source, pid, live, started_at, updated_at, "
        "node_confirmed_index) VALUES ('INX e2e:9029', 1, true, now(), now(), " +
        newest + " + 50)");
    bool v1_healthy = Data("/api/v1/info")["isHealthy"];
    bool core_healthy = Get("/api/core/v2/info").second["status"]["isHealthy"];
    auto health = server_->Get("/health");
    pqxx::nontransaction(admin).exec0("DELETE FROM permanode.sync_follow");
    EXPECT_FALSE(v1_healthy);
    EXPECT_FALSE(core_healthy);
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 503);
    EXPECT_NE(health->body.find("the archive is 50 milestones behind INX e2e:9029"),
              std::string::npos)
        << health->body;
    // with the row gone, healthy as before
    EXPECT_EQ(Data("/api/v1/info")["isHealthy"], true);
    EXPECT_EQ(server_->Get("/health")->status, 200);
}

TEST_F(HttpChrysalis, BadParametersAre400AndMissingThings404InHornetsShape)
{
    ExpectError(Get("/api/v1/messages/1234"), 400, "messageId");
    ExpectError(Get("/api/v1/messages/" + std::string(64, 'g') + "/metadata"), 400, "messageId");
    ExpectError(Get("/api/v1/messages/12/raw"), 400, "messageId");
    ExpectError(Get("/api/v1/messages/12/children"), 400, "messageId");
    ExpectError(Get("/api/v1/outputs/" + kTx70), 400, "outputId");
    ExpectError(Get("/api/v1/transactions/xyz/included-message"), 400, "transactionId");
    codec::Address alias{codec::AddressType::kAlias, kDustAddress.hash};
    ExpectError(Get("/api/v1/addresses/" + codec::AddressToBech32(alias, "smr")), 400, "address");
    ExpectError(Get("/api/v1/addresses/iota1qqqqqqqq/outputs"), 400, "address");
    ExpectError(Get("/api/v1/addresses/ed25519/abcd"), 400, "address");
    ExpectError(Get("/api/v1/addresses/ed25519/" + std::string(64, 'a') + "/outputs?type=2"), 400,
                "type");
    ExpectError(
        Get("/api/v1/addresses/ed25519/" + std::string(64, 'a') + "/outputs?include-spent=maybe"),
        400, "include-spent");
    ExpectError(Get("/api/v1/messages"), 400, "index");
    ExpectError(Get("/api/v1/messages?index="), 400, "index");
    ExpectError(Get("/api/v1/messages?index=" + std::string(130, 'a')), 400, "index");
    ExpectError(Get("/api/v1/milestones/-1"), 400, "index");

    ExpectError(Get("/api/v1/messages/" + std::string(64, '0')), 404, "not found");
    ExpectError(Get("/api/v1/messages/" + std::string(64, '0') + "/metadata"), 404, "not found");
    ExpectError(Get("/api/v1/outputs/" + std::string(68, '0')), 404, "not found");
    ExpectError(Get("/api/v1/no/such/route"), 404, "no route");
    // A Stardust block or output is not found under /api/v1, and the answer says where it is.
    std::string block = One("SELECT message_id FROM permanode.messages WHERE version = 2 LIMIT 1");
    ExpectError(Get("/api/v1/messages/" + block.substr(2)), 404, "/api/core/v2/blocks/" + block);
    std::string output = One("SELECT output_id FROM permanode.basic_outputs LIMIT 1");
    ExpectError(Get("/api/v1/outputs/" + output.substr(2)), 404, "not found");
    // No treasury before the first receipt is tested by the client library below (a database
    // without receipts).
}

TEST_F(HttpChrysalis, CoreApiSendsChrysalisRowsToApiV1)
{
    std::string id = F("70a9a9bc").id;
    ExpectError(Get("/api/core/v2/blocks/0x" + id), 404, "/api/v1/messages/" + id);
    ExpectError(Get("/api/core/v2/blocks/0x" + id + "/metadata"), 404, "/api/v1/messages/" + id);
    ExpectError(Get("/api/core/v2/outputs/0x" + kTx70 + "0100"), 404,
                "/api/v1/outputs/" + kTx70 + "0100");
    ExpectError(Get("/api/core/v2/transactions/0x" + kTx70 + "/included-block"), 404,
                "/api/v1/messages/" + id);
    ExpectError(Get("/api/core/v2/milestones/by-index/16241"), 404, "/api/v1/milestones/16241");
    ExpectError(Get("/api/core/v2/milestones/by-index/16242/utxo-changes"), 404,
                "/api/v1/milestones/16242/utxo-changes");
    // Stardust rows still answer.
    EXPECT_EQ(Get("/api/core/v2/milestones/by-index/17340").first, 200);
    // The explorer's (Stardust) balance leaves the Chrysalis outputs to /api/v1.
    auto balance =
        Get("/api/explorer/v2/balance/" + chrysalis::AddressToBech32(kDustAddress, "iota"));
    EXPECT_EQ(balance.first, 200);
    EXPECT_EQ(balance.second["totalBalance"], "0") << balance.second.dump();
}

TEST_F(HttpChrysalis, SeedRoutesServeBothEras)
{
    const Fixture &f = F("70a9a9bc");
    auto [status, message] = Get("/messages/0x" + f.id);
    ASSERT_EQ(status, 200);
    EXPECT_EQ(message["protocolVersion"], 1);
    EXPECT_EQ(message["messageId"], "0x" + f.id);
    EXPECT_EQ(message["message"], chrysalis::ToJson(chrysalis::DecodeMessage(f.bytes)));
    EXPECT_EQ(Get("/messages/0x" + f.id + "/metadata").second["ledgerInclusionState"], "included");
    std::string block = One("SELECT message_id FROM permanode.messages WHERE version = 2 LIMIT 1");
    EXPECT_EQ(Get("/messages/" + block).second["protocolVersion"], 2);
    EXPECT_EQ(Get("/messages/" + block).second["message"]["protocolVersion"], 2);

    // An output of each era, each in its node API's shape.
    EXPECT_EQ(Get("/outputs/0x" + kTx70 + "0c00").second["transactionIdSpent"], kTx1f);
    std::string output = One("SELECT output_id FROM permanode.basic_outputs LIMIT 1");
    EXPECT_TRUE(Get("/outputs/" + output).second.contains("metadata"));

    // A milestone's messages in white-flag order.
    json cone = Get("/milestones/16241").second;
    json expected = json::array();
    for (const auto &c : kCones)
    {
        if (c.milestone == 16241)
        {
            expected.push_back("0x" + F(c.prefix).id);
        }
    }
    EXPECT_EQ(cone["messageIds"], expected);

    // An address's Chrysalis outputs, spent or not, newest first.
    std::string d = chrysalis::AddressToBech32(kDustAddress, "iota");
    auto [address_status, outputs] = Get("/addresses/" + d + "/outputs");
    EXPECT_EQ(address_status, 200) << outputs.dump();
    EXPECT_EQ(outputs["outputIds"].size(), 4u);

    // "HORNET Spammer": both eras, newest first, page by page across the ranges.
    std::string tag = "0x484f524e4554205370616d6d6572";
    std::vector<std::string> all;
    json whole = Get("/messages?index=" + tag + "&pageSize=1000").second;
    for (const auto &id : whole["messageIds"])
    {
        all.push_back(id);
    }
    ASSERT_GE(all.size(), 2u);
    EXPECT_EQ(all.back(), "0x" + F("30d87fa9").id); // the oldest: the Chrysalis one
    std::vector<std::string> paged;
    std::string cursor;
    do
    {
        json page = Get("/messages?index=" + tag + "&pageSize=9" +
                        (cursor.empty() ? "" : "&cursor=" + cursor))
                        .second;
        for (const auto &id : page["messageIds"])
        {
            paged.push_back(id);
        }
        cursor = page.value("cursor", "");
    } while (!cursor.empty() && paged.size() <= all.size());
    EXPECT_EQ(paged, all);

    // Children of a Chrysalis message through the seed route.
    json parents = Get("/messages/0x" + F("1f7af3df").id).second["message"]["parentMessageIds"];
    json children = Get("/messages/0x" + parents[0].get<std::string>() + "/children").second;
    std::set<std::string> ids(children["childrenMessageIds"].begin(),
                              children["childrenMessageIds"].end());
    EXPECT_TRUE(ids.count("0x" + F("1f7af3df").id));
}

TEST_F(HttpChrysalis, OpenApiAndMetricsCoverTheV1Routes)
{
    auto [status, doc] = Get("/api/openapi.json");
    ASSERT_EQ(status, 200);
    for (const std::string path :
         {"/api/v1/info", "/api/v1/messages", "/api/v1/messages/{messageId}",
          "/api/v1/messages/{messageId}/metadata", "/api/v1/messages/{messageId}/raw",
          "/api/v1/messages/{messageId}/children", "/api/v1/outputs/{outputId}",
          "/api/v1/addresses/{address}", "/api/v1/addresses/{address}/outputs",
          "/api/v1/addresses/ed25519/{address}", "/api/v1/addresses/ed25519/{address}/outputs",
          "/api/v1/milestones/{index}", "/api/v1/milestones/{index}/utxo-changes",
          "/api/v1/receipts", "/api/v1/receipts/{migratedAt}", "/api/v1/treasury",
          "/api/v1/transactions/{transactionId}/included-message"})
    {
        ASSERT_TRUE(doc["paths"].contains(path)) << path;
        EXPECT_EQ(doc["paths"][path]["get"]["tags"], json::array({"chrysalis"})) << path;
    }
    EXPECT_TRUE(
        doc["paths"]["/api/v1/messages/{messageId}/raw"]["get"]["responses"]["200"]["content"]
            .contains("application/octet-stream"));
    bool has_include_spent = false;
    for (const auto &p : doc["paths"]["/api/v1/addresses/{address}/outputs"]["get"]["parameters"])
    {
        has_include_spent |= p["name"] == "include-spent";
    }
    EXPECT_TRUE(has_include_spent);

    Get("/api/v1/messages/12");
    Data("/api/v1/info");
    auto metrics = server_->Get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_NE(metrics->body.find("permanode_http_requests_total{route=\"/api/v1/messages/"
                                 "{messageId}\",status=\"400\"}"),
              std::string::npos);
    EXPECT_NE(metrics->body.find("permanode_http_request_duration_seconds_count{route=\"/api/v1/"
                                 "info\"}"),
              std::string::npos);
}

TEST_F(HttpChrysalis, ClientLibraryChrysalisCalls)
{
    permanode::client::Client client(ReaderDsn());
    auto era = client.GetEra(permanode::client::kChrysalis);
    ASSERT_TRUE(era);
    EXPECT_EQ(era->first_index, 16241);
    EXPECT_EQ(era->last_index, 16244);
    EXPECT_EQ(era->last_timestamp, 1617959742);
    EXPECT_EQ(era->bech32_hrp, "iota");
    EXPECT_EQ(era->last_message_id, "0x" + Made().milestone_16244.id);
    auto stardust = client.GetEra(permanode::client::kStardust);
    ASSERT_TRUE(stardust);
    EXPECT_EQ(stardust->first_index, 17339);
    EXPECT_EQ(stardust->last_index, 2418187);

    auto block = client.GetBlock("0x" + F("70a9a9bc").id);
    ASSERT_TRUE(block);
    EXPECT_EQ(block->protocol_version, permanode::client::kChrysalis);
    EXPECT_EQ(block->milestone_index, 16241);
    auto output = client.GetOutput("0x" + kTx70 + "0c00");
    ASSERT_TRUE(output);
    EXPECT_EQ(output->protocol_version, permanode::client::kChrysalis);
    EXPECT_TRUE(output->is_spent);
    EXPECT_EQ(output->ledger_index, 16244);
    auto milestone = client.GetMilestoneByIndex(16241);
    ASSERT_TRUE(milestone);
    EXPECT_EQ(milestone->protocol_version, permanode::client::kChrysalis);
    EXPECT_EQ(client.GetMilestoneByIndex(17340)->protocol_version, permanode::client::kStardust);
    EXPECT_EQ(client.GetUtxoChanges(16242)->protocol_version, permanode::client::kChrysalis);

    std::string d = "0x00" + codec::ToHex(kDustAddress.hash).substr(2);
    auto balance = client.GetChrysalisBalance(d);
    EXPECT_EQ(balance.balance, 5000500);
    EXPECT_EQ(balance.dust_allowance, 1000000);
    EXPECT_EQ(balance.dust_outputs, 1);
    // The bech32 text of the database's HRP works as well.
    EXPECT_EQ(client.GetChrysalisBalance(chrysalis::AddressToBech32(kDustAddress, "iota")).balance,
              5000500);
    auto ids = client.GetChrysalisAddressOutputs(d, std::nullopt, true, 1);
    EXPECT_EQ(ids.items.size(), 1u);
    EXPECT_EQ(ids.ledger_index, 16244);

    auto page =
        client.GetChrysalisMessagesByIndex("\\x484f524e4554205370616d6d6572", 10, std::nullopt);
    EXPECT_EQ(page.items, std::vector<std::string>{"0x" + F("30d87fa9").id});
    auto receipts = client.GetReceipts(std::nullopt);
    ASSERT_EQ(receipts.size(), 2u);
    EXPECT_EQ(receipts[0].migrated_at, 1000);
    EXPECT_EQ(receipts[1].milestone_index, 16244);
    EXPECT_EQ(client.GetReceipts(1000).size(), 1u);
    EXPECT_EQ(client.GetLatestReceipt()->milestone_index, 16244);
}

TEST(HttpChrysalisEmpty, AStardustOnlyDatabaseHasNoChrysalisEra)
{
    // The Stardust fixtures' database of the other HTTP tests: no Chrysalis milestone.
    std::string db = "permanode_http_chrysalis_none";
    std::string dsn = permanode::test::LoadDatabase("http_load_fixtures.sh", db);
    ASSERT_FALSE(HasFailure());
    RunningServer server(dsn + " user=permanode_http_test");
    auto info = server.Get("/api/v1/info");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->status, 200);
    json body = json::parse(info->body);
    EXPECT_EQ(body["data"]["isHealthy"], false);
    EXPECT_EQ(body["data"]["latestMilestoneIndex"], 0);
    auto treasury = server.Get("/api/v1/treasury");
    ASSERT_TRUE(treasury);
    EXPECT_EQ(treasury->status, 404);
    EXPECT_EQ(json::parse(server.Get("/api/v1/receipts")->body)["data"]["receipts"], json::array());
    EXPECT_EQ(
        json::parse(server.Get("/api/v1/messages?index=HORNET%20Spammer")->body)["data"]["count"],
        0);
}

// Every v1 and seed route answers the same once the Chrysalis range (16) is archived, as the
// Stardust routes do in http_tiers_test. Runs last: it archives and restores the range.
TEST_F(HttpChrysalis, ZZEveryRouteAnswersTheSameOverTheArchivedChrysalisRange)
{
    std::string d = codec::ToHex(kDustAddress.hash).substr(2);
    json tx = chrysalis::ToJson(chrysalis::DecodeMessage(F("70a9a9bc").bytes));
    std::string holder = tx["payload"]["essence"]["outputs"][12]["address"]["address"];
    std::vector<std::string> paths = {
        "/api/v1/info",
        "/api/v1/messages?index=HORNET%20Spammer",
        "/api/v1/messages?index=FAUCET",
        "/api/v1/outputs/" + kTx70 + "0c00",
        "/api/v1/outputs/" + Made().transaction_id + "0200",
        "/api/v1/addresses/ed25519/" + d,
        "/api/v1/addresses/ed25519/" + d + "/outputs?include-spent=true",
        "/api/v1/addresses/ed25519/" + holder + "/outputs?include-spent=true",
        "/api/v1/milestones/16241",
        "/api/v1/milestones/16242/utxo-changes",
        "/api/v1/milestones/16243/utxo-changes",
        "/api/v1/receipts",
        "/api/v1/receipts/1000",
        "/api/v1/treasury",
        "/api/v1/transactions/" + kTx1f + "/included-message",
        "/outputs/0x" + kTx70 + "0c00",
        "/milestones/16241",
        "/messages?index=0x484f524e4554205370616d6d6572&pageSize=1000",
        "/addresses/" + chrysalis::AddressToBech32(kDustAddress, "iota") + "/outputs",
        "/addresses/" +
            chrysalis::AddressToBech32({*codec::FromHexFixed<32>("0x" + holder)}, "iota") +
            "/outputs",
    };
    for (const auto &c : kCones)
    {
        std::string id = F(c.prefix).id;
        paths.push_back("/api/v1/messages/" + id);
        paths.push_back("/api/v1/messages/" + id + "/metadata");
        paths.push_back("/api/v1/messages/" + id + "/raw");
        paths.push_back("/api/v1/messages/" + id + "/children");
        paths.push_back("/messages/0x" + id);
        paths.push_back("/messages/0x" + id + "/metadata");
        paths.push_back("/messages/0x" + id + "/children");
    }
    auto ask = [&](RunningServer &server)
    {
        std::vector<std::pair<int, std::string>> answers;
        for (const auto &path : paths)
        {
            auto result = server.Get(path);
            answers.emplace_back(result ? result->status : 0, result ? result->body : "");
        }
        return answers;
    };
    auto hot = ask(*server_);
    for (std::size_t i = 0; i < paths.size(); i++)
    {
        EXPECT_EQ(hot[i].first, 200) << paths[i] << "\n" << hot[i].second;
    }
    pqxx::connection admin(admin_dsn_);
    auto archived = pqxx::nontransaction(admin).exec(
        "SELECT table_name FROM permanode.archive(16, 17) WHERE archive IS NOT NULL");
    EXPECT_GE(archived.size(), 8u);
    EXPECT_GE(std::stoi(One("SELECT count(*) FROM permanode.status WHERE tier = 'cold' AND "
                            "from_range = 16")),
              8);
    auto cold = ask(*server_);
    RunningServer fresh(ReaderDsn());
    auto cold_fresh = ask(fresh);
    for (std::size_t i = 0; i < paths.size(); i++)
    {
        EXPECT_EQ(cold[i], hot[i]) << paths[i];
        EXPECT_EQ(cold_fresh[i], hot[i]) << paths[i];
    }
    pqxx::nontransaction(admin).exec("SELECT count(*) FROM permanode.restore(16, 17)");
    pqxx::nontransaction(admin).exec("SELECT count(*) FROM permanode.archive_gc()");
}
