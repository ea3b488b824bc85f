// Kerl: the trits <-> 384-bit integer conversion and a Keccak-384 sponge around Nettle's
// Keccak-f[1600] permutation.
#include "codec/legacy/kerl.hpp"

#include <nettle/sha3.h>

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

void MulAdd(BigInt &x, std::uint32_t factor, std::uint32_t addend)
{
    std::uint64_t carry = addend;
    for (auto &w : x)
    {
        std::uint64_t v = std::uint64_t(w) * factor + carry;
        w = static_cast<std::uint32_t>(v);
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

// Returns x mod 3 and divides x by 3.
std::uint32_t DivMod3(BigInt &x)
{
    std::uint64_t rest = 0;
    for (std::size_t i = kWords; i-- > 0;)
    {
        std::uint64_t v = (rest << 32) | x[i];
        x[i] = static_cast<std::uint32_t>(v / 3);
        rest = v % 3;
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

} // namespace

KerlWord TritsToKerlWord(const Trit *trits)
{
    // The value plus (3^242 - 1) / 2 has digits trit + 1 in plain base 3; then take the offset
    // back off, modulo 2^384.
    BigInt x{};
    for (std::size_t i = kHashTrits - 1; i-- > 0;)
        MulAdd(x, 3, static_cast<std::uint32_t>(trits[i] + 1));
    Sub(x, Limits().half);
    KerlWord word;
    for (std::size_t i = 0; i < kKerlBytes; i++)
    {
        std::size_t bit = 8 * (kKerlBytes - 1 - i);
        word[i] = static_cast<std::uint8_t>(x[bit / 32] >> (bit % 32));
    }
    return word;
}

void KerlWordToTrits(const KerlWord &word, Trit *out)
{
    BigInt x{};
    for (std::size_t i = 0; i < kKerlBytes; i++)
    {
        std::size_t bit = 8 * (kKerlBytes - 1 - i);
        x[bit / 32] |= std::uint32_t(word[i]) << (bit % 32);
    }
    if (word[0] & 0x80)
        x[kWords - 1] = ~std::uint32_t(0); // sign extension
    // Into plain base 3 (offset by (3^242 - 1) / 2), reduced modulo 3^242.
    const Bounds &limits = Limits();
    Add(x, limits.half);
    if (Negative(x))
        Add(x, limits.full);
    else if (!LessThan(x, limits.full))
        Sub(x, limits.full);
    for (std::size_t i = 0; i < kHashTrits - 1; i++)
        out[i] = static_cast<Trit>(int(DivMod3(x)) - 1);
    out[kHashTrits - 1] = 0;
}

void Kerl::Reset()
{
    lanes_.fill(0);
    position_ = 0;
}

void Kerl::AbsorbBytes(const std::uint8_t *bytes, std::size_t count)
{
    for (std::size_t i = 0; i < count; i++)
    {
        lanes_[position_ / 8] ^= std::uint64_t(bytes[i]) << (8 * (position_ % 8));
        if (++position_ == kRateBytes)
        {
            sha3_state state;
            std::memcpy(state.a, lanes_.data(), sizeof state.a);
            sha3_permute(&state);
            std::memcpy(lanes_.data(), state.a, sizeof state.a);
            position_ = 0;
        }
    }
}

KerlWord Kerl::Finish()
{
    // Keccak's pad10*1 with the domain bits of the original submission: 0x01 ... 0x80.
    lanes_[position_ / 8] ^= std::uint64_t(0x01) << (8 * (position_ % 8));
    lanes_[(kRateBytes - 1) / 8] ^= std::uint64_t(0x80) << (8 * ((kRateBytes - 1) % 8));
    sha3_state state;
    std::memcpy(state.a, lanes_.data(), sizeof state.a);
    sha3_permute(&state);
    KerlWord digest;
    for (std::size_t i = 0; i < kKerlBytes; i++)
        digest[i] = static_cast<std::uint8_t>(state.a[i / 8] >> (8 * (i % 8)));
    return digest;
}

void Kerl::Absorb(const Trit *trits, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        KerlWord word = TritsToKerlWord(trits + offset);
        AbsorbBytes(word.data(), word.size());
    }
}

void Kerl::Squeeze(Trit *out, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        KerlWord digest = Finish();
        KerlWordToTrits(digest, out + offset);
        Reset();
        for (auto &byte : digest)
            byte = static_cast<std::uint8_t>(~byte);
        AbsorbBytes(digest.data(), digest.size());
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

} // namespace permanode::codec::legacy
