// Tagged data payload (TIP-23): an optional tag plus arbitrary data.
#pragma once

#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <cstdint>

namespace permanode::codec
{

constexpr std::uint32_t kTaggedDataPayloadType = 5;

struct TaggedDataPayload
{
    Tag tag;    // 0..64 bytes
    Bytes data; // bounded by the block length
    bool operator==(const TaggedDataPayload &o) const { return tag == o.tag && data == o.data; }
};

// Reads the body that follows the u32 payload type (into `payload`, in place).
TaggedDataPayload DecodeTaggedDataBody(ByteReader &reader);
void DecodeTaggedDataBody(ByteReader &reader, TaggedDataPayload &payload);
// Writes the payload including its u32 type.
void EncodeTaggedData(ByteWriter &writer, const TaggedDataPayload &payload);

} // namespace permanode::codec
