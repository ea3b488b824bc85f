#include "codec/block_metadata.hpp"

namespace permanode::codec
{

std::string_view ToString(LedgerInclusionState state)
{
    switch (state)
    {
        case LedgerInclusionState::kNoTransaction:
            return "noTransaction";
        case LedgerInclusionState::kIncluded:
            return "included";
        case LedgerInclusionState::kConflicting:
            return "conflicting";
    }
    return "noTransaction";
}

std::optional<LedgerInclusionState> ParseLedgerInclusionState(std::string_view text)
{
    if (text == "noTransaction" || text == "no_transaction")
        return LedgerInclusionState::kNoTransaction;
    if (text == "included")
        return LedgerInclusionState::kIncluded;
    if (text == "conflicting")
        return LedgerInclusionState::kConflicting;
    return std::nullopt;
}

} // namespace permanode::codec
