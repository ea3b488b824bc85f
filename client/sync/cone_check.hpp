// What is checked of a milestone a node sent before any of it is archived: that its cone is the
// one its milestone payload commits to (the Merkle roots of TIP-4, over the blocks in white-flag
// order), and that the outputs the node says it created are the cone's own. No archive checks
// this at ingest; a partial cone is refused rather than archived as complete.
#pragma once

#include "sync/node.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::sync
{

// A milestone that does not hold together; the message names the milestone and what is wrong.
class ConeError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// Checks the cone against the milestone payload: its index and timestamp, and the Merkle roots
// (Stardust: inclusion and applied; Chrysalis: the inclusion merkle proof, the payload being in
// the cone's last message). Throws ConeError.
void CheckCone(const NodeMilestone &milestone);

// Every output the cone's included transactions create, and in Chrysalis the funds the
// milestone's receipt migrates, by output ID with its bytes.
std::map<codec::OutputIdBytes, codec::Bytes> OutputsOfCone(const NodeMilestone &milestone);

// The outputs the milestone booked from outside its cone (a genesis or a snapshot): those of the
// node's created outputs that OutputsOfCone does not hold. Throws ConeError when a created output
// the node gives with its bytes differs from the cone's.
std::vector<LedgerOutput> OutputsFromOutside(const NodeMilestone &milestone);

} // namespace permanode::sync
