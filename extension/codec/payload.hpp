// The payload union: treasury transaction, tagged data, transaction and milestone.
#pragma once

#include "codec/milestone.hpp"
#include "codec/reader.hpp"
#include "codec/tagged_data.hpp"
#include "codec/transaction.hpp"
#include "codec/treasury.hpp"
#include "codec/writer.hpp"

#include <cstdint>
#include <optional>
#include <variant>

namespace permanode::codec
{

// Variant index + 4 equals the wire u32 payload type.
using Payload = std::variant<TreasuryTransactionPayload, TaggedDataPayload, TransactionPayload,
                             MilestonePayload>;

inline std::uint32_t TypeOf(const Payload &payload)
{
    return static_cast<std::uint32_t>(payload.index() + 4);
}

// Reads a u32 payload type (which must be one a block may carry: 5, 6 or 7) and its body.
Payload DecodeBlockPayload(ByteReader &reader);
// The same, into `payload` in place (a decoded block's payload is not moved on the way).
void DecodeBlockPayload(ByteReader &reader, std::optional<Payload> &payload);
// Writes the payload including its u32 type (no length prefix).
void EncodePayload(ByteWriter &writer, const Payload &payload);

} // namespace permanode::codec
