// The milestone bundle: one milestone per NDJSON line, what `permanode ingest` reads and
// `permanode generate` and `permanode import-chronicle` write. BUNDLE_FORMAT.md documents it.
#pragma once

#include "codec/types.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace permanode::cli
{

// Ledger inclusion state codes, as ingest_milestone takes them.
enum class InclusionState : std::uint8_t
{
    kNoTransaction = 0,
    kIncluded = 1,
    kConflicting = 2,
};

struct BundleBlock
{
    codec::Bytes bytes; // the raw block (TIP-24)
    InclusionState inclusion_state = InclusionState::kNoTransaction;
    std::uint8_t conflict_reason = 0; // TIP-25 code, 0 = none
};

// An output the milestone books from outside its cone (genesis or snapshot).
struct SnapshotOutput
{
    codec::OutputId output_id;
    codec::BlockId block_id{};
    codec::Bytes output; // serialized output (TIP-18)
};

// Protocol versions a bundle may carry: Chrysalis messages (v1) or Stardust blocks (v2).
constexpr std::uint8_t kChrysalisProtocol = 1;
constexpr std::uint8_t kStardustProtocol = 2;

struct MilestoneBundle
{
    std::uint8_t protocol_version = kStardustProtocol; // of every block of the cone
    std::uint32_t milestone_index = 0;
    std::uint32_t milestone_timestamp = 0; // unix seconds
    std::vector<BundleBlock> blocks;       // the cone, in white-flag order
    std::vector<SnapshotOutput> snapshot_outputs;
    // A cone known to lack blocks (real data recorded in part): its Merkle check is skipped.
    bool partial_cone = false;
    // Stardust: the milestone's own payload (the node field "milestone"), when the line has it.
    codec::Bytes milestone_payload;
    // Stardust: the protocol parameters (TIP-32) in force from this milestone on (the node field
    // "protocol_parameters"), when the line has them.
    codec::Bytes protocol_parameters;
};

// A line that is not a valid bundle; the message says what is wrong (without file:line).
class BundleError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// Parses one line. Checks the shape only (JSON, hex, ranges), not that the blocks decode.
MilestoneBundle ParseBundle(std::string_view line);
// Renders a bundle as one line, without the newline.
std::string FormatBundle(const MilestoneBundle &bundle);

const char *InclusionStateName(InclusionState state);

} // namespace permanode::cli
