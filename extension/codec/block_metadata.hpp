// Block metadata as a node reports it (TIP-25 BlockMetadataResponse); not part of the block bytes.
#pragma once

#include "codec/types.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace permanode::codec
{

enum class LedgerInclusionState : std::uint8_t
{
    kNoTransaction,
    kIncluded,
    kConflicting,
};

struct BlockMetadata
{
    BlockId block_id{};
    std::vector<BlockId> parents;
    bool is_solid = false;
    std::optional<std::uint32_t> referenced_by_milestone_index;
    std::optional<std::uint32_t> milestone_index; // set when the block is a valid milestone
    std::optional<LedgerInclusionState> ledger_inclusion_state;
    std::optional<std::uint8_t> conflict_reason; // TIP-25 codes, 0 = none
    std::optional<std::uint32_t> white_flag_index;
    std::optional<bool> should_promote;
    std::optional<bool> should_reattach;
    bool operator==(const BlockMetadata &o) const
    {
        return block_id == o.block_id && parents == o.parents && is_solid == o.is_solid &&
               referenced_by_milestone_index == o.referenced_by_milestone_index &&
               milestone_index == o.milestone_index &&
               ledger_inclusion_state == o.ledger_inclusion_state &&
               conflict_reason == o.conflict_reason && white_flag_index == o.white_flag_index &&
               should_promote == o.should_promote && should_reattach == o.should_reattach;
    }
};

// TIP-25 spelling: "noTransaction", "included", "conflicting".
std::string_view ToString(LedgerInclusionState state);
// Accepts the TIP-25 spelling and the snake_case one used by inx-chronicle ("no_transaction").
std::optional<LedgerInclusionState> ParseLedgerInclusionState(std::string_view text);

} // namespace permanode::codec
