// TIP-4's Merkle tree hash, from its definition: leaves prefixed 0x00, nodes 0x01, the split at
// the largest power of two below the count, nothing hashed for no leaves. (The real roots of
// Shimmer milestones 17339 and 17340 are checked over their real cones in the verify_ledger
// regression test.)
#include <gtest/gtest.h>

#include "codec/ids.hpp"
#include "codec/merkle.hpp"

namespace codec = permanode::codec;

namespace
{

codec::Hash32 Leaf(std::uint8_t fill)
{
    codec::Hash32 h{};
    h.fill(fill);
    return h;
}

codec::Hash32 Hash(std::uint8_t prefix, const std::vector<codec::Hash32> &parts)
{
    codec::Bytes input{prefix};
    for (const auto &p : parts)
        input.insert(input.end(), p.begin(), p.end());
    return codec::Blake2b256(codec::ByteSpan(input.data(), input.size()));
}

codec::Hash32 LeafHash(const codec::Hash32 &leaf)
{
    return Hash(0x00, {leaf});
}

codec::Hash32 NodeHash(const codec::Hash32 &left, const codec::Hash32 &right)
{
    return Hash(0x01, {left, right});
}

} // namespace

TEST(MerkleRoot, NoLeavesHashNothing)
{
    EXPECT_EQ(codec::MerkleRoot({}), codec::Blake2b256(codec::ByteSpan(nullptr, 0)));
}

TEST(MerkleRoot, OneLeafIsItsLeafHash)
{
    EXPECT_EQ(codec::MerkleRoot({Leaf(1)}), LeafHash(Leaf(1)));
}

TEST(MerkleRoot, SplitsAtTheLargestPowerOfTwoBelowTheCount)
{
    auto a = Leaf(1), b = Leaf(2), c = Leaf(3), d = Leaf(4), e = Leaf(5);
    EXPECT_EQ(codec::MerkleRoot({a, b}), NodeHash(LeafHash(a), LeafHash(b)));
    // Three: two left, one right.
    EXPECT_EQ(codec::MerkleRoot({a, b, c}),
              NodeHash(NodeHash(LeafHash(a), LeafHash(b)), LeafHash(c)));
    // Four: two and two; five: four and one.
    auto four = NodeHash(NodeHash(LeafHash(a), LeafHash(b)), NodeHash(LeafHash(c), LeafHash(d)));
    EXPECT_EQ(codec::MerkleRoot({a, b, c, d}), four);
    EXPECT_EQ(codec::MerkleRoot({a, b, c, d, e}), NodeHash(four, LeafHash(e)));
    // Order matters.
    EXPECT_NE(codec::MerkleRoot({b, a}), codec::MerkleRoot({a, b}));
}
