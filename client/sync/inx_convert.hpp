// What InxNode makes of the node's INX messages (inx.proto), without the gRPC calls that bring
// them: outputs, cones, ledger update streams and the node's status, checked as they are read.
// A message that does not hold together is NodeError kProtocol; a stream that ends early is
// kUnavailable.
#pragma once

#include "sync/node.hpp"

#include <cstdint>
#include <utility>
#include <vector>

#include "inx.pb.h"

namespace permanode::sync
{

LedgerOutput OutputOf(const inx::LedgerOutput &output);
LedgerSpent SpentOf(const inx::LedgerSpent &spent);
NodeStatus StatusOf(const inx::NodeStatus &status);
// Milestone `index` as the node sent it: its timestamp, ID and payload into `out`.
void ReadMilestone(const inx::Milestone &milestone, std::uint32_t index, NodeMilestone &out);

// A cone's blocks by their white-flag index, as the cone stream sends them.
using IndexedCone = std::vector<std::pair<std::uint32_t, ConeBlock>>;
std::pair<std::uint32_t, ConeBlock> ConeBlockOf(const inx::BlockWithMetadata &block);
// The blocks of milestone `index`'s whole cone in white-flag order: the stream's order is not
// promised, the blocks' own index is.
std::vector<ConeBlock> InWhiteFlagOrder(IndexedCone cone, std::uint32_t index);

// The ledger updates of milestones [from, to] as their stream brings them: per milestone a BEGIN
// marker, its outputs, an END marker counting them.
class LedgerUpdateReader
{
  public:
    LedgerUpdateReader(std::uint32_t from, std::uint32_t to) : from_(from), to_(to) {}
    // Takes the next message of the stream.
    void Add(const inx::LedgerUpdate &update);
    // Whether every milestone's batch has ended.
    bool Done() const { return done_; }
    // The batches, one per milestone; kUnavailable when the stream ended before they did.
    std::vector<LedgerUpdates> Take();

  private:
    void Marker(const inx::LedgerUpdate::Marker &marker);

    std::uint32_t from_;
    std::uint32_t to_;
    std::vector<LedgerUpdates> batches_;
    inx::LedgerUpdate::Marker begin_; // of the open batch
    bool open_ = false;
    bool done_ = false;
};

} // namespace permanode::sync
