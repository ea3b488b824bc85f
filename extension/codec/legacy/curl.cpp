// Curl-P-81, the reference implementation: a 729-trit state; absorbing copies a 243-trit block
// over the first third of the state and transforms it; the transform is 81 rounds, each of which
// sets trit i to S(a, b) of two trits of the previous round's state, a = state[p(i)] and
// b = state[p(i + 1)] with p(i) = 364 i mod 729; squeezing reads the first third.
#include "codec/legacy/curl.hpp"

#include <algorithm>

namespace permanode::codec::legacy
{

namespace
{

// S(a, b), indexed by a + 3 b + 4 (a and b in -1..1).
constexpr Trit kSubstitution[9] = {
    1,  0,  -1, // b = -1: a = -1, 0, 1
    1,  -1, 0,  // b = 0
    -1, 1,  0,  // b = 1
};

} // namespace

void CurlP81::Transform()
{
    std::array<Trit, kCurlStateTrits> scratch;
    Trit *from = state_.data();
    Trit *to = scratch.data();
    for (int round = 0; round < kCurlRounds; round++)
    {
        std::size_t p = 0;
        for (std::size_t i = 0; i < kCurlStateTrits; i++)
        {
            std::size_t q = p < 365 ? p + 364 : p - 365; // p(i + 1) = p(i) + 364 mod 729
            to[i] = kSubstitution[from[p] + 3 * from[q] + 4];
            p = q;
        }
        std::swap(from, to);
    }
    // 81 rounds is odd: the last one wrote into `scratch`.
    std::copy(from, from + kCurlStateTrits, state_.begin());
}

void CurlP81::Absorb(const Trit *trits, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        std::copy(trits + offset, trits + offset + kHashTrits, state_.begin());
        Transform();
    }
}

void CurlP81::Squeeze(Trit *out, std::size_t count)
{
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        std::copy(state_.begin(), state_.begin() + kHashTrits, out + offset);
        Transform();
    }
}

HashTrits CurlP81::Digest() const
{
    HashTrits hash;
    std::copy(state_.begin(), state_.begin() + kHashTrits, hash.begin());
    return hash;
}

HashTrits CurlHash(const Trit *trits, std::size_t count)
{
    CurlP81 curl;
    curl.Absorb(trits, count);
    return curl.Digest();
}

} // namespace permanode::codec::legacy
