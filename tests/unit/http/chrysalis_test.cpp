// The REST API v1 pieces that need no database: the Chrysalis JSON of stored rows (the real
// fixture messages, and a receipt built from the TIP-17 layout, as no real fixture has one),
// network names, and the v1 parameters.
#include <gtest/gtest.h>
#include <httplib.h>

#include "chrysalis_fixtures.hpp"
#include "routes/chrysalis_render.hpp"
#include "chrysalis_samples.hpp"
#include "codec/bech32.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"

namespace chrysalis = permanode::codec::chrysalis;
namespace fixtures = permanode::codec::chrysalis::fixtures;
using permanode::client::BlockRow;
using permanode::client::OutputRow;
using permanode::client::ReceiptRow;
using namespace permanode::http;

namespace
{

std::string Raw(const permanode::codec::Bytes &bytes)
{
    return std::string(bytes.begin(), bytes.end());
}

BlockRow RowOf(const fixtures::Record &record)
{
    BlockRow row;
    row.block_id = "0x" + record.record.at("message_id_computed").get<std::string>();
    row.protocol_version = permanode::client::kChrysalis;
    row.raw = Raw(record.bytes);
    return row;
}

const fixtures::Record &Find(const std::string &label_start)
{
    static const auto records = fixtures::Messages();
    for (const auto &record : records)
    {
        if (record.label.rfind(label_start, 0) == 0)
        {
            return record;
        }
    }
    throw std::runtime_error("no fixture " + label_start);
}

// The status of the HttpError fn throws, or 0.
template <typename Fn> int StatusOf(Fn fn)
{
    try
    {
        fn();
    }
    catch (const HttpError &e)
    {
        return e.status();
    }
    return 0;
}

} // namespace

TEST(ChrysalisRender, EveryFixtureMessageIsItsSourceJson)
{
    for (const auto &record : fixtures::Messages())
    {
        nlohmann::json json = ChrysalisMessageJson(RowOf(record));
        EXPECT_EQ(json, chrysalis::ToJson(chrysalis::DecodeMessage(record.bytes))) << record.label;
        if (record.record.contains("json_in_source"))
        {
            // The sources' JSON, less the messageId some of them carry beside the message.
            nlohmann::json source = record.record.at("json_in_source");
            source.erase("messageId");
            EXPECT_EQ(json["parentMessageIds"], source["parentMessageIds"]) << record.label;
            EXPECT_EQ(json["nonce"], source["nonce"]) << record.label;
        }
    }
}

TEST(ChrysalisRender, MetadataOfReferencedAndUnreferencedMessages)
{
    const auto &milestone = Find("tangle.net TestMessageSerializationWithMilestonePayload");
    BlockRow row = RowOf(milestone);
    row.milestone_index = 89162;
    row.inclusion_state = 0;
    row.white_flag_index = 3;
    nlohmann::json metadata = ChrysalisMetadataJson(row);
    EXPECT_EQ(metadata["messageId"], milestone.record.at("message_id_computed"));
    EXPECT_EQ(metadata["isSolid"], true);
    EXPECT_EQ(metadata["referencedByMilestoneIndex"], 89162);
    EXPECT_EQ(metadata["milestoneIndex"], 89162);
    EXPECT_EQ(metadata["ledgerInclusionState"], "noTransaction");
    EXPECT_FALSE(metadata.contains("shouldPromote"));
    EXPECT_FALSE(metadata.contains("whiteFlagIndex"));
    EXPECT_EQ(metadata["parentMessageIds"],
              chrysalis::ToJson(chrysalis::DecodeMessage(milestone.bytes))["parentMessageIds"]);

    BlockRow conflicting = RowOf(Find("rosetta-iota mocked_node message 1f7af3df"));
    conflicting.milestone_index = 100;
    conflicting.inclusion_state = 2;
    conflicting.conflict_reason = 1;
    metadata = ChrysalisMetadataJson(conflicting);
    EXPECT_EQ(metadata["ledgerInclusionState"], "conflicting");
    EXPECT_EQ(metadata["conflictReason"], 1);
    EXPECT_FALSE(metadata.contains("milestoneIndex"));

    BlockRow pending = RowOf(Find("iota.rs docs nodejs @char25533"));
    metadata = ChrysalisMetadataJson(pending);
    EXPECT_EQ(metadata["isSolid"], false);
    EXPECT_EQ(metadata["shouldPromote"], false);
    EXPECT_EQ(metadata["shouldReattach"], false);
    EXPECT_FALSE(metadata.contains("referencedByMilestoneIndex"));
    EXPECT_FALSE(metadata.contains("ledgerInclusionState"));
}

TEST(ChrysalisRender, StoredBytesThatDoNotDecodeAre500)
{
    BlockRow row = RowOf(Find("TIP-6/RFC-0017 example"));
    row.raw.pop_back();
    EXPECT_EQ(StatusOf([&] { ChrysalisMessageJson(row); }), 500);
}

TEST(ChrysalisRender, OutputOfAFixtureTransaction)
{
    const auto &record = Find("rosetta-iota mocked_node message 70a9a9bc");
    auto message = chrysalis::DecodeMessage(record.bytes);
    const auto &transaction = std::get<chrysalis::TransactionPayload>(*message.payload);
    std::string transaction_id = record.record.at("transaction_id_computed");
    OutputRow output;
    output.output_id = "0x" + transaction_id + "0f00"; // output 15, u16 little endian
    output.protocol_version = permanode::client::kChrysalis;
    output.raw = Raw(chrysalis::EncodeOutputBytes(transaction.essence.outputs[15]));
    output.block_id = "0x" + record.record.at("message_id_computed").get<std::string>();
    output.ledger_index = 7;
    nlohmann::json json = ChrysalisOutputJson(output);
    EXPECT_EQ(json["messageId"], record.record.at("message_id_computed"));
    EXPECT_EQ(json["transactionId"], transaction_id);
    EXPECT_EQ(json["outputIndex"], 15);
    EXPECT_EQ(json["isSpent"], false);
    EXPECT_FALSE(json.contains("transactionIdSpent"));
    EXPECT_EQ(json["ledgerIndex"], 7);
    EXPECT_EQ(json["output"], chrysalis::ToJson(message)["payload"]["essence"]["outputs"][15]);

    output.is_spent = true;
    output.milestone_index_spent = 5;
    output.transaction_id_spent = "0x" + std::string(64, 'a');
    json = ChrysalisOutputJson(output);
    EXPECT_EQ(json["isSpent"], true);
    EXPECT_EQ(json["milestoneIndexSpent"], 5);
    EXPECT_EQ(json["transactionIdSpent"], std::string(64, 'a'));
}

TEST(ChrysalisRender, ReceiptAndTreasuryOfAMilestoneWithAReceipt)
{
    // A real milestone given the TIP-17 sample receipt, its payload cut out of the message:
    // network ID (8), parent count and parents, payload length (4), then the payload.
    auto message = chrysalis::DecodeMessage(
        Find("tangle.net TestMessageSerializationWithMilestonePayload").bytes);
    auto &milestone = std::get<chrysalis::MilestonePayload>(*message.payload);
    milestone.essence.receipt = chrysalis::samples::Receipt();
    milestone.essence.receipt->transaction.output.amount = 133713371337; // TIP-13's example
    auto bytes = chrysalis::EncodeMessage(message);
    std::size_t payload_at = 8 + 1 + 32 * message.parents.size() + 4;
    ReceiptRow row;
    row.milestone_index = 89162;
    row.migrated_at = 42;
    row.milestone_id = "0x" + std::string(64, 'b');
    row.payload = std::string(bytes.begin() + payload_at, bytes.end() - 8);

    nlohmann::json tuple = ReceiptTupleJson(row);
    EXPECT_EQ(tuple["milestoneIndex"], 89162);
    EXPECT_EQ(tuple["receipt"]["type"], 3);
    EXPECT_EQ(tuple["receipt"]["migratedAt"], 42);
    EXPECT_EQ(tuple["receipt"]["final"], true);
    EXPECT_EQ(tuple["receipt"]["funds"][0]["deposit"], 1000000);
    EXPECT_EQ(tuple["receipt"]["transaction"]["output"]["amount"], 133713371337);

    nlohmann::json treasury = TreasuryJson(row);
    EXPECT_EQ(treasury["milestoneId"], std::string(64, 'b'));
    EXPECT_EQ(treasury["amount"], 133713371337);

    // A milestone without a receipt cannot be one of these rows.
    milestone.essence.receipt.reset();
    bytes = chrysalis::EncodeMessage(message);
    row.payload = std::string(bytes.begin() + payload_at, bytes.end() - 8);
    EXPECT_EQ(StatusOf([&] { ReceiptTupleJson(row); }), 500);
}

TEST(ChrysalisRender, NetworkNamesOfTheFixtures)
{
    EXPECT_EQ(NetworkName(1454675179895816119ULL), "chrysalis-mainnet");
    EXPECT_EQ(NetworkName(14379272398717627559ULL), "testnet7");
    EXPECT_EQ(NetworkName(7712883261355838377ULL), "testnet6");
    EXPECT_EQ(NetworkName(12345), "12345");
}

TEST(ChrysalisParams, IdsAreHexWithOrWithout0x)
{
    std::string id(64, 'A');
    EXPECT_EQ(PlainHexIdParam(id, "messageId", 32), "0x" + std::string(64, 'a'));
    EXPECT_EQ(PlainHexIdParam("0x" + id, "messageId", 32), "0x" + std::string(64, 'a'));
    EXPECT_EQ(StatusOf([] { PlainHexIdParam("abc", "messageId", 32); }), 400);
    EXPECT_EQ(StatusOf([] { PlainHexIdParam(std::string(64, 'g'), "messageId", 32); }), 400);
    EXPECT_EQ(StatusOf([] { PlainHexIdParam(std::string(66, '0'), "outputId", 34); }), 400);
    try
    {
        PlainHexIdParam("zz", "outputId", 34);
        FAIL();
    }
    catch (const HttpError &e)
    {
        EXPECT_NE(std::string(e.what()).find("outputId"), std::string::npos);
    }
}

TEST(ChrysalisParams, AddressesInBech32OfAnyNetworkOrAsEd25519Hex)
{
    // TIP-13's example address, and the same key on the testnet.
    std::string mainnet = "iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx";
    std::string bytes = ChrysalisAddressParam(mainnet, "address");
    EXPECT_EQ(bytes, "0x00efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3");
    chrysalis::Ed25519Address address;
    address.hash = *permanode::codec::FromHexFixed<32>("0x" + bytes.substr(4));
    EXPECT_EQ(ChrysalisAddressParam(chrysalis::AddressToBech32(address, "atoi"), "address"), bytes);
    // the same key under Stardust's HRPs, which /api/v1/info names where the archive holds both
    // eras: the hash is the address
    permanode::codec::Address stardust{permanode::codec::AddressType::kEd25519, address.hash};
    for (const char *hrp : {"smr", "rms"})
        EXPECT_EQ(
            ChrysalisAddressParam(permanode::codec::AddressToBech32(stardust, hrp), "address"),
            bytes)
            << hrp;
    // an alias address is no Chrysalis address: the error says what it takes
    permanode::codec::Address alias{permanode::codec::AddressType::kAlias, address.hash};
    try
    {
        ChrysalisAddressParam(permanode::codec::AddressToBech32(alias, "smr"), "address");
        ADD_FAILURE() << "an alias address was taken";
    }
    catch (const HttpError &e)
    {
        EXPECT_EQ(e.status(), 400);
        EXPECT_NE(std::string(e.what()).find("not an Ed25519 address"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(Ed25519AddressParam(bytes.substr(4), "address"), bytes);
    EXPECT_EQ(StatusOf([] { ChrysalisAddressParam("smr1qqqq", "address"); }), 400);
    EXPECT_EQ(StatusOf([&] { ChrysalisAddressParam(mainnet.substr(0, 60), "address"); }), 400);
    EXPECT_EQ(StatusOf([] { Ed25519AddressParam("00", "address"); }), 400);
}

TEST(ChrysalisParams, IndexIsHexElseUtf8)
{
    auto index = [](const std::string &value)
    {
        httplib::Request request;
        request.params.emplace("index", value);
        return IndexationIndexParam(request, "index");
    };
    EXPECT_EQ(index("484f524e4554"), "\\x484f524e4554");
    EXPECT_EQ(index("0x4849"), "\\x4849");
    EXPECT_EQ(index("HORNET Spammer"), "\\x484f524e4554205370616d6d6572");
    EXPECT_EQ(index("abc"), "\\x616263"); // odd length: text
    EXPECT_EQ(index(std::string(128, 'a')), "\\x" + std::string(128, 'a'));
    EXPECT_EQ(StatusOf([&] { index(std::string(65, 'x')); }), 400);
    EXPECT_EQ(StatusOf([&] { index(""); }), 400);
    httplib::Request none;
    EXPECT_EQ(StatusOf([&] { IndexationIndexParam(none, "index"); }), 400);
}
