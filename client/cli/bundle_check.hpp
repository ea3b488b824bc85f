// Checks a parsed bundle with the codec before it is sent: every block and snapshot output
// decodes, inclusion states fit the payloads, and the cone carries no payload of a later
// milestone (or of this one with another timestamp). The server checks the same and would
// answer 22P02/22023; checking here names the block precisely and keeps a bad milestone from
// ever reaching the pipeline, so that the milestones after it are not sent either.
#pragma once

#include "bundle.hpp"

namespace permanode::cli
{

// Throws BundleError naming the block ("block 3 (0x…): …").
void CheckBundle(const MilestoneBundle &bundle);

} // namespace permanode::cli
