// Winternitz one-time signatures over Kerl, as the legacy ledger used them from August 2017 on.
//
// A private key of security level s (1 to 3) is s fragments of 27 segments of 243 trits. A
// segment hashed 26 times with Kerl is its public segment; Kerl of a fragment's 27 public
// segments is the fragment's digest, and Kerl of the s digests is the address. Signing a bundle
// hash publishes, for fragment i, each segment j hashed 13 - n[j] times, where n is the i-th
// (mod 3) 27-tryte third of the normalized bundle hash; a verifier hashes each signed segment
// 13 + n[j] more times and must reach the address. One fragment goes in each transaction's
// signatureMessageFragment: the input's and those of the transactions right after it that carry
// the same address and no value.
#pragma once

#include "codec/legacy/trinary.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace permanode::codec::legacy
{

constexpr std::size_t kSegmentsPerFragment = 27;
constexpr std::size_t kFragmentTrits = kSegmentsPerFragment * kHashTrits; // 6561 = 2187 trytes
constexpr int kMaxSecurity = 3;

// The bundle hash's 81 tryte values (-13..13), each 27-tryte third shifted, first trytes first,
// until it sums to zero.
std::array<int, kHashTrytes> NormalizedBundleHash(std::string_view bundle_hash);

// Whether the signature fragments (2187 trytes each, one per security level; a fourth would
// take the first third of the normalized hash again, as IRI read it) sign `bundle_hash` for
// `address` (81 trytes).
bool ValidateSignature(std::string_view address, const std::vector<std::string> &fragments,
                       std::string_view bundle_hash);

// Key generation and signing, for generated ledgers and tests: the private key of `seed`
// (81 trytes) at `index`, its address, and its signature fragments for a bundle hash.
Trits PrivateKey(std::string_view seed, std::uint64_t index, int security);
std::string AddressOfKey(const Trits &private_key);
std::vector<std::string> SignatureFragments(const Trits &private_key, std::string_view bundle_hash);

} // namespace permanode::codec::legacy
