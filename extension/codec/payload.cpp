#include "codec/payload.hpp"

#include <string>

namespace permanode::codec
{

Payload DecodeBlockPayload(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint32_t type = reader.ReadU32("payload.type");
    switch (type)
    {
        case kTaggedDataPayloadType:
            return DecodeTaggedDataBody(reader);
        case kTransactionPayloadType:
            return DecodeTransactionBody(reader);
        case kMilestonePayloadType:
            return DecodeMilestoneBody(reader);
        default:
            // Treasury transactions (4) only appear inside receipts, never directly in a block.
            reader.Fail("payload.type", start,
                        "unknown or disallowed payload type " + std::to_string(type));
    }
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
