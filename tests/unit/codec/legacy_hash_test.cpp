// Curl-P-81 (all three implementations) and Kerl of the legacy codec: every real transaction
// hashes to its recorded hash, the bitsliced and packed hashers equal the reference on random
// inputs, and Kerl's conversions and address checksums hold.
#include "codec/error.hpp"
#include "codec/legacy/address.hpp"
#include "codec/legacy/curl.hpp"
#include "codec/legacy/kerl.hpp"
#include "legacy_fixtures.hpp"

#include <gtest/gtest.h>

#include <random>

namespace
{

using namespace permanode::codec;
using namespace permanode::codec::legacy;

Trits RandomTrits(std::mt19937_64 &random, std::size_t count)
{
    Trits trits(count);
    for (auto &t : trits)
        t = static_cast<Trit>(static_cast<int>(random() % 3) - 1);
    return trits;
}

TEST(LegacyCurlTest, EveryFixtureTransactionHashesToItsHash)
{
    std::vector<Trits> all;
    std::vector<std::string> expected;
    std::size_t recorded = 0;
    for (const auto &tx : fixtures::AllTransactions())
    {
        all.push_back(TransactionTrits(tx.trytes));
        expected.push_back(tx.hash);
        EXPECT_EQ(TransactionHash(all.back().data()), tx.hash) << tx.file;
        recorded += tx.hash_recorded_in_source;
    }
    EXPECT_EQ(all.size(), 153u);
    EXPECT_EQ(recorded, 124u); // hashes that also occur in the fixtures' sources
    // The same through the bitsliced hasher, 153 = 64 + 64 + 25 inputs.
    std::vector<const Trit *> inputs;
    for (const auto &trits : all)
        inputs.push_back(trits.data());
    std::vector<HashTrits> hashes = CurlHashMany(inputs, kTransactionTrits);
    ASSERT_EQ(hashes.size(), all.size());
    for (std::size_t i = 0; i < hashes.size(); i++)
        EXPECT_EQ(TritsToTrytes(hashes[i]), expected[i]) << i;
}

TEST(LegacyCurlTest, BitslicedEqualsReferenceOnRandomInputs)
{
    std::mt19937_64 random(81);
    // Whole and partial batches, of transactions and of other whole-block lengths.
    for (auto [count, length] :
         std::vector<std::pair<std::size_t, std::size_t>>{{64, kTransactionTrits},
                                                          {200, kTransactionTrits},
                                                          {1, kTransactionTrits},
                                                          {37, kHashTrits},
                                                          {64, 2 * kHashTrits},
                                                          {5, 0}})
    {
        std::vector<Trits> inputs;
        std::vector<const Trit *> pointers;
        for (std::size_t k = 0; k < count; k++)
            inputs.push_back(RandomTrits(random, length));
        for (const auto &input : inputs)
            pointers.push_back(input.data());
        std::vector<HashTrits> batched = CurlHashMany(pointers, length);
        for (std::size_t k = 0; k < count; k++)
            ASSERT_EQ(batched[k], CurlHash(inputs[k].data(), length))
                << count << " inputs of " << length << " trits, input " << k;
    }
}

TEST(LegacyCurlTest, PackedEqualsReferenceOnRandomInputs)
{
    std::mt19937_64 random(729);
    // 1 to 4 blocks go through all three layouts of the packed state; a transaction 33 blocks.
    PackedCurlP81 packed;
    for (std::size_t length :
         {kHashTrits, 2 * kHashTrits, 3 * kHashTrits, 4 * kHashTrits, kTransactionTrits})
        for (int k = 0; k < 20; k++)
        {
            Trits input = RandomTrits(random, length);
            packed.Reset();
            packed.Absorb(input.data(), input.size());
            ASSERT_EQ(packed.Digest(), CurlHash(input.data(), length)) << length << " trits, " << k;
        }
    // Extreme states: every trit the same.
    for (Trit t : {Trit(-1), Trit(0), Trit(1)})
    {
        Trits input(2 * kHashTrits, t);
        packed.Reset();
        packed.Absorb(input.data(), input.size());
        EXPECT_EQ(packed.Digest(), CurlHash(input.data(), input.size())) << int(t);
    }
}

TEST(LegacyCurlTest, SpongesAbsorbedTogetherFinishOneAtATime)
{
    // The real transactions: their first 30 blocks bitsliced, the last 3 through the packed
    // sponge each, 153 = 64 + 64 + 25 inputs.
    std::vector<Trits> all;
    std::vector<const Trit *> inputs;
    for (const auto &tx : fixtures::AllTransactions())
        all.push_back(TransactionTrits(tx.trytes));
    for (const auto &trits : all)
        inputs.push_back(trits.data());
    constexpr std::size_t kPrefix = 30 * kHashTrits;
    std::vector<PackedCurlP81> sponges = CurlAbsorbMany(inputs, kPrefix);
    ASSERT_EQ(sponges.size(), all.size());
    for (std::size_t i = 0; i < all.size(); i++)
    {
        sponges[i].Absorb(all[i].data() + kPrefix, kTransactionTrits - kPrefix);
        EXPECT_EQ(TritsToTrytes(sponges[i].Digest()), TransactionHash(all[i].data())) << i;
    }
    // Random inputs, and nothing absorbed together.
    std::mt19937_64 random(30);
    Trits input = RandomTrits(random, 3 * kHashTrits);
    std::vector<PackedCurlP81> one = CurlAbsorbMany({input.data()}, kHashTrits);
    one[0].Absorb(input.data() + kHashTrits, 2 * kHashTrits);
    EXPECT_EQ(one[0].Digest(), CurlHash(input.data(), input.size()));
    std::vector<PackedCurlP81> fresh = CurlAbsorbMany({input.data()}, 0);
    fresh[0].Absorb(input.data(), input.size());
    EXPECT_EQ(fresh[0].Digest(), CurlHash(input.data(), input.size()));
}

TEST(LegacyCurlTest, SpongeSqueezesMoreThanOneBlock)
{
    std::mt19937_64 random(3);
    Trits input = RandomTrits(random, kHashTrits);
    CurlP81 curl;
    curl.Absorb(input.data(), input.size());
    HashTrits first = curl.Digest();
    Trits out(2 * kHashTrits);
    curl.Squeeze(out.data(), out.size());
    EXPECT_TRUE(std::equal(first.begin(), first.end(), out.begin()));
    EXPECT_FALSE(std::equal(first.begin(), first.end(), out.begin() + kHashTrits));
    EXPECT_EQ(first, CurlHash(input.data(), input.size()));
}

TEST(LegacyCurlTest, BatchRejectsMoreThan64Inputs)
{
    Trits block(kHashTrits, 0);
    std::vector<const Trit *> inputs(65, block.data());
    std::vector<HashTrits> out(65);
    EXPECT_THROW(CurlP81Batch(inputs, kHashTrits, out.data()), std::invalid_argument);
}

TEST(LegacyKerlTest, WordConversionRoundTrips)
{
    std::mt19937_64 random(384);
    for (int k = 0; k < 500; k++)
    {
        Trits trits = RandomTrits(random, kHashTrits);
        trits.back() = 0; // Kerl ignores trit 242
        Trits back(kHashTrits);
        KerlWordToTrits(TritsToKerlWord(trits.data()), back.data());
        ASSERT_EQ(back, trits) << k;
    }
    // Zero, the extremes of 242 trits, and a word outside their range (reduced modulo 3^242).
    Trits zero(kHashTrits, 0);
    EXPECT_EQ(TritsToKerlWord(zero.data()), KerlWord{});
    Trits ones(kHashTrits, 1);
    ones.back() = 0;
    KerlWord top = TritsToKerlWord(ones.data());
    EXPECT_EQ(top[0], 0x5e); // (3^242 - 1) / 2 = 0x5e69ebef...
    KerlWord all_ones;
    all_ones.fill(0xff); // -1
    Trits minus_one(kHashTrits);
    KerlWordToTrits(all_ones, minus_one.data());
    EXPECT_EQ(minus_one[0], -1);
    EXPECT_TRUE(std::all_of(minus_one.begin() + 1, minus_one.end(), [](Trit t) { return t == 0; }));
    KerlWord big{};
    big[0] = 0x7f; // 2^383 - ..., above (3^242 - 1) / 2
    Trits reduced(kHashTrits);
    KerlWordToTrits(big, reduced.data());
    EXPECT_EQ(reduced.back(), 0);
}

TEST(LegacyKerlTest, WordsOfSmallValuesAreTheirIntegers)
{
    // A value that fits 40 trits is its int64 in the last 8 bytes, sign-extended: each trit
    // position of the 20-trit conversion steps, the carries between them and both signs.
    std::mt19937_64 random(48);
    for (int k = 0; k < 2000; k++)
    {
        // Uniform in -(3^40 - 1) / 2 .. (3^40 - 1) / 2, through unsigned arithmetic.
        std::int64_t value =
            static_cast<std::int64_t>(random() % 12157665459056928801ull - 6078832729528464400ull);
        if (k < 100)
            value = k - 50;
        Trits trits(kHashTrits, 0);
        IntToTrits(value, trits.data(), 40);
        KerlWord word = TritsToKerlWord(trits.data());
        KerlWord expected;
        expected.fill(value < 0 ? 0xff : 0);
        for (std::size_t i = 0; i < 8; i++)
            expected[kKerlBytes - 1 - i] = static_cast<std::uint8_t>(value >> (8 * i));
        ASSERT_EQ(word, expected) << value;
        Trits back(kHashTrits);
        KerlWordToTrits(word, back.data());
        ASSERT_EQ(back, trits) << value;
    }
}

TEST(LegacyKerlTest, ChainEqualsHashingTheTritsAgain)
{
    std::mt19937_64 random(26);
    for (int times : {0, 1, 2, 13, 26})
        for (int k = 0; k < 10; k++)
        {
            Trits block = RandomTrits(random, kHashTrits);
            Trits expected = block;
            for (int t = 0; t < times; t++)
            {
                HashTrits hash = KerlHash(expected.data(), kHashTrits);
                std::copy(hash.begin(), hash.end(), expected.begin());
            }
            KerlHashChain(block.data(), times);
            ASSERT_EQ(block, expected) << times << " times, block " << k;
        }
}

TEST(LegacyKerlTest, SqueezingTwiceDiffers)
{
    std::mt19937_64 random(5);
    Trits input = RandomTrits(random, 2 * kHashTrits);
    Kerl kerl;
    kerl.Absorb(input.data(), input.size());
    Trits out(2 * kHashTrits);
    kerl.Squeeze(out.data(), out.size());
    HashTrits once = KerlHash(input.data(), input.size());
    EXPECT_TRUE(std::equal(once.begin(), once.end(), out.begin()));
    EXPECT_FALSE(std::equal(once.begin(), once.end(), out.begin() + kHashTrits));
}

TEST(LegacyAddressTest, ChecksumIsCheckedWhenGiven)
{
    // An address of a real value bundle (the iota.js samples' input).
    auto txs = fixtures::AllTransactions();
    std::string address = DecodeTransaction(txs.front().trytes).address;
    std::string checksum = AddressChecksum(address);
    ASSERT_EQ(checksum.size(), kChecksumTrytes);
    EXPECT_EQ(ParseAddress(address), address);
    EXPECT_EQ(ParseAddress(address + checksum), address);
    std::string wrong = checksum;
    wrong[3] = wrong[3] == 'A' ? 'B' : 'A';
    try
    {
        ParseAddress(address + wrong);
        FAIL() << "accepted a wrong checksum";
    }
    catch (const DecodeError &e)
    {
        EXPECT_EQ(e.Offset(), 81u);
        EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
    }
    EXPECT_THROW(ParseAddress(address.substr(1)), DecodeError);
    EXPECT_THROW(ParseAddress(address + "9"), DecodeError);
    EXPECT_THROW(ParseAddress(address.substr(0, 80) + "a"), DecodeError);
}

} // namespace
