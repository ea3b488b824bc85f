// Malformed Chrysalis input must raise DecodeError naming the field and its offset.
#include "chrysalis_fixtures.hpp"
#include "chrysalis_samples.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

using namespace samples;

DecodeError ErrorOf(const Bytes &bytes)
{
    try
    {
        DecodeMessage(bytes);
    }
    catch (const DecodeError &error)
    {
        return error;
    }
    ADD_FAILURE() << "decoded without error";
    return DecodeError("none", 0, "none");
}

// Offsets inside MessageWith(DustTransaction()): 8 network ID, 1 count, 64 parents, 4 length.
constexpr std::size_t kPayloadAt = 8 + 1 + 64 + 4;
constexpr std::size_t kInputTypeAt = kPayloadAt + 4 + 1 + 2;
constexpr std::size_t kOutputTypeAt = kInputTypeAt + 35 + 2;

Bytes DustMessageBytes()
{
    return EncodeMessage(MessageWith(DustTransaction()));
}

TEST(ChrysalisDecodeErrors, EveryTruncationOfEveryFixtureIsRejected)
{
    for (const fixtures::Record &record : fixtures::Messages())
    {
        for (std::size_t length = 0; length < record.bytes.size(); ++length)
        {
            Bytes prefix(record.bytes.begin(), record.bytes.begin() + length);
            DecodeError error = ErrorOf(prefix);
            EXPECT_FALSE(error.Field().empty()) << record.label << " at " << length;
            EXPECT_NE(error.Field(), "none") << record.label << " at " << length;
            EXPECT_LE(error.Offset(), length) << record.label << " at " << length;
            EXPECT_NE(std::string(error.what()).find(error.Field()), std::string::npos);
        }
    }
}

TEST(ChrysalisDecodeErrors, TruncatedNonceNamesTheNonce)
{
    Bytes bytes = DustMessageBytes();
    bytes.pop_back();
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "message.nonce");
    EXPECT_EQ(error.Offset(), bytes.size() - 7);
}

TEST(ChrysalisDecodeErrors, TrailingBytes)
{
    Bytes bytes = DustMessageBytes();
    std::size_t end = bytes.size();
    bytes.push_back(0);
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "message");
    EXPECT_EQ(error.Offset(), end);
}

TEST(ChrysalisDecodeErrors, UnsortedParents)
{
    Message message = MessageWith(DustTransaction());
    std::swap(message.parents[0], message.parents[1]);
    DecodeError error = ErrorOf(EncodeMessage(message));
    EXPECT_EQ(error.Field(), "message.parents");
    EXPECT_EQ(error.Offset(), 8u + 1 + 32);
}

TEST(ChrysalisDecodeErrors, DuplicateParents)
{
    Message message = MessageWith(DustTransaction());
    message.parents[1] = message.parents[0];
    DecodeError error = ErrorOf(EncodeMessage(message));
    EXPECT_EQ(error.Field(), "message.parents");
    EXPECT_EQ(error.Offset(), 8u + 1 + 32);
}

TEST(ChrysalisDecodeErrors, NoParentsAndTooManyParents)
{
    Message message = MessageWith(DustTransaction());
    message.parents.clear();
    EXPECT_EQ(ErrorOf(EncodeMessage(message)).Field(), "message.parents");
    for (std::uint8_t i = 0; i < 9; ++i)
        message.parents.push_back(Filled<32>(i));
    EXPECT_EQ(ErrorOf(EncodeMessage(message)).Field(), "message.parents");
}

TEST(ChrysalisDecodeErrors, UnknownPayloadType)
{
    Bytes bytes = DustMessageBytes();
    bytes[kPayloadAt] = 5;
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "payload.type");
    EXPECT_EQ(error.Offset(), kPayloadAt);
}

TEST(ChrysalisDecodeErrors, UnknownAndTreasuryInputTypes)
{
    for (std::uint8_t type : {1, 7})
    {
        Bytes bytes = DustMessageBytes();
        bytes[kInputTypeAt] = type;
        DecodeError error = ErrorOf(bytes);
        EXPECT_EQ(error.Field(), "input.type") << int(type);
        EXPECT_EQ(error.Offset(), kInputTypeAt);
    }
}

TEST(ChrysalisDecodeErrors, UnknownAndTreasuryOutputTypes)
{
    for (std::uint8_t type : {2, 3})
    {
        Bytes bytes = DustMessageBytes();
        bytes[kOutputTypeAt] = type;
        DecodeError error = ErrorOf(bytes);
        EXPECT_EQ(error.Field(), "output.type") << int(type);
        EXPECT_EQ(error.Offset(), kOutputTypeAt);
    }
}

TEST(ChrysalisDecodeErrors, UnknownUnlockType)
{
    Bytes bytes = DustMessageBytes();
    std::size_t unlock_at = bytes.size() - 8 - 98;
    bytes[unlock_at] = 2;
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "unlock.type");
    EXPECT_EQ(error.Offset(), unlock_at);
}

TEST(ChrysalisDecodeErrors, ReferenceUnlockMustPointAtAnEarlierSignature)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    transaction.unlocks.push_back(ReferenceUnlock{1}); // itself
    DecodeError error = ErrorOf(EncodeMessage(MessageWith(transaction)));
    EXPECT_EQ(error.Field(), "reference_unlock.reference");
}

TEST(ChrysalisDecodeErrors, UnlockCountMustMatchInputs)
{
    TransactionPayload transaction = DustTransaction();
    transaction.unlocks.push_back(ReferenceUnlock{0});
    EXPECT_EQ(ErrorOf(EncodeMessage(MessageWith(transaction))).Field(),
              "transaction.unlocks.count");
}

TEST(ChrysalisDecodeErrors, EssencePayloadMustBeIndexation)
{
    // Replace the empty essence payload length by one that announces a treasury transaction.
    TransactionPayload transaction = DustTransaction();
    transaction.essence.payload = IndexationPayload{{'a'}, {}};
    Bytes bytes = EncodeMessage(MessageWith(transaction));
    std::size_t type_at = kOutputTypeAt + 42 + 4;
    ASSERT_EQ(bytes[type_at], 2);
    bytes[type_at] = 4;
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "transaction_essence.payload.type");
    EXPECT_EQ(error.Offset(), type_at);
}

TEST(ChrysalisDecodeErrors, PayloadLengthMismatch)
{
    Bytes bytes = DustMessageBytes();
    bytes[kPayloadAt - 4] -= 1; // declares one byte less than the payload has
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "message.payload_length");
    EXPECT_EQ(error.Offset(), kPayloadAt - 4);
}

TEST(ChrysalisDecodeErrors, ReceiptFinalFlagIsABoolean)
{
    Bytes bytes = EncodeMessage(MessageWith(Receipt()));
    std::size_t final_at = kPayloadAt + 4 + 4;
    ASSERT_EQ(bytes[final_at], 1);
    bytes[final_at] = 2;
    DecodeError error = ErrorOf(bytes);
    EXPECT_EQ(error.Field(), "receipt.final");
    EXPECT_EQ(error.Offset(), final_at);
}

TEST(ChrysalisDecodeErrors, ReceiptFundsAreSortedWithUniqueTails)
{
    ReceiptPayload receipt = Receipt();
    MigratedFundsEntry second = receipt.funds[0];
    second.tail_transaction_hash[48] = 0x56;
    receipt.funds.push_back(second);
    // The second entry starts after type, migrated at, final, count and one 90-byte entry.
    std::size_t second_at = kPayloadAt + 4 + 4 + 1 + 2 + 90;
    EXPECT_EQ(DecodeMessage(EncodeMessage(MessageWith(receipt))), MessageWith(receipt));

    std::swap(receipt.funds[0], receipt.funds[1]);
    DecodeError unsorted = ErrorOf(EncodeMessage(MessageWith(receipt)));
    EXPECT_EQ(unsorted.Field(), "migrated_funds.tail_transaction_hash");
    EXPECT_EQ(unsorted.Offset(), second_at);

    receipt.funds[0] = receipt.funds[1];
    receipt.funds[1].deposit += 1; // same tail, larger entry: sorted but not unique
    DecodeError repeated = ErrorOf(EncodeMessage(MessageWith(receipt)));
    EXPECT_EQ(repeated.Field(), "migrated_funds.tail_transaction_hash");
    EXPECT_EQ(repeated.Offset(), second_at);
}

TEST(ChrysalisDecodeErrors, UnsortedMilestoneKeys)
{
    MilestonePayload milestone;
    milestone.essence.parents = {Filled<32>(0x0a)};
    milestone.essence.public_keys = {Filled<32>(0x0c), Filled<32>(0x0b)};
    milestone.signatures = {Filled<64>(0x0d), Filled<64>(0x0e)};
    EXPECT_EQ(ErrorOf(EncodeMessage(MessageWith(milestone))).Field(), "milestone.public_keys");
}

} // namespace
} // namespace permanode::codec::chrysalis
