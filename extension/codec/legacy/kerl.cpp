// Kerl: the trits <-> 384-bit integer conversion and a Keccak-384 sponge around Nettle's
// Keccak-f[1600] permutation. The conversion goes 20 trits a step (a 32-bit multiply or divide
// over the words the value takes so far); the sponge takes words as Keccak's 64-bit lanes, and a
// hash chain hands each digest on as lanes, converted to trits only at its end.
#include "codec/legacy/kerl.hpp"

#include <nettle/sha3.h>

#include <algorithm>
#include <cstring>

namespace permanode::codec::legacy
{

namespace
{

// Keccak-384: capacity 2 x 384 bits, so the rate is 200 - 96 = 104 bytes.
constexpr std::size_t kRateBytes = 104;

// Unsigned integers of 13 32-bit words, least significant first: 384 bits and a word of headroom
// for the sign and the carries of the conversion.
constexpr std::size_t kWords = 13;
using BigInt = std::array<std::uint32_t, kWords>;

// The trits that hold a value (the last is ignored), converted up to 20 at a time: 3^20 is the
// largest power of 3 in 32 bits.
constexpr std::size_t kValueTrits = kHashTrits - 1;
constexpr std::size_t kStepTrits = 20;
constexpr std::uint32_t kStepFactor = 3486784401u; // 3^20

// x = x * factor + addend, where x and the result fit the first `words` words.
void MulAdd(BigInt &x, std::uint32_t factor, std::uint32_t addend, std::size_t words = kWords)
{
    std::uint64_t carry = addend;
    for (std::size_t i = 0; i < words; i++)
    {
        std::uint64_t v = std::uint64_t(x[i]) * factor + carry;
        x[i] = static_cast<std::uint32_t>(v);
        carry = v >> 32;
    }
}

void Add(BigInt &x, const BigInt &y)
{
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < kWords; i++)
    {
        std::uint64_t v = std::uint64_t(x[i]) + y[i] + carry;
        x[i] = static_cast<std::uint32_t>(v);
        carry = v >> 32;
    }
}

void Sub(BigInt &x, const BigInt &y)
{
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < kWords; i++)
    {
        std::int64_t v = std::int64_t(x[i]) - y[i] - borrow;
        borrow = v < 0;
        x[i] = static_cast<std::uint32_t>(v);
    }
}

bool Negative(const BigInt &x)
{
    return x[kWords - 1] >> 31;
}

bool LessThan(const BigInt &x, const BigInt &y)
{
    for (std::size_t i = kWords; i-- > 0;)
        if (x[i] != y[i])
            return x[i] < y[i];
    return false;
}

// Returns x mod `divisor` and divides x by it; x fits the first `words` words.
std::uint32_t DivMod(BigInt &x, std::uint32_t divisor, std::size_t words)
{
    std::uint64_t rest = 0;
    for (std::size_t i = words; i-- > 0;)
    {
        std::uint64_t v = (rest << 32) | x[i];
        x[i] = static_cast<std::uint32_t>(v / divisor);
        rest = v % divisor;
    }
    return static_cast<std::uint32_t>(rest);
}

// (3^242 - 1) / 2, the largest 242-trit value (all trits 1), and 3^242.
struct Bounds
{
    BigInt half{};
    BigInt full{};

    Bounds()
    {
        for (std::size_t i = 0; i < kHashTrits - 1; i++)
            MulAdd(half, 3, 1);
        full = half;
        MulAdd(full, 2, 1);
    }
};

const Bounds &Limits()
{
    static const Bounds bounds;
    return bounds;
}

// A word as Keccak absorbs it: six 64-bit lanes, bytes 8 j to 8 j + 7 in lane j, little endian.
// As an integer, big endian, lane j byte-swapped is the j-th most significant 64 bits.
constexpr std::size_t kWordLanes = kKerlBytes / 8;
using WordLanes = std::array<std::uint64_t, kWordLanes>;
using State = std::array<std::uint64_t, 25>;

WordLanes LanesOfWord(const KerlWord &word)
{
    WordLanes lanes{};
    for (std::size_t i = 0; i < kKerlBytes; i++)
        lanes[i / 8] |= std::uint64_t(word[i]) << (8 * (i % 8));
    return lanes;
}

KerlWord WordOfLanes(const WordLanes &lanes)
{
    KerlWord word;
    for (std::size_t i = 0; i < kKerlBytes; i++)
        word[i] = static_cast<std::uint8_t>(lanes[i / 8] >> (8 * (i % 8)));
    return word;
}

// The lanes' integer (two's complement) reduced modulo 3^242 into the balanced range and offset
// by (3^242 - 1) / 2: its 242 trits in plain base 3.
BigInt OffsetValue(const WordLanes &lanes)
{
    BigInt x{};
    for (std::size_t j = 0; j < kWordLanes; j++)
    {
        std::uint64_t limb = __builtin_bswap64(lanes[j]);
        std::size_t low = 2 * (kWordLanes - 1 - j);
        x[low] = static_cast<std::uint32_t>(limb);
        x[low + 1] = static_cast<std::uint32_t>(limb >> 32);
    }
    if (x[kWords - 2] >> 31)
        x[kWords - 1] = ~std::uint32_t(0); // sign extension
    const Bounds &limits = Limits();
    Add(x, limits.half);
    if (Negative(x))
        Add(x, limits.full);
    else if (!LessThan(x, limits.full))
        Sub(x, limits.full);
    return x;
}

// The lanes of an offset value: the offset taken back off, modulo 2^384.
WordLanes LanesOfOffset(BigInt x)
{
    Sub(x, Limits().half);
    WordLanes lanes;
    for (std::size_t j = 0; j < kWordLanes; j++)
    {
        std::size_t low = 2 * (kWordLanes - 1 - j);
        lanes[j] = __builtin_bswap64(std::uint64_t(x[low + 1]) << 32 | x[low]);
    }
    return lanes;
}

// The lanes of a 243-trit block's word.
WordLanes LanesOfTrits(const Trit *trits)
{
    // The value plus (3^242 - 1) / 2 has digits trit + 1 in plain base 3, read from the top, a
    // step of up to 20 digits at a time; after n steps it fits n words.
    BigInt x{};
    std::size_t words = 0;
    for (std::size_t end = kValueTrits; end > 0;)
    {
        std::size_t begin = end > kStepTrits ? end - kStepTrits : 0;
        std::uint32_t digits = 0;
        std::uint32_t factor = 1;
        for (std::size_t i = end; i-- > begin;)
        {
            digits = 3 * digits + static_cast<std::uint32_t>(trits[i] + 1);
            factor *= 3;
        }
        words = std::min(words + 1, kWords);
        MulAdd(x, factor, digits, words);
        end = begin;
    }
    return LanesOfOffset(x);
}

// The 243 trits of a word given as lanes, the last one 0.
void LanesToTrits(const WordLanes &lanes, Trit *out)
{
    BigInt x = OffsetValue(lanes);
    std::size_t words = kWords;
    for (std::size_t begin = 0; begin < kValueTrits; begin += kStepTrits)
    {
        while (words > 0 && x[words - 1] == 0)
            words--;
        std::uint32_t digits = DivMod(x, kStepFactor, words);
        for (std::size_t i = begin; i < std::min(begin + kStepTrits, kValueTrits); i++)
        {
            out[i] = static_cast<Trit>(static_cast<int>(digits % 3) - 1);
            digits /= 3;
        }
    }
    out[kHashTrits - 1] = 0;
}

// Nettle's Keccak-f[1600] over the state.
void Permute(State &state)
{
    sha3_state nettle;
    std::memcpy(nettle.a, state.data(), sizeof nettle.a);
    sha3_permute(&nettle);
    std::memcpy(state.data(), nettle.a, sizeof nettle.a);
}

// Pads what was absorbed, `position` bytes into the rate, with Keccak's pad10*1 and the domain
// bits of the original submission (0x01 ... 0x80), and permutes: the digest's lanes lead.
void PadAndPermute(State &state, std::size_t position)
{
    state[position / 8] ^= std::uint64_t(0x01) << (8 * (position % 8));
    state[(kRateBytes - 1) / 8] ^= std::uint64_t(0x80) << (8 * ((kRateBytes - 1) % 8));
    Permute(state);
}

} // namespace

KerlWord TritsToKerlWord(const Trit *trits)
{
    return WordOfLanes(LanesOfTrits(trits));
}

void KerlWordToTrits(const KerlWord &word, Trit *out)
{
    LanesToTrits(LanesOfWord(word), out);
}

void Kerl::Reset()
{
    lanes_.fill(0);
    position_ = 0;
}

void Kerl::AbsorbLanes(const std::uint64_t *word)
{
    // The rate and the word are whole lanes: a lane at a time.
    for (std::size_t j = 0; j < kWordLanes; j++)
    {
        lanes_[position_ / 8] ^= word[j];
        position_ += 8;
        if (position_ == kRateBytes)
        {
            Permute(lanes_);
            position_ = 0;
        }
    }
}

void Kerl::Finish(std::uint64_t *digest)
{
    PadAndPermute(lanes_, position_);
    std::copy(lanes_.begin(), lanes_.begin() + kWordLanes, digest);
}

void Kerl::Absorb(const Trit *trits, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
        AbsorbLanes(LanesOfTrits(trits + offset).data());
}

void Kerl::AbsorbWord(const KerlWord &word)
{
    AbsorbLanes(LanesOfWord(word).data());
}

void Kerl::Squeeze(Trit *out, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        WordLanes digest;
        Finish(digest.data());
        LanesToTrits(digest, out + offset);
        Reset();
        for (auto &lane : digest)
            lane = ~lane;
        AbsorbLanes(digest.data());
    }
}

HashTrits KerlHash(const Trit *trits, std::size_t count)
{
    Kerl kerl;
    kerl.Absorb(trits, count);
    HashTrits hash;
    kerl.Squeeze(hash.data(), kHashTrits);
    return hash;
}

void KerlHashChain(Trit *block, int times)
{
    if (times <= 0)
        return;
    WordLanes word = LanesOfTrits(block);
    for (int k = 0; k < times; k++)
    {
        if (k > 0)
            word = LanesOfOffset(OffsetValue(word));
        // A fresh Keccak-384 of the one word.
        State state{};
        std::copy(word.begin(), word.end(), state.begin());
        PadAndPermute(state, kKerlBytes);
        std::copy(state.begin(), state.begin() + kWordLanes, word.begin());
    }
    LanesToTrits(word, block);
}

} // namespace permanode::codec::legacy
