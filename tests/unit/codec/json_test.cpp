// TIP-25 JSON: exact shapes for hand-checked values, and render -> parse round trips.
#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/json.hpp"
#include "fixtures.hpp"
#include "sample_blocks.hpp"

#include <gtest/gtest.h>

namespace permanode::codec
{
namespace
{

using nlohmann::json;

TEST(Json, FixtureBlocksRoundTripThroughJsonText)
{
    for (const auto &fixture : fixtures::AllBlocks())
    {
        SCOPED_TRACE(fixture.name);
        Block block = DecodeBlock(fixture.raw);
        std::string text = ToJson(block).dump();
        Block parsed = BlockFromJson(json::parse(text));
        EXPECT_EQ(parsed, block);
        EXPECT_EQ(EncodeBlock(parsed), fixture.raw);
    }
}

TEST(Json, SampleBlocksRoundTrip)
{
    for (const auto &block : samples::All())
    {
        EXPECT_EQ(BlockFromJson(json::parse(ToJson(block).dump())), block);
        EXPECT_EQ(DecodeBlock(EncodeBlock(block)), block); // and through bytes
    }
}

TEST(Json, OutputShape)
{
    Block block = samples::TransactionWithEveryOutputKind();
    const auto &outputs = std::get<TransactionPayload>(*block.payload).essence.outputs;
    json basic = ToJson(outputs[0]);
    EXPECT_EQ(basic["type"], 3);
    EXPECT_EQ(basic["amount"], "1000000");
    EXPECT_EQ(basic["nativeTokens"][0]["amount"], "0x75bcd15"); // 123456789, minimal hex
    EXPECT_EQ(
        basic["unlockConditions"][0],
        (json{{"type", 0}, {"address", {{"type", 0}, {"pubKeyHash", ToHex(samples::Filled(1))}}}}));
    EXPECT_EQ(basic["unlockConditions"][0]["address"]["pubKeyHash"], ToHex(samples::Filled(1)));
    EXPECT_EQ(
        basic["unlockConditions"][1],
        (json{{"type", 1}, {"returnAddress", ToJson(samples::Ed25519(2))}, {"amount", "42600"}}));
    EXPECT_EQ(basic["unlockConditions"][2], (json{{"type", 2}, {"unixTime", 1664385906}}));
    EXPECT_EQ(basic["unlockConditions"][3]["returnAddress"]["nftId"], ToHex(samples::Filled(3)));
    EXPECT_EQ(basic["features"][1], (json{{"type", 2}, {"data", "0x010203"}}));
    EXPECT_EQ(basic["features"][2], (json{{"type", 3}, {"tag", "0x746167"}}));

    json alias = ToJson(outputs[1]);
    EXPECT_EQ(alias["stateMetadata"], "0xdead");
    EXPECT_EQ(alias["foundryCounter"], 1);
    EXPECT_EQ(alias["immutableFeatures"][0]["type"], 1);
    EXPECT_FALSE(alias.contains("nativeTokens")); // empty lists are omitted

    json foundry = ToJson(outputs[2]);
    EXPECT_EQ(foundry["tokenScheme"]["mintedTokens"], "0x3e8");
    EXPECT_EQ(foundry["tokenScheme"]["meltedTokens"], "0x0");
    EXPECT_EQ(foundry["tokenScheme"]["maximumSupply"], "0x" + std::string(64, 'f'));
    EXPECT_EQ(foundry["unlockConditions"][0]["address"]["aliasId"], ToHex(samples::Filled(5)));

    json nft = ToJson(outputs[3]);
    EXPECT_EQ(nft["nftId"], ToHex(Hash32{}));
    EXPECT_FALSE(nft.contains("features"));
}

TEST(Json, BlockAndMilestoneShape)
{
    json block = ToJson(samples::MilestoneWithOptions());
    EXPECT_EQ(block["protocolVersion"], 2);
    EXPECT_EQ(block["nonce"], "0");
    const json &payload = block["payload"];
    EXPECT_EQ(payload["type"], 7);
    EXPECT_EQ(payload["metadata"], "0x6d657461");
    EXPECT_EQ(payload["options"][0]["type"], 0);
    EXPECT_EQ(payload["options"][0]["final"], true);
    EXPECT_EQ(payload["options"][0]["funds"][0]["deposit"], "1000000");
    EXPECT_EQ(payload["options"][0]["transaction"]["output"],
              (json{{"type", 2}, {"amount", "2779530283277761"}}));
    EXPECT_EQ(payload["options"][1], (json{{"type", 1},
                                           {"targetMilestoneIndex", 17350},
                                           {"protocolVersion", 3},
                                           {"params", "0x01020304"}}));
    EXPECT_EQ(payload["signatures"].size(), 2u);

    json transaction = ToJson(samples::TransactionWithEveryOutputKind());
    EXPECT_EQ(transaction["nonce"], "18446744073709551615");
    EXPECT_EQ(transaction["payload"]["essence"]["networkId"], "14364762045254553490");
    EXPECT_EQ(transaction["payload"]["essence"]["inputs"][2]["transactionOutputIndex"], 127);
    EXPECT_EQ(transaction["payload"]["essence"]["payload"]["tag"], "0x696e");
    EXPECT_EQ(transaction["payload"]["unlocks"][3], (json{{"type", 3}, {"reference", 2}}));
    EXPECT_FALSE(ToJson(samples::WithoutPayload()).contains("payload"));
}

TEST(Json, BlockMetadataFromFixturesRoundTrips)
{
    std::size_t included = 0;
    for (const auto &fixture : fixtures::AllBlocks())
    {
        BlockMetadata metadata;
        metadata.block_id = fixture.block_id;
        for (const auto &parent : fixture.metadata.at("parents"))
            metadata.parents.push_back(fixtures::Binary32(parent));
        metadata.is_solid = fixture.metadata.at("is_solid").get<bool>();
        metadata.referenced_by_milestone_index =
            fixture.metadata.at("referenced_by_milestone_index").get<std::uint32_t>();
        metadata.ledger_inclusion_state =
            ParseLedgerInclusionState(fixture.metadata.at("inclusion_state").get<std::string>());
        ASSERT_TRUE(metadata.ledger_inclusion_state);
        metadata.white_flag_index = fixture.metadata.at("white_flag_index").get<std::uint32_t>();
        metadata.should_promote = fixture.metadata.at("should_promote").get<bool>();
        metadata.should_reattach = fixture.metadata.at("should_reattach").get<bool>();
        metadata.conflict_reason = 0;

        json rendered = ToJson(metadata);
        EXPECT_EQ(rendered["blockId"], ToHex(fixture.block_id));
        if (*metadata.ledger_inclusion_state == LedgerInclusionState::kIncluded)
        {
            EXPECT_EQ(rendered["ledgerInclusionState"], "included");
            ++included;
        }
        EXPECT_EQ(BlockMetadataFromJson(json::parse(rendered.dump())), metadata);
    }
    EXPECT_EQ(included, 5u + 7u + 4u + 1u);
    json no_transaction = ToJson(BlockMetadata{
        Hash32{}, {}, true, {}, {}, LedgerInclusionState::kNoTransaction, {}, {}, {}, {}});
    EXPECT_EQ(no_transaction["ledgerInclusionState"], "noTransaction");
}

TEST(Json, OutputIdText)
{
    OutputId id{samples::Filled(0xab), 0x0102};
    std::string text = OutputIdToHex(id);
    EXPECT_EQ(text, ToHex(samples::Filled(0xab)) + "0201");
    EXPECT_EQ(OutputIdFromHex(text), id);
}

TEST(Json, ErrorsNameThePath)
{
    json block = ToJson(samples::TransactionWithEveryOutputKind());
    block["payload"]["essence"]["outputs"][1].erase("stateIndex");
    try
    {
        BlockFromJson(block);
        FAIL() << "parsed without error";
    }
    catch (const JsonError &error)
    {
        EXPECT_EQ(error.Path(), "$.payload.essence.outputs[1].stateIndex");
    }

    json bad_hex = ToJson(samples::WithoutPayload());
    bad_hex["parents"][0] = "0xzz";
    EXPECT_THROW(BlockFromJson(bad_hex), JsonError);

    json bad_amount = ToJson(Output{TreasuryOutput{5}});
    bad_amount["amount"] = 5; // amounts are decimal strings
    EXPECT_THROW(OutputFromJson(bad_amount), JsonError);

    json big_amount = ToJson(Output{TreasuryOutput{5}});
    big_amount["amount"] = "18446744073709551616"; // 2^64
    EXPECT_THROW(OutputFromJson(big_amount), JsonError);
}

} // namespace
} // namespace permanode::codec
