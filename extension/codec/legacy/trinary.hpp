// Balanced ternary for the legacy (2016-2021) IOTA ledger: trits, trytes, t5b1 bytes and the
// integers the transaction fields hold.
//
// A trit is -1, 0 or 1. A tryte is three trits, least significant first, written as one of the 27
// characters "9ABCDEFGHIJKLMNOPQRSTUVWXYZ": '9' is 0, 'A' to 'M' are 1 to 13, 'N' to 'Z' are -13
// to -1. t5b1 (bee-rfcs 0013) packs five trits into one byte as the signed value
// t0 + 3 t1 + 9 t2 + 27 t3 + 81 t4 (-121..121), the last byte padded with zero trits: a
// transaction's 8019 trits take 1604 bytes.
#pragma once

#include "codec/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace permanode::codec::legacy
{

using Trit = std::int8_t;
using Trits = std::vector<Trit>;

constexpr std::size_t kTritsPerTryte = 3;
constexpr std::size_t kHashTrits = 243;
constexpr std::size_t kHashTrytes = kHashTrits / kTritsPerTryte;
constexpr std::size_t kTransactionTrytes = 2673;
constexpr std::size_t kTransactionTrits = kTransactionTrytes * kTritsPerTryte;
constexpr std::size_t kTritsPerByte = 5;
constexpr std::size_t kTransactionT5b1Bytes =
    (kTransactionTrits + kTritsPerByte - 1) / kTritsPerByte;

// A Curl or Kerl hash (transaction, bundle, address).
using HashTrits = std::array<Trit, kHashTrits>;

// Whether `c` is one of the 27 tryte characters (upper case only, as every IOTA client wrote them).
bool IsTryte(char c);

// Trytes to trits; `trytes` must hold only tryte characters, else DecodeError names `field` and
// the position (in trytes) of the first one that is not.
Trits TrytesToTrits(std::string_view trytes, const char *field = "trytes");
void TrytesToTrits(std::string_view trytes, Trit *out, const char *field = "trytes");

// Trits to trytes; `count` is a multiple of 3.
std::string TritsToTrytes(const Trit *trits, std::size_t count);
template <std::size_t N> std::string TritsToTrytes(const std::array<Trit, N> &trits)
{
    return TritsToTrytes(trits.data(), N);
}

// t5b1: `count` trits to ceil(count / 5) bytes, and back. Decoding rejects (DecodeError, offset in
// bytes) a byte outside -121..121 and padding trits that are not zero, so every byte string it
// accepts encodes back to itself.
Bytes EncodeT5b1(const Trit *trits, std::size_t count);
Trits DecodeT5b1(ByteSpan bytes, std::size_t trit_count);

// The integer `count` trits hold, least significant first (count <= 40 fits in 64 bits).
std::int64_t TritsToInt(const Trit *trits, std::size_t count);
// `value` as `count` trits; EncodeError if it does not fit.
void IntToTrits(std::int64_t value, Trit *out, std::size_t count);

} // namespace permanode::codec::legacy
