// Curl-P-81 bitsliced over 64 inputs. Each trit of the 729-trit state is a pair of 64-bit words
// (low, high), bit k of each belonging to input k, with
//     trit -1 = (1, 0),   trit 0 = (1, 1),   trit 1 = (0, 1),
// so a bit of `low` says "not 1" and a bit of `high` says "not -1". The substitution S(a, b) of
// curl.cpp is then, for a = (a_low, a_high) and b = (b_low, b_high):
//     d      = (a_low | ~b_high) & (b_low ^ a_high)
//     low'   = ~d
//     high'  = (a_low ^ b_high) | d
// (the unit tests hold it to the reference's table on random inputs, which meet all nine pairs),
// seven word operations for 64 trits where the reference does one table lookup per trit.
#include "codec/legacy/curl.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace permanode::codec::legacy
{

namespace
{

using Word = std::uint64_t;

// p(i) = 364 i mod 729 for i = 0..729: trit i of a round reads p(i) and p(i + 1).
struct CurlIndexes
{
    std::array<std::uint16_t, kCurlStateTrits + 1> p{};

    CurlIndexes()
    {
        for (std::size_t i = 0; i <= kCurlStateTrits; i++)
            p[i] = static_cast<std::uint16_t>((364 * i) % kCurlStateTrits);
    }
};

const CurlIndexes &Indexes()
{
    static const CurlIndexes indexes;
    return indexes;
}

struct SlicedState
{
    std::array<Word, kCurlStateTrits> low;
    std::array<Word, kCurlStateTrits> high;
};

// 81 rounds, ping-ponging between `state` and `scratch`; the result ends in `state`.
void Transform(SlicedState &state, SlicedState &scratch)
{
    const std::uint16_t *p = Indexes().p.data();
    SlicedState *from = &state;
    SlicedState *to = &scratch;
    for (int round = 0; round < kCurlRounds; round++)
    {
        const Word *low = from->low.data();
        const Word *high = from->high.data();
        Word *new_low = to->low.data();
        Word *new_high = to->high.data();
        for (std::size_t i = 0; i < kCurlStateTrits; i++)
        {
            Word a_low = low[p[i]];
            Word a_high = high[p[i]];
            Word b_low = low[p[i + 1]];
            Word b_high = high[p[i + 1]];
            Word d = (a_low | ~b_high) & (b_low ^ a_high);
            new_low[i] = ~d;
            new_high[i] = (a_low ^ b_high) | d;
        }
        std::swap(from, to);
    }
    // 81 rounds is odd: the last one wrote into `scratch`.
    state = *from;
}

// The state after absorbing `count` trits of each input, input k in lane k.
SlicedState Absorbed(const std::vector<const Trit *> &inputs, std::size_t count)
{
    if (inputs.size() > kCurlBatchSize)
        throw std::invalid_argument("CurlP81Batch hashes at most 64 inputs at once");
    SlicedState state;
    SlicedState scratch;
    // Zero trits everywhere, in every lane (lanes past inputs.size() hash zeros, unread).
    state.low.fill(~Word(0));
    state.high.fill(~Word(0));
    for (std::size_t offset = 0; offset < count; offset += kHashTrits)
    {
        for (std::size_t j = 0; j < kHashTrits; j++)
        {
            state.low[j] = ~Word(0);
            state.high[j] = ~Word(0);
        }
        for (std::size_t k = 0; k < inputs.size(); k++)
        {
            const Trit *block = inputs[k] + offset;
            Word bit = Word(1) << k;
            for (std::size_t j = 0; j < kHashTrits; j++)
            {
                // 1 clears the "not 1" bit, -1 the "not -1" bit.
                state.low[j] ^= block[j] == 1 ? bit : 0;
                state.high[j] ^= block[j] == -1 ? bit : 0;
            }
        }
        Transform(state, scratch);
    }
    return state;
}

// Trit `j` of the state in lane `k`.
Trit LaneTrit(const SlicedState &state, std::size_t j, std::size_t k)
{
    int low = static_cast<int>((state.low[j] >> k) & 1);
    int high = static_cast<int>((state.high[j] >> k) & 1);
    return static_cast<Trit>(high - low);
}

} // namespace

void CurlP81Batch(const std::vector<const Trit *> &inputs, std::size_t count, HashTrits *outputs)
{
    SlicedState state = Absorbed(inputs, count);
    for (std::size_t k = 0; k < inputs.size(); k++)
        for (std::size_t j = 0; j < kHashTrits; j++)
            outputs[k][j] = LaneTrit(state, j, k);
}

std::vector<HashTrits> CurlHashMany(const std::vector<const Trit *> &inputs, std::size_t count)
{
    std::vector<HashTrits> hashes(inputs.size());
    for (std::size_t first = 0; first < inputs.size(); first += kCurlBatchSize)
    {
        std::size_t last = std::min(inputs.size(), first + kCurlBatchSize);
        std::vector<const Trit *> batch(inputs.begin() + first, inputs.begin() + last);
        CurlP81Batch(batch, count, hashes.data() + first);
    }
    return hashes;
}

std::vector<PackedCurlP81> CurlAbsorbMany(const std::vector<const Trit *> &inputs,
                                          std::size_t count)
{
    std::vector<PackedCurlP81> sponges;
    sponges.reserve(inputs.size());
    std::array<Trit, kCurlStateTrits> lane;
    for (std::size_t first = 0; first < inputs.size(); first += kCurlBatchSize)
    {
        std::size_t last = std::min(inputs.size(), first + kCurlBatchSize);
        SlicedState state = Absorbed({inputs.begin() + first, inputs.begin() + last}, count);
        for (std::size_t k = 0; k < last - first; k++)
        {
            for (std::size_t j = 0; j < kCurlStateTrits; j++)
                lane[j] = LaneTrit(state, j, k);
            sponges.emplace_back(lane.data());
        }
    }
    return sponges;
}

} // namespace permanode::codec::legacy
