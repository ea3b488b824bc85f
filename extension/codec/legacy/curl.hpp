// Curl-P-81, the sponge that hashes legacy transactions (a transaction's hash is Curl-P-81 of its
// 8019 trits), in three implementations that must agree:
//   - CurlP81, one input at a time: the reference, a plain reading of the definition;
//   - CurlP81Batch, up to 64 inputs at once, bitsliced: trit i of input k is bit k of two 64-bit
//     words, so one pass of the transform moves 64 states (the technique of IRI's BatchedHasher);
//   - PackedCurlP81, one input at a time with its state packed 64 trits to a word, in an order
//     that makes every round a rotation (curl_packed.cpp): about 10x the reference, for what
//     cannot wait for a batch, such as a transaction whose trunk is the hash just computed.
#pragma once

#include "codec/legacy/trinary.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace permanode::codec::legacy
{

constexpr std::size_t kCurlStateTrits = 3 * kHashTrits;
constexpr int kCurlRounds = 81;
// How many inputs CurlP81Batch hashes in one pass: one per bit of a 64-bit word.
constexpr std::size_t kCurlBatchSize = 64;

// The sponge: absorb whole 243-trit blocks, then squeeze 243-trit blocks.
class CurlP81
{
  public:
    // `count` is a multiple of 243.
    void Absorb(const Trit *trits, std::size_t count);
    void Squeeze(Trit *out, std::size_t count);
    void Reset() { state_.fill(0); }
    // What the next Squeeze returns, without the transform that prepares the block after it.
    HashTrits Digest() const;

  private:
    void Transform();

    std::array<Trit, kCurlStateTrits> state_{};
};

// Curl-P-81 of `count` trits (a multiple of 243), one input at a time.
HashTrits CurlHash(const Trit *trits, std::size_t count);

// The sponge of CurlP81, its state as two 729-bit planes (see curl_packed.cpp).
class PackedCurlP81
{
  public:
    PackedCurlP81() { Reset(); }
    // A sponge whose state is `state`, 729 trits (a lane of the bitsliced hasher).
    explicit PackedCurlP81(const Trit *state);
    // `count` is a multiple of 243.
    void Absorb(const Trit *trits, std::size_t count);
    HashTrits Digest() const;
    void Reset();

  private:
    // The state's 729 bits in 12 words, and a 13th that repeats the first ones past bit 728.
    static constexpr std::size_t kWords = 13;
    using Plane = std::array<std::uint64_t, kWords>;

    void Transform();

    Plane low_;            // bit set: the trit is not 1
    Plane high_;           // bit set: the trit is not -1
    std::uint32_t layout_; // trit x of the state is at bit x * layout_ mod 729
};

// Curl-P-81 of `inputs.size()` inputs (at most 64) of `count` trits each (a multiple of 243),
// bitsliced; hash k goes to outputs[k].
void CurlP81Batch(const std::vector<const Trit *> &inputs, std::size_t count, HashTrits *outputs);

// The hashes of many inputs of `count` trits each, 64 at a time through CurlP81Batch.
std::vector<HashTrits> CurlHashMany(const std::vector<const Trit *> &inputs, std::size_t count);

// The sponges of many inputs after absorbing `count` trits of each (a multiple of 243), bitsliced
// 64 at a time: sponge k goes on with input k one at a time. Inputs that share nothing but the
// length of a first part are hashed that far together (a transaction's first 30 blocks, before
// its trunk).
std::vector<PackedCurlP81> CurlAbsorbMany(const std::vector<const Trit *> &inputs,
                                          std::size_t count);

} // namespace permanode::codec::legacy
