// The TIP-6 message frame and the payload dispatch on its u32 type.
#include "codec/chrysalis/message.hpp"
#include "codec/chrysalis/wire.hpp"

#include <string>

namespace permanode::codec::chrysalis
{

void DecodeParents(ByteReader &reader, const char *field, Parents &parents)
{
    reader.ReadAscendingIds(field, limits::kMinParents, limits::kMaxParents, parents);
}

void EncodeParents(ByteWriter &writer, const char *field, const Parents &parents)
{
    writer.WriteCountU8(field, parents.size());
    for (const Hash32 &parent : parents)
        writer.WriteArray(parent);
}

namespace
{

// The body of a payload whose u32 type (read at `start`) is `type`.
Payload DecodePayloadBody(ByteReader &reader, std::uint32_t type, std::size_t start)
{
    switch (type)
    {
        case payload_type::kTransaction:
            return DecodeTransactionBody(reader);
        case payload_type::kMilestone:
            return DecodeMilestoneBody(reader);
        case payload_type::kIndexation:
            return DecodeIndexationBody(reader);
        case payload_type::kReceipt:
            return DecodeReceiptBody(reader);
        case payload_type::kTreasuryTransaction:
            return DecodeTreasuryTransactionBody(reader);
        default:
            reader.Fail("payload.type", start, "unknown payload type " + std::to_string(type));
    }
}

// TIP-6 lists what a message carries: a transaction, a milestone or an indexation. Receipts
// and treasury transactions exist only inside a milestone (TIP-17).
Payload DecodeMessagePayload(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint32_t type = reader.ReadU32("payload.type");
    if (type == payload_type::kReceipt)
        reader.Fail("payload.type", start,
                    "a receipt (3) comes only inside a milestone, not alone in a message");
    if (type == payload_type::kTreasuryTransaction)
        reader.Fail("payload.type", start,
                    "a treasury transaction (4) comes only inside a milestone's receipt, not "
                    "alone in a message");
    return DecodePayloadBody(reader, type, start);
}

} // namespace

Payload DecodePayload(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint32_t type = reader.ReadU32("payload.type");
    return DecodePayloadBody(reader, type, start);
}

void EncodePayload(ByteWriter &writer, const Payload &payload)
{
    // The variant index is the wire type.
    writer.WriteU32(static_cast<std::uint32_t>(payload.index()));
    if (const auto *transaction = std::get_if<TransactionPayload>(&payload))
        EncodeTransactionBody(writer, *transaction);
    else if (const auto *milestone = std::get_if<MilestonePayload>(&payload))
        EncodeMilestoneBody(writer, *milestone);
    else if (const auto *indexation = std::get_if<IndexationPayload>(&payload))
        EncodeIndexationBody(writer, *indexation);
    else if (const auto *receipt = std::get_if<ReceiptPayload>(&payload))
        EncodeReceiptBody(writer, *receipt);
    else
        EncodeTreasuryTransactionBody(writer, std::get<TreasuryTransactionPayload>(payload));
}

Message DecodeMessage(ByteSpan bytes)
{
    ByteReader reader(bytes);
    if (bytes.size > limits::kMaxMessageLength)
        reader.Fail("message", 0,
                    "length " + std::to_string(bytes.size) + " exceeds " +
                        std::to_string(limits::kMaxMessageLength));
    Message message;
    message.network_id = reader.ReadU64("message.network_id");
    DecodeParents(reader, "message.parents", message.parents);
    std::size_t length_at = reader.Offset();
    message.payload = reader.ReadLengthPrefixed("message.payload_length",
                                                [&] { return DecodeMessagePayload(reader); });
    // TIP-8: a milestone names the message's own parents (after length, type, index, timestamp).
    if (message.payload)
        if (const auto *milestone = std::get_if<MilestonePayload>(&*message.payload);
            milestone && milestone->essence.parents != message.parents)
            reader.Fail("milestone.parents", length_at + 4 + 4 + 4 + 8,
                        "differ from the parents of the message that carries the milestone");
    message.nonce = reader.ReadU64("message.nonce");
    if (reader.Remaining() != 0)
        reader.Fail("message", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the nonce");
    return message;
}

Payload DecodePayloadBytes(ByteSpan bytes)
{
    ByteReader reader(bytes);
    Payload payload = DecodePayload(reader);
    if (reader.Remaining() != 0)
        reader.Fail("payload", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the payload");
    return payload;
}

Bytes EncodeMessage(const Message &message)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    writer.WriteU64(message.network_id);
    EncodeParents(writer, "message.parents.count", message.parents);
    std::size_t length_at = writer.ReserveU32();
    if (message.payload)
        EncodePayload(writer, *message.payload);
    writer.PatchU32(length_at, static_cast<std::uint32_t>(writer.Size() - length_at - 4));
    writer.WriteU64(message.nonce);
    return bytes;
}

} // namespace permanode::codec::chrysalis
