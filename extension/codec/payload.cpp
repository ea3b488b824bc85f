#include "codec/payload.hpp"

#include <string>

namespace permanode::codec
{

void DecodeBlockPayload(ByteReader &reader, std::optional<Payload> &payload)
{
    std::size_t start = reader.Offset();
    std::uint32_t type = reader.ReadU32("payload.type");
    switch (type)
    {
        case kTaggedDataPayloadType:
            DecodeTaggedDataBody(reader, std::get<TaggedDataPayload>(payload.emplace(
                                             std::in_place_type<TaggedDataPayload>)));
            return;
        case kTransactionPayloadType:
            payload.emplace(DecodeTransactionBody(reader));
            return;
        case kMilestonePayloadType:
            payload.emplace(DecodeMilestoneBody(reader));
            return;
        default:
            // Treasury transactions (4) only appear inside receipts, never directly in a block.
            reader.Fail("payload.type", start,
                        "unknown or disallowed payload type " + std::to_string(type));
    }
}

Payload DecodeBlockPayload(ByteReader &reader)
{
    std::optional<Payload> payload;
    DecodeBlockPayload(reader, payload);
    return std::move(*payload);
}

void EncodePayload(ByteWriter &writer, const Payload &payload)
{
    std::visit(
        [&writer](const auto &p)
        {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, TreasuryTransactionPayload>)
                EncodeTreasuryTransaction(writer, p);
            else if constexpr (std::is_same_v<T, TaggedDataPayload>)
                EncodeTaggedData(writer, p);
            else if constexpr (std::is_same_v<T, TransactionPayload>)
                EncodeTransaction(writer, p);
            else
                EncodeMilestone(writer, p);
        },
        payload);
}

} // namespace permanode::codec
