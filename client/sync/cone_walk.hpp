// A milestone's cone as a REST API gives it: block by block, from the milestone's parents down
// to the blocks an earlier milestone referenced (or the node does not have), then laid out in
// white-flag order: the node's own where its metadata gives it (whiteFlagIndex, Hornet 2.x),
// else as TIP-2 defines it (depth first, parents in the order the block lists them, each block
// after its parents). The cone check then holds that order against the milestone's Merkle roots.
#pragma once

#include "sync/node.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace permanode::sync
{

// One block as the node describes it. `block.bytes` may be left empty for a block another
// milestone referenced (the walk stops there).
struct WalkedBlock
{
    std::optional<std::uint32_t> referenced_by;    // the milestone that referenced it, if any
    std::optional<std::uint32_t> white_flag_index; // its place in that milestone's cone
    ConeBlock block;
};

using FetchBlock = std::function<WalkedBlock(const codec::BlockId &id)>;

// The blocks milestone `index` referenced, reachable from `roots` (Stardust: its payload's
// parents; Chrysalis: its own message), in white-flag order. Each level's blocks are fetched
// with up to `parallel` threads; a block the node does not have (NodeError kNotFound) is not of
// the cone. `protocol_version` says how to read parents from the bytes. Throws NodeError as
// `fetch` does, and kProtocol for bytes without parents or white-flag indexes that are not
// 0 … n−1.
std::vector<ConeBlock> WalkCone(const std::vector<codec::BlockId> &roots, std::uint32_t index,
                                std::uint8_t protocol_version, const FetchBlock &fetch,
                                int parallel);

// Runs fn(0) … fn(count − 1) on up to `parallel` threads; rethrows the first exception.
void ParallelFor(std::size_t count, int parallel, const std::function<void(std::size_t)> &fn);

} // namespace permanode::sync
