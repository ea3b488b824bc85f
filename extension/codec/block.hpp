// Stardust block (TIP-24): the unit the tangle stores; the entry point for decoding bytes.
#pragma once

#include "codec/payload.hpp"
#include "codec/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace permanode::codec
{

struct Block
{
    std::uint8_t protocol_version = limits::kProtocolVersion;
    Parents parents; // 1..8, sorted and unique
    std::optional<Payload> payload;
    std::uint64_t nonce = 0;
    bool operator==(const Block &o) const
    {
        return protocol_version == o.protocol_version && parents == o.parents &&
               payload == o.payload && nonce == o.nonce;
    }
};

// Parses and syntactically checks a whole block; rejects trailing bytes. Throws DecodeError.
Block DecodeBlock(ByteSpan bytes);
Bytes EncodeBlock(const Block &block);

// A block together with the IDs that ingest needs, computed from the input bytes without
// re-encoding.
struct DecodedBlock
{
    Block block;
    BlockId block_id{};
    std::optional<TransactionId> transaction_id; // set for transaction payloads
    std::optional<MilestoneId> milestone_id;     // set for milestone payloads
};

DecodedBlock DecodeBlockWithIds(ByteSpan bytes);

// Convenience accessors for the payload kind.
const TransactionPayload *TransactionOf(const Block &block);
const MilestonePayload *MilestoneOf(const Block &block);
const TaggedDataPayload *TaggedDataOf(const Block &block);

} // namespace permanode::codec
