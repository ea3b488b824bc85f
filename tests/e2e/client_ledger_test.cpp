// The client library's typed calls against the real fixtures, and its cursors.
#include "permanode/client.hpp"

#include "http_fixture.hpp"

using permanode::client::Client;
using permanode::client::Cursor;
using permanode::client::DecodeCursor;
using permanode::client::EncodeCursor;
using permanode::client::Error;
using permanode::client::OutputFilter;
using permanode::client::OutputKind;
using permanode::test::FixtureReaderDsn;

TEST(ClientCursorTest, RoundTripsAndRejectsMalformedText)
{
    Cursor cursor{241, 1676390426000000, 2418187, "0xabc"};
    auto text = EncodeCursor(cursor);
    auto back = DecodeCursor(text);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, cursor);
    EXPECT_FALSE(DecodeCursor("1.2.3").has_value());
    EXPECT_FALSE(DecodeCursor("1.2.3.").has_value());
    EXPECT_FALSE(DecodeCursor("a.2.3.0x00").has_value());
    EXPECT_FALSE(DecodeCursor("1.2.3.0x00'; DROP").has_value());
}

TEST(ClientLedgerTest, BlockOutputAndMilestoneLookups)
{
    Client client(FixtureReaderDsn());
    auto block =
        client.GetBlock("0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d");
    ASSERT_TRUE(block.has_value());
    EXPECT_EQ(block->variant, "transaction");
    EXPECT_EQ(block->milestone_index, 17339);
    EXPECT_EQ(block->inclusion_state, 1);

    auto output =
        client.GetOutput("0x2d8607c844612ed5d3acb41490cc527f9dc33f2f7fe0dedb6108337ac47c39da0000");
    ASSERT_TRUE(output.has_value());
    EXPECT_FALSE(output->is_spent);
    EXPECT_EQ(output->milestone_index_booked, 2418187);

    auto milestone = client.GetMilestoneByIndex(17340);
    ASSERT_TRUE(milestone.has_value());
    EXPECT_EQ(milestone->milestone_id,
              "0xa368e454c5c6db0ad1ee5b3e9af528c25c6887b3824680c055c0882fbb6e9eb4");
    EXPECT_EQ(client.GetMilestoneById(milestone->milestone_id)->milestone_index, 17340);
    EXPECT_FALSE(client.GetMilestoneByIndex(17341).has_value());
    EXPECT_EQ(client.GetLedgerIndex(), 2418187);
}

TEST(ClientLedgerTest, IndexerFiltersCombine)
{
    Client client(FixtureReaderDsn());
    OutputFilter filter;
    filter.tag = "0x536f6f6e617665727365";
    auto tagged = client.QueryOutputs(OutputKind::kBasic, filter, false, 1000, std::nullopt);
    ASSERT_FALSE(tagged.items.empty());
    filter.has_native_tokens = true;
    auto with_tokens = client.QueryOutputs(OutputKind::kBasic, filter, false, 1000, std::nullopt);
    EXPECT_LT(with_tokens.items.size(), tagged.items.size());
    EXPECT_FALSE(with_tokens.items.empty());
    filter.has_native_tokens = false;
    auto without = client.QueryOutputs(OutputKind::kBasic, filter, false, 1000, std::nullopt);
    EXPECT_EQ(with_tokens.items.size() + without.items.size(), tagged.items.size());
}

TEST(ClientLedgerTest, ErrorsCarryTheSqlstate)
{
    Client client(FixtureReaderDsn());
    try
    {
        client.GetBlock("0xnothex");
        FAIL() << "a malformed ID should fail";
    }
    catch (const Error &e)
    {
        EXPECT_EQ(e.sqlstate().substr(0, 2), "22") << e.sqlstate();
    }
    OutputFilter filter;
    filter.tag = "0x00";
    EXPECT_THROW(client.QueryOutputs(OutputKind::kAlias, filter, false, 10, std::nullopt), Error);
}
