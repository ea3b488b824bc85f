// Malformed input must raise DecodeError naming the field and offset, never crash or over-read.
#include "decoding_error.hpp"
#include "codec/block.hpp"
#include "codec/error.hpp"
#include "fixtures.hpp"

#include <gtest/gtest.h>

#include <string>

namespace permanode::codec
{
namespace
{

const auto DecodeBlockOf = [](const Bytes &bytes) { DecodeBlock(bytes); };

Hash32 Id(std::uint8_t first)
{
    Hash32 id{};
    id[0] = first;
    return id;
}

Block TaggedBlock(Bytes tag, Bytes data)
{
    Block block;
    block.parents = {Id(1), Id(2)};
    block.payload = TaggedDataPayload{std::move(tag), std::move(data)};
    block.nonce = 7;
    return block;
}

Block TransactionBlock(std::size_t inputs, std::size_t outputs)
{
    TransactionPayload transaction;
    transaction.essence.network_id = 1;
    for (std::size_t i = 0; i < inputs; ++i)
    {
        transaction.essence.inputs.push_back(OutputId{Id(static_cast<std::uint8_t>(i)), 0});
        transaction.unlocks.emplace_back(ReferenceUnlock{0});
    }
    BasicOutput basic;
    basic.amount = 1;
    basic.unlock_conditions = {AddressUnlockCondition{Address{}}};
    for (std::size_t i = 0; i < outputs; ++i)
        transaction.essence.outputs.emplace_back(basic);
    Block block;
    block.parents = {Id(1)};
    block.payload = transaction;
    return block;
}

// Offset of the payload (u32 type) in a block with `parents` parents.
std::size_t PayloadOffset(std::size_t parents)
{
    return 1 + 1 + 32 * parents + 4;
}

TEST(DecodeErrors, EveryTruncationOfEveryFixtureBlockIsRejected)
{
    std::size_t checked = 0;
    for (const auto &fixture : fixtures::AllBlocks())
    {
        for (std::size_t length = 0; length < fixture.raw.size(); ++length)
        {
            Bytes prefix(fixture.raw.begin(), fixture.raw.begin() + length);
            EXPECT_THROW(DecodeBlock(prefix), DecodeError) << fixture.name << " cut at " << length;
            ++checked;
        }
    }
    EXPECT_GT(checked, 10000u);
}

TEST(DecodeErrors, TruncationNamesFieldAndOffset)
{
    Bytes bytes = EncodeBlock(TaggedBlock({'a'}, {'b', 'c'}));
    bytes.resize(PayloadOffset(2) + 6); // cut inside the tagged data
    // The payload length no longer fits, so the length field is blamed where it starts.
    DecodeError error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "block.payload_length");
    EXPECT_EQ(error.Offset(), PayloadOffset(2) - 4);

    Bytes nonce_cut = EncodeBlock(TaggedBlock({}, {}));
    std::size_t nonce_at = nonce_cut.size() - 8;
    nonce_cut.resize(nonce_cut.size() - 1);
    error = DecodingError(DecodeBlockOf, nonce_cut);
    EXPECT_EQ(error.Field(), "block.nonce");
    EXPECT_EQ(error.Offset(), nonce_at);
    EXPECT_NE(std::string(error.what()).find("truncated"), std::string::npos);
}

TEST(DecodeErrors, TrailingBytes)
{
    Bytes bytes = EncodeBlock(TaggedBlock({'a'}, {'b'}));
    std::size_t end = bytes.size();
    bytes.push_back(0);
    DecodeError error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "block");
    EXPECT_EQ(error.Offset(), end);
}

TEST(DecodeErrors, PayloadLengthMismatch)
{
    Bytes bytes = EncodeBlock(TaggedBlock({'a'}, {'b'}));
    bytes[PayloadOffset(2) - 4] -= 1; // the payload claims one byte less than it has
    EXPECT_EQ(DecodingError(DecodeBlockOf, bytes).Field(), "block.payload_length");
}

TEST(DecodeErrors, UnknownTypeBytes)
{
    Bytes bytes = EncodeBlock(TaggedBlock({'a'}, {'b'}));
    bytes[PayloadOffset(2)] = 9;
    DecodeError error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "payload.type");
    EXPECT_EQ(error.Offset(), PayloadOffset(2));

    // Treasury transactions live only inside receipts.
    bytes[PayloadOffset(2)] = 4;
    EXPECT_EQ(DecodingError(DecodeBlockOf, bytes).Field(), "payload.type");

    Bytes transaction = EncodeBlock(TransactionBlock(1, 1));
    // payload type (4) + essence type (1) + network ID (8) + inputs count (2) + input (35) +
    // commitment (32) + outputs count (2) = first output's type byte
    std::size_t output_at = PayloadOffset(1) + 4 + 1 + 8 + 2 + 35 + 32 + 2;
    ASSERT_EQ(transaction[output_at], 3);
    transaction[output_at] = 7;
    error = DecodingError(DecodeBlockOf, transaction);
    EXPECT_EQ(error.Field(), "output.type");
    EXPECT_EQ(error.Offset(), output_at);

    transaction[output_at] = 3;
    // amount (8) + native token count (1) + unlock condition count (1) + condition type (1)
    std::size_t address_at = output_at + 1 + 8 + 1 + 1 + 1;
    transaction[address_at] = 1;
    error = DecodingError(DecodeBlockOf, transaction);
    EXPECT_EQ(error.Field(), "address_unlock_condition.address");
    EXPECT_EQ(error.Offset(), address_at);

    transaction[address_at] = 0;
    transaction[address_at - 1] = 4; // state controller: not allowed on a basic output
    EXPECT_EQ(DecodingError(DecodeBlockOf, transaction).Field(), "unlock_condition.type");
}

TEST(DecodeErrors, ParentsMustBeOneToEightSortedAndUnique)
{
    Block block = TaggedBlock({}, {});
    block.parents.clear();
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(block)).Field(), "block.parents");

    block.parents = {Id(2), Id(1)};
    DecodeError error = DecodingError(DecodeBlockOf, EncodeBlock(block));
    EXPECT_EQ(error.Field(), "block.parents");
    EXPECT_EQ(error.Offset(), 2u + 32u);

    block.parents = {Id(1), Id(1)};
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(block)).Field(), "block.parents");

    block.parents = {Id(1), Id(2), Id(3), Id(4), Id(5), Id(6), Id(7), Id(8)};
    Bytes bytes = EncodeBlock(block);
    EXPECT_NO_THROW(DecodeBlock(bytes));

    // Nine: a block holds at most eight parents, so the ninth goes into the bytes.
    bytes[1] = 9;
    Hash32 ninth = Id(9);
    bytes.insert(bytes.begin() + 2 + 8 * 32, ninth.begin(), ninth.end());
    error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "block.parents");
    EXPECT_EQ(error.Offset(), 1u);
}

TEST(DecodeErrors, InputAndOutputCountLimits)
{
    EXPECT_NO_THROW(DecodeBlock(EncodeBlock(TransactionBlock(128, 1))));
    EXPECT_NO_THROW(DecodeBlock(EncodeBlock(TransactionBlock(1, 128))));
    DecodeError error = DecodingError(DecodeBlockOf, EncodeBlock(TransactionBlock(129, 1)));
    EXPECT_EQ(error.Field(), "transaction_essence.inputs.count");
    EXPECT_EQ(error.Offset(), PayloadOffset(1) + 4 + 1 + 8);
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(TransactionBlock(1, 129))).Field(),
              "transaction_essence.outputs.count");
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(TransactionBlock(0, 1))).Field(),
              "transaction_essence.inputs.count");
}

TEST(DecodeErrors, TagAndMetadataLimits)
{
    EXPECT_NO_THROW(DecodeBlock(EncodeBlock(TaggedBlock(Bytes(64, 'a'), {}))));
    // 65 bytes: a payload holds a tag of at most 64, so the 65th goes into the bytes (and the
    // tag's and the payload's lengths grow by one).
    Bytes bytes = EncodeBlock(TaggedBlock(Bytes(64, 'a'), {}));
    const std::size_t tag_at = PayloadOffset(2) + 4;
    bytes[tag_at] = 65;
    bytes.insert(bytes.begin() + tag_at + 1, 'a');
    bytes[PayloadOffset(2) - 4] += 1;
    DecodeError error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "tagged_data.tag");
    EXPECT_EQ(error.Offset(), PayloadOffset(2) + 4);

    Block with_features = TransactionBlock(1, 1);
    auto &basic = std::get<BasicOutput>(
        std::get<TransactionPayload>(*with_features.payload).essence.outputs[0]);
    basic.features = {MetadataFeature{Bytes(8192, 1)}, TagFeature{Bytes(64, 2)}};
    EXPECT_NO_THROW(DecodeBlock(EncodeBlock(with_features)));

    basic.features = {MetadataFeature{Bytes(8193, 1)}};
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(with_features)).Field(),
              "metadata_feature.data");
    basic.features = {TagFeature{Bytes(65, 2)}};
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(with_features)).Field(), "tag_feature.tag");
    basic.features = {TagFeature{Bytes{}}};
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(with_features)).Field(), "tag_feature.tag");
    basic.features = {TagFeature{Bytes{1}}, MetadataFeature{Bytes{1}}};
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(with_features)).Field(),
              "feature.type"); // unsorted
}

TEST(DecodeErrors, BlockLengthLimit)
{
    Block block = TaggedBlock({}, {});
    std::size_t overhead = EncodeBlock(block).size();
    std::get<TaggedDataPayload>(*block.payload).data.resize(limits::kMaxBlockLength - overhead);
    EXPECT_EQ(EncodeBlock(block).size(), limits::kMaxBlockLength);
    EXPECT_NO_THROW(DecodeBlock(EncodeBlock(block)));

    std::get<TaggedDataPayload>(*block.payload).data.push_back(0);
    DecodeError error = DecodingError(DecodeBlockOf, EncodeBlock(block));
    EXPECT_EQ(error.Field(), "block");
    EXPECT_EQ(error.Offset(), 0u);
}

TEST(DecodeErrors, UnlockCountMustMatchInputs)
{
    Block block = TransactionBlock(2, 1);
    std::get<TransactionPayload>(*block.payload).unlocks.pop_back();
    EXPECT_EQ(DecodingError(DecodeBlockOf, EncodeBlock(block)).Field(),
              "transaction.unlocks.count");
}

TEST(DecodeErrors, ProtocolVersionMustBeTwo)
{
    Bytes bytes = EncodeBlock(TaggedBlock({}, {}));
    bytes[0] = 3;
    DecodeError error = DecodingError(DecodeBlockOf, bytes);
    EXPECT_EQ(error.Field(), "block.protocol_version");
    EXPECT_EQ(error.Offset(), 0u);
}

} // namespace
} // namespace permanode::codec
