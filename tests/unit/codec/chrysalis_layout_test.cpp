// Dust allowance outputs, receipts and treasury transactions have no real fixture: they are built
// from the TIP-15 and TIP-17 layouts, and their bytes are compared with hex written out by hand
// field by field from those tables, then round-tripped (encode -> decode -> encode).
#include "chrysalis_samples.hpp"
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

TEST(ChrysalisLayout, TreasuryTransaction)
{
    Message message = MessageWith(TreasuryTransaction());
    std::string payload = "04000000"
                          "01" +
                          Repeat("77", 32) +
                          "02"
                          "0807060504030201";
    EXPECT_EQ(Hex(EncodeMessage(message)), MessageHex(payload, "2e000000")); // 46 bytes
    ExpectRoundTrip(message);
}

TEST(ChrysalisLayout, Receipt)
{
    Message message = MessageWith(Receipt());
    std::string payload = "03000000" // payload type: receipt
                          "2a000000" // migrated at 42
                          "01"       // final
                          "0100" +   // one entry
                          Repeat("55", 49) +
                          "00" + Repeat("66", 32) + "40420f0000000000" +
                          "2e000000" // treasury transaction length 46
                          "04000000"
                          "01" +
                          Repeat("77", 32) +
                          "02"
                          "0807060504030201";
    // 4 + 4 + 1 + 2 + 90 + 4 + 46 = 151 = 0x97
    EXPECT_EQ(Hex(EncodeMessage(message)), MessageHex(payload, "97000000"));
    ExpectRoundTrip(message);
}

TEST(ChrysalisLayout, MilestoneWithReceiptRoundTripsAndSignsTheReceipt)
{
    MilestonePayload milestone;
    milestone.essence.index = 7;
    milestone.essence.timestamp = 1620000000;
    milestone.essence.parents = {Filled<32>(0x0a)};
    milestone.essence.public_keys = {Filled<32>(0x0b), Filled<32>(0x0c)};
    milestone.essence.receipt = Receipt();
    milestone.signatures = {Filled<64>(0x0d), Filled<64>(0x0e)};
    Message message = MessageWith(milestone);
    ExpectRoundTrip(message);

    // The receipt is part of the essence, so it changes the milestone ID.
    MilestoneEssence without_receipt = milestone.essence;
    without_receipt.receipt.reset();
    EXPECT_NE(ComputeMilestoneId(milestone.essence), ComputeMilestoneId(without_receipt));
}

TEST(ChrysalisLayout, ReferenceUnlockRoundTrips)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    transaction.essence.outputs.push_back(SigLockedSingleOutput{AddressOf(0x23), 5});
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
    nlohmann::json receipt = ToJson(MessageWith(Receipt()))["payload"];
    EXPECT_EQ(receipt["migratedAt"], 42);
    EXPECT_EQ(receipt["final"], true);
    EXPECT_EQ(receipt["funds"][0]["tailTransactionHash"], Repeat("55", 49));
    EXPECT_EQ(receipt["funds"][0]["deposit"], 1000000);
    EXPECT_EQ(receipt["transaction"]["input"]["milestoneId"], Repeat("77", 32));
    EXPECT_EQ(receipt["transaction"]["output"]["amount"], 0x0102030405060708u);
}

TEST(ChrysalisLayout, Bech32AddressRoundTripsUnderBothHrps)
{
    Ed25519Address address = AddressOf(0x5a);
    for (const char *hrp : {"iota", "atoi"})
    {
        std::string text = AddressToBech32(address, hrp);
        EXPECT_EQ(text.rfind(std::string(hrp) + "1", 0), 0u) << text;
        EXPECT_EQ(AddressFromBech32(text, hrp), address);
    }
    EXPECT_THROW(AddressToBech32(address, "smr"), std::runtime_error);
    EXPECT_THROW(AddressFromBech32(AddressToBech32(address, "iota"), "atoi"), std::runtime_error);
}

} // namespace
} // namespace permanode::codec::chrysalis
