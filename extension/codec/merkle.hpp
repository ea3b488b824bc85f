// The Merkle tree hash of milestones (TIP-4): BLAKE2b-256 over leaves prefixed 0x00 and nodes
// prefixed 0x01, split at the largest power of two below the number of leaves; no leaves hash
// to BLAKE2b-256 of nothing.
#pragma once

#include "codec/types.hpp"

#include <vector>

namespace permanode::codec
{

Hash32 MerkleRoot(const std::vector<Hash32> &leaves);

} // namespace permanode::codec
