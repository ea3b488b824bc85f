// Curl-P-81 one input at a time, 64 trits of the state per word operation.
//
// The state is two 729-bit planes in the encoding of curl_batch.cpp (a bit of `low` says "not 1",
// a bit of `high` says "not -1"), so the substitution S(a, b) is the same seven word operations,
// here over 64 trits of one state instead of one trit of 64 states. What stands in the way is the
// round's wiring: trit i reads p(i) = 364 i and p(i + 1) = p(i) + 364 (mod 729), all over the
// state. So the state is kept in a permuted order, trit x at bit x u mod 729 for a multiplier u,
// its layout. A round that writes its result in layout v = 364 u puts new trit i at bit
// j = 364 i u, where old trit p(i) = 364 i sits in layout u; old trit p(i + 1) sits at
// 364 (i + 1) u = j + v. So, for every j,
//     new bit j = S(old bit j, old bit (j + v) mod 729):
// the planes against themselves rotated by v, a word at a time. For the rotation's reads that
// wrap past bit 728, the bits from 729 on (the rest of word 11 and word 12) repeat bits 0..102
// before each round, so that the 64 bits from any bit 0..728 on lie in two adjacent words.
//
// A round multiplies the layout by 364, of order 243 modulo 729; a transform (81 rounds) by
// 364^81 = 244 (mod 729), so a state between transforms is in layout 1, 244 or 487. Absorbing
// writes the first 243 trits through the layout, the digest reads them through it.
#include "codec/legacy/curl.hpp"

#include <utility>

namespace permanode::codec::legacy
{

namespace
{

using Word = std::uint64_t;

constexpr std::size_t kStateBits = kCurlStateTrits;
constexpr std::size_t kStateWords = (kStateBits + 63) / 64; // 12; bits 729..767 are spare
constexpr std::size_t kLastBits = kStateBits % 64;          // of the state in word 11
constexpr std::uint32_t kStep = 364;                        // p(i + 1) - p(i)

// The bit after `bit` in a walk over trits 0, 1, 2, ... in `layout`.
std::size_t NextBit(std::size_t bit, std::uint32_t layout)
{
    bit += layout;
    return bit < kStateBits ? bit : bit - kStateBits;
}

void PutTrit(Word *low, Word *high, std::size_t bit, Trit value)
{
    Word mask = Word(1) << (bit % 64);
    Word &l = low[bit / 64];
    Word &h = high[bit / 64];
    l = value == 1 ? l & ~mask : l | mask;
    h = value == -1 ? h & ~mask : h | mask;
}

Trit GetTrit(const Word *low, const Word *high, std::size_t bit)
{
    int l = static_cast<int>((low[bit / 64] >> (bit % 64)) & 1);
    int h = static_cast<int>((high[bit / 64] >> (bit % 64)) & 1);
    return static_cast<Trit>(h - l);
}

// Repeats bits 0..102 of a plane as its bits 729..831.
void Wrap(Word *plane)
{
    constexpr Word kStateMask = (Word(1) << kLastBits) - 1;
    plane[kStateWords - 1] = (plane[kStateWords - 1] & kStateMask) | (plane[0] << kLastBits);
    plane[kStateWords] = (plane[0] >> (64 - kLastBits)) | (plane[1] << kLastBits);
}

// The 64 bits of a wrapped plane from `bit` (0..728) on. The next word moves by 64 - shift in
// two steps, so that shift 0 shifts by 64 nowhere.
Word BitsFrom(const Word *plane, std::size_t bit)
{
    std::size_t word = bit / 64;
    std::size_t shift = bit % 64;
    return (plane[word] >> shift) | ((plane[word + 1] << 1) << (63 - shift));
}

} // namespace

PackedCurlP81::PackedCurlP81(const Trit *state)
{
    Reset();
    for (std::size_t x = 0; x < kStateBits; x++)
        PutTrit(low_.data(), high_.data(), x, state[x]);
}

void PackedCurlP81::Reset()
{
    low_.fill(~Word(0));
    high_.fill(~Word(0));
    layout_ = 1;
}

void PackedCurlP81::Transform()
{
    Plane low_scratch;
    Plane high_scratch;
    Word *low = low_.data();
    Word *high = high_.data();
    Word *new_low = low_scratch.data();
    Word *new_high = high_scratch.data();
    std::uint32_t layout = layout_;
    for (int round = 0; round < kCurlRounds; round++)
    {
        layout = layout * kStep % kStateBits;
        Wrap(low);
        Wrap(high);
        std::size_t from = layout;
        for (std::size_t k = 0; k < kStateWords; k++)
        {
            Word a_low = low[k];
            Word a_high = high[k];
            Word b_low = BitsFrom(low, from);
            Word b_high = BitsFrom(high, from);
            Word d = (a_low | ~b_high) & (b_low ^ a_high);
            new_low[k] = ~d;
            new_high[k] = (a_low ^ b_high) | d;
            from = from + 64 < kStateBits ? from + 64 : from + 64 - kStateBits;
        }
        std::swap(low, new_low);
        std::swap(high, new_high);
    }
    // 81 rounds is odd: the last one wrote into the scratch planes.
    low_ = low_scratch;
    high_ = high_scratch;
    layout_ = layout;
}

void PackedCurlP81::Absorb(const Trit *trits, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        std::size_t bit = 0;
        for (std::size_t x = 0; x < kHashTrits; x++, bit = NextBit(bit, layout_))
            PutTrit(low_.data(), high_.data(), bit, trits[offset + x]);
        Transform();
    }
}

HashTrits PackedCurlP81::Digest() const
{
    HashTrits hash;
    std::size_t bit = 0;
    for (std::size_t x = 0; x < kHashTrits; x++, bit = NextBit(bit, layout_))
        hash[x] = GetTrit(low_.data(), high_.data(), bit);
    return hash;
}

} // namespace permanode::codec::legacy
