// Kerl, the legacy ledger's hash for bundles, addresses and signatures (from August 2017 on):
// Keccak-384 (the original Keccak padding, 0x01, not SHA-3's 0x06) over 243-trit blocks, each
// block converted to a 48-byte word and each 48-byte digest converted back to 243 trits.
//
// The conversion reads trits 0..241 as a balanced ternary integer, least significant trit first,
// and writes it as a 384-bit two's complement integer, big endian; trit 242 is ignored on the way
// in and always 0 on the way out (a digest is reduced modulo 3^242 into the balanced range).
//
// The Keccak-f[1600] permutation comes from Nettle (sha3_permute); only the sponge around it,
// with its padding, is ours.
#pragma once

#include "codec/legacy/trinary.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace permanode::codec::legacy
{

constexpr std::size_t kKerlBytes = 48;
using KerlWord = std::array<std::uint8_t, kKerlBytes>;

// A 243-trit block as Kerl's 48-byte integer, and back.
KerlWord TritsToKerlWord(const Trit *trits);
void KerlWordToTrits(const KerlWord &word, Trit *out);

// The sponge. Absorb and Squeeze take whole 243-trit blocks. After each squeezed block Kerl
// starts a new Keccak-384 seeded with the digest's bytes inverted, as every IOTA client did.
class Kerl
{
  public:
    Kerl() { Reset(); }
    void Absorb(const Trit *trits, std::size_t count);
    // A block converted beforehand (TritsToKerlWord), for blocks hashed more than once.
    void AbsorbWord(const KerlWord &word);
    void Squeeze(Trit *out, std::size_t count);
    void Reset();

  private:
    // A word as its six 64-bit lanes (bytes 8 j to 8 j + 7, little endian, in lane j).
    void AbsorbLanes(const std::uint64_t *word);
    void Finish(std::uint64_t *digest);

    std::array<std::uint64_t, 25> lanes_;
    std::size_t position_; // bytes absorbed into the current rate block
};

// Kerl of `count` trits (a multiple of 243): one squeezed block.
HashTrits KerlHash(const Trit *trits, std::size_t count);

// Kerl of a 243-trit block `times` times over, each time with a fresh sponge, in place: the hash
// chains of the Winternitz scheme. Between steps the digest goes on as a word, reduced as its
// trits would have reduced it, so only the ends are converted; the trits are those of hashing
// the trits again each time.
void KerlHashChain(Trit *block, int times);

} // namespace permanode::codec::legacy
