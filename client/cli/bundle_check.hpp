// Checks a parsed bundle with the codec before it is sent: every block and snapshot output
// decodes, inclusion states fit the payloads, the cone carries no payload of a later milestone
// (or of this one with another timestamp), and where the milestone payload is in hand the cone
// is the one it commits to (TIP-4 Merkle roots), unless the line says "partial_cone". The server
// checks the same and would answer 22P02/22023; checking here names the block precisely and keeps a
// bad milestone from ever reaching the pipeline, so that the milestones after it are not sent
// either.
#pragma once

#include "bundle.hpp"

#include <optional>
#include <string>

namespace permanode::cli
{

// Throws BundleError naming the block ("block 3 (0x…): …").
void CheckBundle(const MilestoneBundle &bundle);

// What is wrong with the cone against its milestone payload's Merkle roots, where the payload is
// in hand (Chrysalis: the cone's last message; Stardust: the node field "milestone"); nullopt
// when they hold or the payload is not in hand. Whatever partial_cone says.
std::optional<std::string> MerkleProblem(const MilestoneBundle &bundle);

} // namespace permanode::cli
