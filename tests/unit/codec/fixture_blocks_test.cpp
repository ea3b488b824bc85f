// Ground truth: every real Shimmer block decodes, re-encodes byte for byte and hashes to its ID.
#include "codec/block.hpp"
#include "codec/ids.hpp"
#include "fixtures.hpp"

#include <gtest/gtest.h>

#include <map>

namespace permanode::codec
{
namespace
{

class FixtureBlocks : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        blocks_ = new std::vector<fixtures::Block>(fixtures::AllBlocks());
    }
    static void TearDownTestSuite() { delete blocks_; }
    static std::vector<fixtures::Block> *blocks_;
};
std::vector<fixtures::Block> *FixtureBlocks::blocks_ = nullptr;

TEST_F(FixtureBlocks, AllFixtureBlocksAreLoaded)
{
    // 38 + 43 + 31 cone blocks plus the 88 blocks of milestone 2418187.
    EXPECT_EQ(blocks_->size(), 38u + 43u + 31u + 88u);
}

TEST_F(FixtureBlocks, DecodeEncodeIsByteIdentical)
{
    for (const auto &fixture : *blocks_)
    {
        SCOPED_TRACE(fixture.name);
        Block block = DecodeBlock(fixture.raw);
        EXPECT_EQ(EncodeBlock(block), fixture.raw);
    }
}

TEST_F(FixtureBlocks, BlockIdIsHashOfWholeBlock)
{
    for (const auto &fixture : *blocks_)
    {
        SCOPED_TRACE(fixture.name);
        EXPECT_EQ(ComputeBlockId(fixture.raw), fixture.block_id);
        EXPECT_EQ(DecodeBlockWithIds(fixture.raw).block_id, fixture.block_id);
    }
}

TEST_F(FixtureBlocks, ParentsMatchMetadata)
{
    for (const auto &fixture : *blocks_)
    {
        SCOPED_TRACE(fixture.name);
        Block block = DecodeBlock(fixture.raw);
        std::vector<BlockId> expected;
        for (const auto &parent : fixture.metadata.at("parents"))
            expected.push_back(fixtures::Binary32(parent));
        EXPECT_EQ(block.parents, expected);
        EXPECT_EQ(block.protocol_version, 2);
    }
}

TEST_F(FixtureBlocks, IdsFromBytesEqualIdsFromModel)
{
    // DecodeBlockWithIds hashes slices of the input; the model-based functions re-encode.
    for (const auto &fixture : *blocks_)
    {
        SCOPED_TRACE(fixture.name);
        DecodedBlock decoded = DecodeBlockWithIds(fixture.raw);
        if (const auto *transaction = TransactionOf(decoded.block))
        {
            ASSERT_TRUE(decoded.transaction_id);
            EXPECT_EQ(*decoded.transaction_id, ComputeTransactionId(*transaction));
        }
        else
        {
            EXPECT_FALSE(decoded.transaction_id);
        }
        if (const auto *milestone = MilestoneOf(decoded.block))
        {
            ASSERT_TRUE(decoded.milestone_id);
            EXPECT_EQ(*decoded.milestone_id, ComputeMilestoneId(milestone->essence));
        }
        else
        {
            EXPECT_FALSE(decoded.milestone_id);
        }
    }
}

TEST_F(FixtureBlocks, PayloadKindsCovered)
{
    std::map<std::uint32_t, int> kinds;
    std::map<OutputType, int> outputs;
    for (const auto &fixture : *blocks_)
    {
        Block block = DecodeBlock(fixture.raw);
        ASSERT_TRUE(block.payload) << fixture.name;
        ++kinds[TypeOf(*block.payload)];
        if (const auto *transaction = TransactionOf(block))
            for (const auto &output : transaction->essence.outputs)
                ++outputs[TypeOf(output)];
    }
    EXPECT_GT(kinds[kTaggedDataPayloadType], 0);
    EXPECT_EQ(kinds[kTransactionPayloadType], 5 + 7 + 4 + 1);
    EXPECT_EQ(kinds[kMilestonePayloadType], 4);
    EXPECT_GT(outputs[OutputType::kBasic], 0);
    EXPECT_GT(outputs[OutputType::kAlias], 0);
    EXPECT_GT(outputs[OutputType::kNft], 0);
}

// Milestone IDs chain: the previous_milestone_id of milestone N+1 is the ID of milestone N.
TEST_F(FixtureBlocks, MilestoneIdsChain)
{
    std::map<std::uint32_t, MilestonePayload> by_index;
    std::map<std::uint32_t, MilestoneId> ids;
    for (const auto &fixture : *blocks_)
    {
        DecodedBlock decoded = DecodeBlockWithIds(fixture.raw);
        if (const auto *milestone = MilestoneOf(decoded.block))
        {
            by_index[milestone->essence.index] = *milestone;
            ids[milestone->essence.index] = *decoded.milestone_id;
        }
    }
    int links = 0;
    for (const auto &[index, milestone] : by_index)
    {
        auto previous = ids.find(index - 1);
        if (previous == ids.end())
            continue;
        EXPECT_EQ(milestone.essence.previous_milestone_id, previous->second) << index;
        ++links;
    }
    EXPECT_GE(links, 2);

    // And the fixture's own records of milestones 17340/17341 name the cone milestones' IDs.
    nlohmann::json in_memory = fixtures::LoadJson("in_memory_data.json");
    for (const char *index : {"17340", "17341"})
    {
        const auto &essence = in_memory.at(index).at("milestone_data").at("payload").at("essence");
        std::uint32_t previous = static_cast<std::uint32_t>(std::stoul(index)) - 1;
        ASSERT_TRUE(ids.count(previous)) << previous;
        EXPECT_EQ(fixtures::Binary32(essence.at("previous_milestone_id")), ids[previous]);
    }
}

} // namespace
} // namespace permanode::codec
