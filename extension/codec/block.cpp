#include "codec/block.hpp"
#include "codec/ids.hpp"
#include "codec/reader.hpp"
#include "codec/writer.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

// Where the payload lies inside the block bytes, so IDs can hash it in place.
struct PayloadRange
{
    std::size_t begin = 0;
    std::size_t end = 0;
};

// Decodes into `block` in place: the payload variant is moved once, from its decoder into the
// block (a tenth of decoding went to moving it through return values).
void DecodeBlockAt(ByteSpan bytes, PayloadRange &range, Block &block)
{
    ByteReader reader(bytes);
    if (bytes.size > limits::kMaxBlockLength)
        reader.Fail("block", 0,
                    "length " + std::to_string(bytes.size) + " exceeds " +
                        std::to_string(limits::kMaxBlockLength));
    block.protocol_version = reader.ReadU8("block.protocol_version");
    if (block.protocol_version != limits::kProtocolVersion)
        reader.Fail("block.protocol_version", 0,
                    "unsupported protocol version " + std::to_string(block.protocol_version));
    DecodeParents(reader, "block.parents", block.parents);

    bool has_payload = reader
                           .ReadLengthPrefixed("block.payload_length",
                                               [&]
                                               {
                                                   range.begin = reader.Offset();
                                                   DecodeBlockPayload(reader, block.payload);
                                                   return true;
                                               })
                           .has_value();
    if (!has_payload)
        range.begin = reader.Offset();
    range.end = reader.Offset();
    block.nonce = reader.ReadU64("block.nonce");
    if (reader.Remaining() != 0)
        reader.Fail("block", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the nonce");
}

} // namespace

Block DecodeBlock(ByteSpan bytes)
{
    PayloadRange range;
    Block block;
    DecodeBlockAt(bytes, range, block);
    return block;
}

Bytes EncodeBlock(const Block &block)
{
    Bytes bytes;
    bytes.reserve(256);
    ByteWriter writer(bytes);
    writer.WriteU8(block.protocol_version);
    writer.WriteCountU8("block.parents.count", block.parents.size());
    for (const auto &parent : block.parents)
        writer.WriteArray(parent);
    std::size_t length_at = writer.ReserveU32();
    if (block.payload)
        EncodePayload(writer, *block.payload);
    writer.PatchU32(length_at, static_cast<std::uint32_t>(writer.Size() - length_at - 4));
    writer.WriteU64(block.nonce);
    return bytes;
}

DecodedBlock DecodeBlockWithIds(ByteSpan bytes)
{
    DecodedBlock decoded;
    PayloadRange range;
    DecodeBlockAt(bytes, range, decoded.block);
    decoded.block_id = ComputeBlockId(bytes);
    if (TransactionOf(decoded.block))
    {
        decoded.transaction_id =
            Blake2b256(ByteSpan(bytes.data + range.begin, range.end - range.begin));
    }
    else if (const MilestonePayload *milestone = MilestoneOf(decoded.block))
    {
        // The essence sits between the u32 payload type and the signature list.
        std::size_t begin = range.begin + 4;
        std::size_t end = range.end - 1 - milestone->signatures.size() * kEd25519SignatureSize;
        decoded.milestone_id = Blake2b256(ByteSpan(bytes.data + begin, end - begin));
    }
    return decoded;
}

const TransactionPayload *TransactionOf(const Block &block)
{
    return block.payload ? std::get_if<TransactionPayload>(&*block.payload) : nullptr;
}

const MilestonePayload *MilestoneOf(const Block &block)
{
    return block.payload ? std::get_if<MilestonePayload>(&*block.payload) : nullptr;
}

const TaggedDataPayload *TaggedDataOf(const Block &block)
{
    return block.payload ? std::get_if<TaggedDataPayload>(&*block.payload) : nullptr;
}

} // namespace permanode::codec
