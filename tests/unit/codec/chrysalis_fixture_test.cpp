// The real Chrysalis messages: decode, byte-exact re-encode, IDs, signatures and REST v1 JSON.
#include "chrysalis_fixtures.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <gtest/gtest.h>
#include <sodium.h>

namespace permanode::codec::chrysalis
{
namespace
{

using fixtures::Record;

std::string PlainHex(ByteSpan bytes)
{
    return ToHex(bytes).substr(2);
}
template <std::size_t N> std::string PlainHex(const std::array<std::uint8_t, N> &bytes)
{
    return PlainHex(ByteSpan(bytes.data(), N));
}

// The fixture's source JSON keeps `null` for absent parts; the codec leaves them out.
nlohmann::json WithoutNulls(const nlohmann::json &json)
{
    if (json.is_object())
    {
        nlohmann::json out = nlohmann::json::object();
        for (const auto &[key, value] : json.items())
            if (!value.is_null())
                out[key] = WithoutNulls(value);
        return out;
    }
    if (json.is_array())
    {
        nlohmann::json out = nlohmann::json::array();
        for (const nlohmann::json &value : json)
            out.push_back(WithoutNulls(value));
        return out;
    }
    return json;
}

bool Verifies(const PublicKey &key, const Signature &signature, const Hash32 &hash)
{
    return crypto_sign_verify_detached(signature.data(), hash.data(), hash.size(), key.data()) == 0;
}

class ChrysalisFixtureTest : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        ASSERT_GE(sodium_init(), 0);
        records_ = fixtures::Messages();
    }
    static std::vector<Record> records_;
};
std::vector<Record> ChrysalisFixtureTest::records_;

TEST_F(ChrysalisFixtureTest, HasAllElevenMessages)
{
    EXPECT_EQ(records_.size(), 11u);
}

TEST_F(ChrysalisFixtureTest, DecodesAndReencodesByteExact)
{
    for (const Record &record : records_)
    {
        SCOPED_TRACE(record.label);
        ASSERT_EQ(record.bytes.size(), record.record.at("length").get<std::size_t>());
        Message message = DecodeMessage(record.bytes);
        EXPECT_EQ(std::to_string(message.network_id), record.record.at("networkId"));
        EXPECT_EQ(EncodeMessage(message), record.bytes);
    }
}

TEST_F(ChrysalisFixtureTest, MessageIdsMatchTheRecordedOnes)
{
    for (const Record &record : records_)
    {
        SCOPED_TRACE(record.label);
        EXPECT_EQ(PlainHex(ComputeMessageId(record.bytes)),
                  record.record.at("message_id_computed"));
        const nlohmann::json &in_source = record.record.at("message_id_in_source");
        if (!in_source.is_null())
        {
            EXPECT_EQ(PlainHex(ComputeMessageId(record.bytes)), in_source);
        }
    }
}

TEST_F(ChrysalisFixtureTest, TransactionIdsMatchAndNameTheirOutputs)
{
    int transactions = 0;
    for (const Record &record : records_)
    {
        SCOPED_TRACE(record.label);
        Message message = DecodeMessage(record.bytes);
        if (!message.payload)
            continue;
        const auto *transaction = std::get_if<TransactionPayload>(&*message.payload);
        if (!transaction)
            continue;
        ++transactions;
        TransactionId id = ComputeTransactionId(*transaction);
        EXPECT_EQ(PlainHex(id), record.record.at("transaction_id_computed"));
        // The transaction payload sits after network ID, parents and payload length.
        std::size_t begin = 8 + 1 + 32 * message.parents.size() + 4;
        ByteSpan payload(record.bytes.data() + begin, record.bytes.size() - 8 - begin);
        EXPECT_EQ(id, Blake2b256(payload));
        OutputIdBytes output_id = ComputeOutputId(id, 0x0102);
        EXPECT_EQ(PlainHex(output_id), PlainHex(id) + "0201");
    }
    EXPECT_EQ(transactions, 5); // rosetta x2, iota.rs 92f427d6, iota.c, TIP-13 example
}

// No fixture records a milestone ID, so it is checked against the essence bytes cut out of the
// message by hand (payload type to signatures), and bound by the signatures below.
TEST_F(ChrysalisFixtureTest, MilestoneIdsHashTheEssenceBytes)
{
    int milestones = 0;
    for (const Record &record : records_)
    {
        SCOPED_TRACE(record.label);
        Message message = DecodeMessage(record.bytes);
        if (!message.payload)
            continue;
        const auto *milestone = std::get_if<MilestonePayload>(&*message.payload);
        if (!milestone)
            continue;
        ++milestones;
        std::size_t begin = 8 + 1 + 32 * message.parents.size() + 4 + 4;
        std::size_t end = record.bytes.size() - 8 - 1 - 64 * milestone->signatures.size();
        EXPECT_EQ(ComputeMilestoneId(milestone->essence),
                  Blake2b256(ByteSpan(record.bytes.data() + begin, end - begin)));
    }
    EXPECT_EQ(milestones, 3); // tangle.net x2, TIP-13 example
}

TEST_F(ChrysalisFixtureTest, SignaturesVerifyWhereTheFixtureSaysSo)
{
    int verified = 0;
    for (const Record &record : records_)
    {
        SCOPED_TRACE(record.label);
        std::string expected = record.record.at("ed25519_signatures");
        Message message = DecodeMessage(record.bytes);
        std::string seen;
        auto note = [&](bool ok)
        {
            seen += (seen.empty() ? "" : ",") + std::string(ok ? "ok" : "bad");
            verified += ok;
        };
        if (message.payload)
        {
            if (const auto *transaction = std::get_if<TransactionPayload>(&*message.payload))
            {
                Hash32 hash = TransactionSigningHash(transaction->essence);
                for (const Unlock &unlock : transaction->unlocks)
                    if (const auto *signature = std::get_if<SignatureUnlock>(&unlock))
                        note(Verifies(signature->public_key, signature->signature, hash));
            }
            else if (const auto *milestone = std::get_if<MilestonePayload>(&*message.payload))
            {
                Hash32 hash = MilestoneSigningHash(milestone->essence);
                for (std::size_t i = 0; i < milestone->signatures.size(); ++i)
                    note(Verifies(milestone->essence.public_keys[i], milestone->signatures[i],
                                  hash));
            }
        }
        EXPECT_EQ(seen.empty() ? "-" : seen, expected);
    }
    EXPECT_EQ(verified, 5 + 2 * 3); // five transactions, three milestones with two keys
}

// A flipped bit in the signed essence must break the signature: the check above is not vacuous.
TEST_F(ChrysalisFixtureTest, SignatureFailsOnAChangedEssence)
{
    for (const Record &record : records_)
    {
        Message message = DecodeMessage(record.bytes);
        if (!message.payload)
            continue;
        if (auto *transaction = std::get_if<TransactionPayload>(&*message.payload))
        {
            auto &output = std::get<SigLockedSingleOutput>(transaction->essence.outputs[0]);
            output.amount ^= 1;
            const auto &signature = std::get<SignatureUnlock>(transaction->unlocks[0]);
            EXPECT_FALSE(Verifies(signature.public_key, signature.signature,
                                  TransactionSigningHash(transaction->essence)))
                << record.label;
        }
        else if (auto *milestone = std::get_if<MilestonePayload>(&*message.payload))
        {
            milestone->essence.timestamp ^= 1;
            EXPECT_FALSE(Verifies(milestone->essence.public_keys[0], milestone->signatures[0],
                                  MilestoneSigningHash(milestone->essence)))
                << record.label;
        }
    }
}

TEST_F(ChrysalisFixtureTest, JsonEqualsTheSourceJson)
{
    int compared = 0;
    for (const Record &record : records_)
    {
        if (!record.record.contains("json_in_source"))
            continue;
        SCOPED_TRACE(record.label);
        ++compared;
        nlohmann::json source = WithoutNulls(record.record.at("json_in_source"));
        EXPECT_EQ(ToJson(DecodeMessage(record.bytes)), source);
    }
    EXPECT_EQ(compared, 8);
}

} // namespace
} // namespace permanode::codec::chrysalis
