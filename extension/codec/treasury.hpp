// Treasury transaction payload (TIP-34): moves the treasury from one milestone's output to a new
// one.
#pragma once

#include "codec/output.hpp"
#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <cstdint>

namespace permanode::codec
{

constexpr std::uint32_t kTreasuryTransactionPayloadType = 4;

struct TreasuryTransactionPayload
{
    MilestoneId input_milestone_id{}; // the treasury input references a milestone
    TreasuryOutput output;
    bool operator==(const TreasuryTransactionPayload &o) const
    {
        return input_milestone_id == o.input_milestone_id && output == o.output;
    }
};

// Reads the body that follows the u32 payload type.
TreasuryTransactionPayload DecodeTreasuryTransactionBody(ByteReader &reader);
// Writes the payload including its u32 type.
void EncodeTreasuryTransaction(ByteWriter &writer, const TreasuryTransactionPayload &payload);

} // namespace permanode::codec
