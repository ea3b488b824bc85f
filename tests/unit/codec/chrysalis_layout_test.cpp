// Dust allowance outputs, receipts and treasury transactions have no real fixture (none of the
// 11 real messages carries one): they are built from the TIP-15 and TIP-17 layouts, and their bytes
// are compared with hex written out by hand field by field from those tables, then round-tripped
// (encode -> decode -> encode).
#include "chrysalis_samples.hpp"
#include "codec/bech32.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"

#include <gtest/gtest.h>

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

using namespace samples;

std::string Repeat(const std::string &byte, std::size_t times)
{
    std::string out;
    for (std::size_t i = 0; i < times; ++i)
        out += byte;
    return out;
}

// The hex of a message around a payload of `payload_hex` (network ID, two parents, length, nonce).
std::string MessageHex(const std::string &payload_hex, const std::string &length_hex)
{
    return "8877665544332211"
           "02" +
           Repeat("01", 32) + Repeat("02", 32) + length_hex + payload_hex + "0102030405060708";
}

std::string Hex(const Bytes &bytes)
{
    return ToHex(bytes).substr(2);
}

void ExpectRoundTrip(const Message &message)
{
    Bytes bytes = EncodeMessage(message);
    Message decoded = DecodeMessage(bytes);
    EXPECT_EQ(decoded, message);
    EXPECT_EQ(EncodeMessage(decoded), bytes);
}

TEST(ChrysalisLayout, DustAllowanceTransaction)
{
    Message message = MessageWith(DustTransaction());
    std::string payload = "00000000" // payload type: transaction
                          "00"       // essence type
                          "0100"
                          "00" +
                          Repeat("11", 32) + "0100" // one UTXO input, index 1
                          + "0100"
                            "01"
                            "00" +
                          Repeat("22", 32)     // one dust output, Ed25519 address
                          + "40420f0000000000" // amount 1'000'000
                            "00000000"         // no essence payload
                            "0100"
                            "00"
                            "00" +
                          Repeat("33", 32) + Repeat("44", 64); // unlock
    // 4 + 1 + 2 + 35 + 2 + 42 + 4 + 2 + 98 = 190 = 0xbe
    EXPECT_EQ(Hex(EncodeMessage(message)), MessageHex(payload, "be000000"));
    ExpectRoundTrip(message);
}

// The hex of Milestone(receipt) from its type through its signatures; `receipt_hex` is the
// receipt behind its u32 length ("00000000" for none).
std::string MilestoneHex(const std::string &receipt_hex)
{
    return "01000000"         // payload type: milestone
           "07000000"         // index 7
           "003d8f6000000000" // timestamp 1620000000
           "02" +
           Repeat("01", 32) + Repeat("02", 32) + // the message's parents
           Repeat("00", 32) +                    // inclusion merkle proof
           "00000000"                            // next PoW score
           "00000000"                            // next PoW score milestone index
           "02" +
           Repeat("0b", 32) + Repeat("0c", 32) + receipt_hex + "02" + Repeat("0d", 64) +
           Repeat("0e", 64);
}

// 4 + 4 + 8 + 1 + 64 + 32 + 4 + 4 + 1 + 64 + 4 + 1 + 128 = 319 bytes without a receipt.
TEST(ChrysalisLayout, MilestoneWithoutReceipt)
{
    Message message = MessageWith(Milestone());
    EXPECT_EQ(Hex(EncodeMessage(message)), MessageHex(MilestoneHex("00000000"), "3f010000"));
    ExpectRoundTrip(message);
}

// TIP-17: a receipt, and the treasury transaction inside it, travel only in a milestone.
TEST(ChrysalisLayout, ReceiptWithTreasuryTransactionInAMilestone)
{
    Message message = MessageWith(Milestone(Receipt()));
    std::string receipt = "97000000" // receipt length 151
                          "03000000" // payload type: receipt
                          "2a000000" // migrated at 42
                          "01"       // final
                          "0100" +   // one entry
                          Repeat("55", 49) +
                          "00" + Repeat("66", 32) +
                          "40420f0000000000" // deposit 1'000'000
                          "2e000000"         // treasury transaction length 46
                          "04000000"         // payload type: treasury transaction
                          "01" +             // treasury input
                          Repeat("77", 32) +
                          "02"                // treasury output
                          "0706050403020100"; // amount 0x0001020304050607
    // 4 + 4 + 1 + 2 + 90 + 4 + 46 = 151 = 0x97; the milestone: 319 + 151 = 470 = 0x1d6.
    EXPECT_EQ(Hex(EncodeMessage(message)), MessageHex(MilestoneHex(receipt), "d6010000"));
    ExpectRoundTrip(message);
}

TEST(ChrysalisLayout, MilestoneWithReceiptSignsTheReceipt)
{
    MilestonePayload milestone = Milestone(Receipt());
    // The receipt is part of the essence, so it changes the milestone ID.
    MilestoneEssence without_receipt = milestone.essence;
    without_receipt.receipt.reset();
    EXPECT_NE(ComputeMilestoneId(milestone.essence), ComputeMilestoneId(without_receipt));
}

TEST(ChrysalisLayout, ReferenceUnlockRoundTrips)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    // Outputs ascend by their bytes: the single output (type 0) before the dust allowance (1).
    transaction.essence.outputs.insert(transaction.essence.outputs.begin(),
                                       SigLockedSingleOutput{AddressOf(0x23), 5});
    transaction.essence.payload = IndexationPayload{{'I', 'O', 'T', 'A'}, {1, 2, 3}};
    transaction.unlocks.push_back(ReferenceUnlock{0});
    ExpectRoundTrip(MessageWith(transaction));
}

TEST(ChrysalisLayout, JsonOfDustReceiptAndTreasury)
{
    nlohmann::json dust = ToJson(MessageWith(DustTransaction()));
    EXPECT_EQ(dust["payload"]["essence"]["outputs"][0],
              nlohmann::json::parse(R"({"type":1,"address":{"type":0,"address":")" +
                                    Repeat("22", 32) + R"("},"amount":1000000})"));
    nlohmann::json receipt = ToJson(MessageWith(Milestone(Receipt())))["payload"]["receipt"];
    EXPECT_EQ(receipt["migratedAt"], 42);
    EXPECT_EQ(receipt["final"], true);
    EXPECT_EQ(receipt["funds"][0]["tailTransactionHash"], Repeat("55", 49));
    EXPECT_EQ(receipt["funds"][0]["deposit"], 1000000);
    EXPECT_EQ(receipt["transaction"]["input"]["milestoneId"], Repeat("77", 32));
    EXPECT_EQ(receipt["transaction"]["output"]["amount"], 0x0001020304050607u);
}

// The text reads back through the one bech32 decoder (codec/bech32.hpp) as the same Ed25519 key.
TEST(ChrysalisLayout, Bech32AddressRoundTripsUnderBothHrps)
{
    Ed25519Address address = AddressOf(0x5a);
    const codec::Address key{codec::AddressType::kEd25519, address.hash};
    for (const char *hrp : {"iota", "atoi"})
    {
        std::string text = AddressToBech32(address, hrp);
        EXPECT_EQ(text.rfind(std::string(hrp) + "1", 0), 0u) << text;
        EXPECT_EQ(codec::AddressFromBech32(text, hrp), key);
        EXPECT_EQ(codec::AddressToBech32(key, hrp), text);
    }
    EXPECT_THROW(AddressToBech32(address, "smr"), std::runtime_error);
    EXPECT_THROW(codec::AddressFromBech32(AddressToBech32(address, "iota"), "atoi"),
                 std::runtime_error);
}

} // namespace
} // namespace permanode::codec::chrysalis
