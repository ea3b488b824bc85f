// IDs and signing hashes: BLAKE2b-256 over re-encoded parts, with the Stardust hash helper.
#include "codec/chrysalis/message.hpp"
#include "codec/chrysalis/wire.hpp"
#include "codec/ids.hpp"

#include <algorithm>

namespace permanode::codec::chrysalis
{

MessageId ComputeMessageId(ByteSpan message_bytes)
{
    return Blake2b256(message_bytes);
}

TransactionId ComputeTransactionId(const TransactionPayload &payload)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    writer.WriteU32(payload_type::kTransaction);
    EncodeTransactionBody(writer, payload);
    return Blake2b256(bytes);
}

MilestoneId ComputeMilestoneId(const MilestoneEssence &essence)
{
    return MilestoneSigningHash(essence);
}

OutputIdBytes ComputeOutputId(const TransactionId &transaction_id, std::uint16_t index)
{
    return ToBytes(OutputId{transaction_id, index});
}

Hash32 TransactionSigningHash(const TransactionEssence &essence)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    EncodeTransactionEssence(writer, essence);
    return Blake2b256(bytes);
}

// TIP-8 signs the essence hash, which is also the milestone ID.
Hash32 MilestoneSigningHash(const MilestoneEssence &essence)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    EncodeMilestoneEssence(writer, essence);
    return Blake2b256(bytes);
}

} // namespace permanode::codec::chrysalis
