// Malformed Chrysalis input must raise DecodeError naming the field and its offset.
#include "decoding_error.hpp"
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

const auto DecodeMessageOf = [](const Bytes &bytes) { DecodeMessage(bytes); };

// Offsets inside MessageWith(DustTransaction()): 8 network ID, 1 count, 64 parents, 4 length.
constexpr std::size_t kPayloadAt = 8 + 1 + 64 + 4;
constexpr std::size_t kInputTypeAt = kPayloadAt + 4 + 1 + 2;
constexpr std::size_t kOutputTypeAt = kInputTypeAt + 35 + 2;

// Inside MessageWith(Milestone(receipt)): milestone type, index, timestamp, parents, merkle
// proof, next PoW score and its index, keys, receipt length and type, then the receipt body.
constexpr std::size_t kReceiptAt = kPayloadAt + 4 + 4 + 8 + 65 + 32 + 4 + 4 + 65 + 4 + 4;
// In a transaction of one input: the second output starts after the first's 42 bytes (type,
// address, amount), whose amount is its last 8.
constexpr std::size_t kAmountAt = kOutputTypeAt + 1 + 33;
constexpr std::size_t kSecondOutputAt = kOutputTypeAt + 42;

Bytes DustMessageBytes()
{
    return EncodeMessage(MessageWith(DustTransaction()));
}

// DustTransaction() with a single output of `amount` to 0x21.. ahead of its dust allowance.
TransactionPayload WithSingleOutput(std::uint64_t amount)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.outputs.insert(transaction.essence.outputs.begin(),
                                       SigLockedSingleOutput{AddressOf(0x21), amount});
    return transaction;
}

void ExpectError(const Message &message, const char *field, std::size_t offset)
{
    DecodeError error = DecodingError(DecodeMessageOf, EncodeMessage(message));
    EXPECT_EQ(error.Field(), field) << error.what();
    EXPECT_EQ(error.Offset(), offset) << error.what();
}

TEST(ChrysalisDecodeErrors, EveryTruncationOfEveryFixtureIsRejected)
{
    for (const fixtures::Record &record : fixtures::Messages())
    {
        for (std::size_t length = 0; length < record.bytes.size(); ++length)
        {
            Bytes prefix(record.bytes.begin(), record.bytes.begin() + length);
            DecodeError error = DecodingError(DecodeMessageOf, prefix);
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
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "message.nonce");
    EXPECT_EQ(error.Offset(), bytes.size() - 7);
}

TEST(ChrysalisDecodeErrors, TrailingBytes)
{
    Bytes bytes = DustMessageBytes();
    std::size_t end = bytes.size();
    bytes.push_back(0);
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "message");
    EXPECT_EQ(error.Offset(), end);
}

TEST(ChrysalisDecodeErrors, UnsortedParents)
{
    Message message = MessageWith(DustTransaction());
    std::swap(message.parents[0], message.parents[1]);
    DecodeError error = DecodingError(DecodeMessageOf, EncodeMessage(message));
    EXPECT_EQ(error.Field(), "message.parents");
    EXPECT_EQ(error.Offset(), 8u + 1 + 32);
}

TEST(ChrysalisDecodeErrors, DuplicateParents)
{
    Message message = MessageWith(DustTransaction());
    message.parents[1] = message.parents[0];
    DecodeError error = DecodingError(DecodeMessageOf, EncodeMessage(message));
    EXPECT_EQ(error.Field(), "message.parents");
    EXPECT_EQ(error.Offset(), 8u + 1 + 32);
}

TEST(ChrysalisDecodeErrors, NoParentsAndTooManyParents)
{
    Message message = MessageWith(DustTransaction());
    message.parents.clear();
    EXPECT_EQ(DecodingError(DecodeMessageOf, EncodeMessage(message)).Field(), "message.parents");
    for (std::uint8_t i = 0; i < 8; ++i)
        message.parents.push_back(Filled<32>(i));
    Bytes bytes = EncodeMessage(message);
    EXPECT_NO_THROW(DecodeMessage(bytes));
    // Nine: a message holds at most eight parents, so the ninth goes into the bytes.
    bytes[8] = 9;
    Hash32 ninth = Filled<32>(8);
    bytes.insert(bytes.begin() + 8 + 1 + 8 * 32, ninth.begin(), ninth.end());
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "message.parents");
    EXPECT_EQ(error.Offset(), 8u);
}

TEST(ChrysalisDecodeErrors, UnknownPayloadType)
{
    Bytes bytes = DustMessageBytes();
    bytes[kPayloadAt] = 5;
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "payload.type");
    EXPECT_EQ(error.Offset(), kPayloadAt);
}

TEST(ChrysalisDecodeErrors, UnknownAndTreasuryInputTypes)
{
    for (std::uint8_t type : {1, 7})
    {
        Bytes bytes = DustMessageBytes();
        bytes[kInputTypeAt] = type;
        DecodeError error = DecodingError(DecodeMessageOf, bytes);
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
        DecodeError error = DecodingError(DecodeMessageOf, bytes);
        EXPECT_EQ(error.Field(), "output.type") << int(type);
        EXPECT_EQ(error.Offset(), kOutputTypeAt);
    }
}

TEST(ChrysalisDecodeErrors, UnknownUnlockType)
{
    Bytes bytes = DustMessageBytes();
    std::size_t unlock_at = bytes.size() - 8 - 98;
    bytes[unlock_at] = 2;
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "unlock.type");
    EXPECT_EQ(error.Offset(), unlock_at);
}

TEST(ChrysalisDecodeErrors, ReferenceUnlockMustPointAtAnEarlierSignature)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    transaction.unlocks.push_back(ReferenceUnlock{1}); // itself
    DecodeError error = DecodingError(DecodeMessageOf, EncodeMessage(MessageWith(transaction)));
    EXPECT_EQ(error.Field(), "reference_unlock.reference");
}

TEST(ChrysalisDecodeErrors, UnlockCountMustMatchInputs)
{
    TransactionPayload transaction = DustTransaction();
    transaction.unlocks.push_back(ReferenceUnlock{0});
    EXPECT_EQ(DecodingError(DecodeMessageOf, EncodeMessage(MessageWith(transaction))).Field(),
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
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "transaction_essence.payload.type");
    EXPECT_EQ(error.Offset(), type_at);
}

TEST(ChrysalisDecodeErrors, PayloadLengthMismatch)
{
    Bytes bytes = DustMessageBytes();
    bytes[kPayloadAt - 4] -= 1; // declares one byte less than the payload has
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "message.payload_length");
    EXPECT_EQ(error.Offset(), kPayloadAt - 4);
}

TEST(ChrysalisDecodeErrors, ReceiptFinalFlagIsABoolean)
{
    Bytes bytes = EncodeMessage(MessageWith(Milestone(Receipt())));
    std::size_t final_at = kReceiptAt + 4;
    ASSERT_EQ(bytes[final_at], 1);
    bytes[final_at] = 2;
    DecodeError error = DecodingError(DecodeMessageOf, bytes);
    EXPECT_EQ(error.Field(), "receipt.final");
    EXPECT_EQ(error.Offset(), final_at);
}

TEST(ChrysalisDecodeErrors, ReceiptFundsAreSortedWithUniqueTails)
{
    ReceiptPayload receipt = Receipt();
    MigratedFundsEntry second = receipt.funds[0];
    second.tail_transaction_hash[48] = 0x56;
    receipt.funds.push_back(second);
    // The second entry starts after migrated at, final, count and one 90-byte entry.
    std::size_t second_at = kReceiptAt + 4 + 1 + 2 + 90;
    Message message = MessageWith(Milestone(receipt));
    EXPECT_EQ(DecodeMessage(EncodeMessage(message)), message);

    std::swap(receipt.funds[0], receipt.funds[1]);
    ExpectError(MessageWith(Milestone(receipt)), "migrated_funds.tail_transaction_hash", second_at);

    receipt.funds[0] = receipt.funds[1];
    receipt.funds[1].deposit += 1; // same tail, larger entry: sorted but not unique
    ExpectError(MessageWith(Milestone(receipt)), "migrated_funds.tail_transaction_hash", second_at);
}

// TIP-17: every migrated deposit is at least 1 Mi, and all of them fit the total supply.
TEST(ChrysalisDecodeErrors, MigratedDepositsAreAtLeastOneMiAndWithinTheSupply)
{
    std::size_t deposit_at = kReceiptAt + 4 + 1 + 2 + 49 + 33;
    ReceiptPayload receipt = Receipt();
    receipt.funds[0].deposit = 999'999;
    ExpectError(MessageWith(Milestone(receipt)), "migrated_funds.deposit", deposit_at);

    receipt = Receipt();
    MigratedFundsEntry second = receipt.funds[0];
    second.tail_transaction_hash[48] = 0x56;
    second.deposit = limits::kTotalSupply;
    receipt.funds.push_back(second);
    ExpectError(MessageWith(Milestone(receipt)), "migrated_funds.deposit", deposit_at + 90);
}

TEST(ChrysalisDecodeErrors, TreasuryOutputWithinTheSupply)
{
    ReceiptPayload receipt = Receipt();
    receipt.transaction.output.amount = limits::kTotalSupply;
    EXPECT_NO_THROW(DecodeMessage(EncodeMessage(MessageWith(Milestone(receipt)))));
    receipt.transaction.output.amount = limits::kTotalSupply + 1;
    // After the entry, the treasury transaction's length, type, input (33) and output type.
    std::size_t amount_at = kReceiptAt + 4 + 1 + 2 + 90 + 4 + 4 + 33 + 1;
    ExpectError(MessageWith(Milestone(receipt)), "treasury_output.amount", amount_at);
}

// TIP-6 and TIP-17: receipts and treasury transactions are carried by milestones only.
TEST(ChrysalisDecodeErrors, ReceiptAndTreasuryTransactionAloneAreRefused)
{
    ExpectError(MessageWith(Receipt()), "payload.type", kPayloadAt);
    ExpectError(MessageWith(TreasuryTransaction()), "payload.type", kPayloadAt);
}

TEST(ChrysalisDecodeErrors, InputsAscendAndAreUnique)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x11), 0}); // index 0 after 1
    transaction.unlocks.push_back(ReferenceUnlock{0});
    std::size_t second_at = kInputTypeAt + 35;
    ExpectError(MessageWith(transaction), "transaction_essence.inputs", second_at);

    std::get<UtxoInput>(transaction.essence.inputs[1]).index = 1; // the same output twice
    ExpectError(MessageWith(transaction), "transaction_essence.inputs", second_at);

    std::get<UtxoInput>(transaction.essence.inputs[1]).index = 2;
    EXPECT_NO_THROW(DecodeMessage(EncodeMessage(MessageWith(transaction))));
}

TEST(ChrysalisDecodeErrors, OutputsAscendAndAreUniquePerTypeAndAddress)
{
    // A single output and a dust allowance may share their address (TIP-15).
    TransactionPayload transaction = WithSingleOutput(5);
    std::get<SigLockedSingleOutput>(transaction.essence.outputs[0]).address = AddressOf(0x22);
    EXPECT_NO_THROW(DecodeMessage(EncodeMessage(MessageWith(transaction))));

    // Type 1 before type 0 is out of order (by bytes), however the addresses sort.
    std::swap(transaction.essence.outputs[0], transaction.essence.outputs[1]);
    ExpectError(MessageWith(transaction), "transaction_essence.outputs", kSecondOutputAt);

    // Two single outputs to one address, whatever their amounts.
    transaction = WithSingleOutput(5);
    transaction.essence.outputs[1] = SigLockedSingleOutput{AddressOf(0x21), 4};
    ExpectError(MessageWith(transaction), "transaction_essence.outputs", kSecondOutputAt);

    transaction.essence.outputs[1] = SigLockedSingleOutput{AddressOf(0x20), 6};
    ExpectError(MessageWith(transaction), "transaction_essence.outputs", kSecondOutputAt);
}

TEST(ChrysalisDecodeErrors, AmountsAreAboveZeroAndWithinTheSupply)
{
    ExpectError(MessageWith(WithSingleOutput(0)), "sig_locked_single_output.amount", kAmountAt);
    EXPECT_NO_THROW(DecodeMessage(
        EncodeMessage(MessageWith(WithSingleOutput(limits::kTotalSupply - 1'000'000)))));
    ExpectError(MessageWith(WithSingleOutput(limits::kTotalSupply - 999'999)),
                "sig_locked_dust_allowance_output.amount", kSecondOutputAt + 1 + 33);
    ExpectError(MessageWith(WithSingleOutput(~std::uint64_t{0})), "sig_locked_single_output.amount",
                kAmountAt);
}

// TIP-15: a dust allowance deposits at least 1 Mi.
TEST(ChrysalisDecodeErrors, DustAllowanceIsAtLeastOneMi)
{
    TransactionPayload transaction = DustTransaction();
    std::get<SigLockedDustAllowanceOutput>(transaction.essence.outputs[0]).amount = 999'999;
    ExpectError(MessageWith(transaction), "sig_locked_dust_allowance_output.amount", kAmountAt);
}

TEST(ChrysalisDecodeErrors, SignatureUnlocksAreUnique)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    transaction.unlocks.push_back(transaction.unlocks[0]);
    Bytes bytes = EncodeMessage(MessageWith(transaction));
    std::size_t second_at = bytes.size() - 8 - 98;
    ExpectError(MessageWith(transaction), "signature_unlock", second_at);

    // Another signature by the same key is a different unlock.
    std::get<SignatureUnlock>(transaction.unlocks[1]).signature[0] ^= 1;
    EXPECT_NO_THROW(DecodeMessage(EncodeMessage(MessageWith(transaction))));
}

// TIP-8: the milestone names its message's parents; a next PoW score comes with a later index.
TEST(ChrysalisDecodeErrors, MilestoneParentsAndNextPowScore)
{
    std::size_t parents_at = kPayloadAt + 4 + 4 + 8;
    MilestonePayload milestone = Milestone();
    milestone.essence.parents = {Filled<32>(0x01)};
    ExpectError(MessageWith(milestone), "milestone.parents", parents_at);

    std::size_t next_index_at = parents_at + 65 + 32 + 4;
    milestone = Milestone();
    milestone.essence.next_pow_score_milestone_index = 9;
    ExpectError(MessageWith(milestone), "milestone.next_pow_score_milestone_index", next_index_at);
    milestone.essence.next_pow_score = 2000;
    EXPECT_NO_THROW(DecodeMessage(EncodeMessage(MessageWith(milestone))));
    milestone.essence.next_pow_score_milestone_index = 7;
    ExpectError(MessageWith(milestone), "milestone.next_pow_score_milestone_index", next_index_at);
}

TEST(ChrysalisDecodeErrors, UnsortedMilestoneKeys)
{
    MilestonePayload milestone = Milestone();
    std::swap(milestone.essence.public_keys[0], milestone.essence.public_keys[1]);
    EXPECT_EQ(DecodingError(DecodeMessageOf, EncodeMessage(MessageWith(milestone))).Field(),
              "milestone.public_keys");
}

} // namespace
} // namespace permanode::codec::chrysalis
