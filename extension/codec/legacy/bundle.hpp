// Bundle validation: the checks IRI and iota.js made before a bundle could move value, in their
// order, reporting the first that fails.
#pragma once

#include "codec/legacy/transaction.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace permanode::codec::legacy
{

// The IOTA supply: no value may exceed it in magnitude.
constexpr std::int64_t kSupply = 2779530283277761;

enum class BundleCheck
{
    kValid,
    kIndexes,    // the current indexes are not 0, 1, ... in order (or the bundle is empty)
    kLastIndex,  // a last index is not the bundle's size - 1
    kValue,      // a value out of range or with non-zero high trits, or value on an address
                 // whose last trit is not 0 (no Kerl address)
    kBalance,    // the values do not sum to zero
    kBundleHash, // a bundle field is not Kerl of the essences
    kSignature,  // an input's signature fragments do not sign the bundle hash for its address
    kTrunkChain, // (attached bundles) a transaction's trunk is not the next transaction
};

// The check's name in reports: "indexes", "last index", "value", "balance", "bundle hash",
// "signature", "trunk chain" ("valid" for kValid).
const char *BundleCheckName(BundleCheck check);

struct BundleVerdict
{
    BundleCheck failed = BundleCheck::kValid;
    std::size_t transaction = 0; // position in the bundle of the failing transaction
    std::string detail;          // what was found

    bool Valid() const { return failed == BundleCheck::kValid; }
};

// The bundle hash of transactions in bundle order: Kerl of their essences (address, value,
// obsolete tag, timestamp, current index, last index), as 81 trytes.
std::string ComputeBundleHash(const std::vector<Transaction> &transactions);

// The bundle hash of a bundle to be signed, as iota.js's finalizeBundle made it: while the
// normalized hash has a 13 (whose signature fragment gives its key segment away), the first
// transaction's obsolete tag is incremented (as an 81-trit number) and the essences hashed again.
// Sets that obsolete tag and every transaction's bundle field; returns the hash.
std::string FinalizeBundleHash(std::vector<Transaction> &transactions);

// Validates transactions given in bundle order (current index 0 first). With `hashes` (the
// transactions' hashes, same order) the trunk chain is checked too, as it must hold for a
// bundle attached to the tangle; a bundle prepared but not attached has no chain.
BundleVerdict ValidateBundle(const std::vector<Transaction> &transactions,
                             const std::vector<std::string> *hashes = nullptr);

} // namespace permanode::codec::legacy
