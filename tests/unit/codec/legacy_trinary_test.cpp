// Trytes, trits, t5b1 and integers of the legacy codec, on the real transactions and at the edges.
#include "codec/error.hpp"
#include "codec/legacy/transaction.hpp"
#include "codec/legacy/trinary.hpp"
#include "legacy_fixtures.hpp"

#include <gtest/gtest.h>

#include <random>

namespace
{

using namespace permanode::codec;
using namespace permanode::codec::legacy;

TEST(LegacyTrinaryTest, TryteAlphabet)
{
    EXPECT_EQ(TrytesToTrits("9"), (Trits{0, 0, 0}));
    EXPECT_EQ(TrytesToTrits("A"), (Trits{1, 0, 0}));
    EXPECT_EQ(TrytesToTrits("M"), (Trits{1, 1, 1}));    // 13
    EXPECT_EQ(TrytesToTrits("N"), (Trits{-1, -1, -1})); // -13
    EXPECT_EQ(TrytesToTrits("Z"), (Trits{-1, 0, 0}));   // -1
    std::string all = "9ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    Trits trits = TrytesToTrits(all);
    EXPECT_EQ(TritsToTrytes(trits.data(), trits.size()), all);
    for (char c : all)
        EXPECT_TRUE(IsTryte(c)) << c;
    for (char c : std::string("a0z@[ \n"))
        EXPECT_FALSE(IsTryte(c)) << c;
}

TEST(LegacyTrinaryTest, NotATryteNamesItsPosition)
{
    try
    {
        TrytesToTrits("ABC9d9", "address");
        FAIL() << "accepted a lower-case letter";
    }
    catch (const DecodeError &e)
    {
        EXPECT_EQ(e.Field(), "address");
        EXPECT_EQ(e.Offset(), 4u);
        EXPECT_STREQ(e.what(), "address at tryte 4: 'd' is not a tryte (9 or A-Z)");
    }
}

TEST(LegacyTrinaryTest, EveryFixtureTransactionTakes1604BytesAndComesBack)
{
    std::size_t count = 0;
    for (const auto &tx : fixtures::AllTransactions())
    {
        Trits trits = TrytesToTrits(tx.trytes);
        ASSERT_EQ(trits.size(), kTransactionTrits);
        Bytes bytes = EncodeT5b1(trits.data(), trits.size());
        ASSERT_EQ(bytes.size(), kTransactionT5b1Bytes) << tx.hash;
        Trits back = DecodeT5b1(bytes, kTransactionTrits);
        EXPECT_EQ(TritsToTrytes(back.data(), back.size()), tx.trytes) << tx.hash;
        EXPECT_EQ(TransactionToBytes(tx.trytes), bytes);
        EXPECT_EQ(TransactionFromBytes(bytes), tx.trytes);
        count++;
    }
    EXPECT_EQ(count, 153u);
}

TEST(LegacyTrinaryTest, T5b1OfRandomTritsIsExact)
{
    std::mt19937 random(23);
    for (std::size_t count : {1u, 4u, 5u, 6u, 242u, 243u, 8019u})
    {
        Trits trits(count);
        for (auto &t : trits)
            t = static_cast<Trit>(static_cast<int>(random() % 3) - 1);
        Bytes bytes = EncodeT5b1(trits.data(), count);
        EXPECT_EQ(bytes.size(), (count + 4) / 5);
        EXPECT_EQ(DecodeT5b1(bytes, count), trits) << count;
        // Every byte is a signed value in -121..121.
        for (auto b : bytes)
            EXPECT_LE(std::abs(static_cast<int>(static_cast<std::int8_t>(b))), 121);
    }
    // Known values: five 1 trits are 121; five -1 trits are -121.
    Trits ones(5, 1), minus(5, -1);
    EXPECT_EQ(EncodeT5b1(ones.data(), 5), (Bytes{121}));
    EXPECT_EQ(EncodeT5b1(minus.data(), 5), (Bytes{static_cast<std::uint8_t>(-121)}));
}

TEST(LegacyTrinaryTest, T5b1RejectsWhatDoesNotEncodeBack)
{
    Bytes bytes(kTransactionT5b1Bytes, 0);
    bytes[17] = 122; // above 121
    EXPECT_THROW(
        {
            try
            {
                DecodeT5b1(bytes, kTransactionTrits);
            }
            catch (const DecodeError &e)
            {
                EXPECT_EQ(e.Offset(), 17u);
                throw;
            }
        },
        DecodeError);
    bytes[17] = 0;
    bytes.back() = 81; // 8019 = 5 x 1603 + 4: the last byte's fifth trit is padding
    EXPECT_THROW(DecodeT5b1(bytes, kTransactionTrits), DecodeError);
    bytes.back() = 27;
    EXPECT_NO_THROW(DecodeT5b1(bytes, kTransactionTrits));
    bytes.pop_back();
    EXPECT_THROW(DecodeT5b1(bytes, kTransactionTrits), DecodeError);
}

TEST(LegacyTrinaryTest, Integers)
{
    Trits trits(33); // a value's usable trits
    for (std::int64_t v : {0LL, 1LL, -1LL, 1522184057LL, -19775074881463LL, 2779530283277761LL})
    {
        IntToTrits(v, trits.data(), trits.size());
        EXPECT_EQ(TritsToInt(trits.data(), trits.size()), v);
    }
    // 27 trits hold up to (3^27 - 1) / 2 = 3812798742493: "MMMMMMMMM".
    IntToTrits(3812798742493LL, trits.data(), 27);
    EXPECT_EQ(TritsToInt(trits.data(), 27), 3812798742493LL);
    EXPECT_EQ(TritsToTrytes(trits.data(), 27), "MMMMMMMMM");
    EXPECT_THROW(IntToTrits(3812798742494LL, trits.data(), 27), EncodeError);
}

} // namespace
