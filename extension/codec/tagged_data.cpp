#include "codec/tagged_data.hpp"

namespace permanode::codec
{

void DecodeTaggedDataBody(ByteReader &reader, TaggedDataPayload &payload)
{
    reader.ReadPrefixedU8("tagged_data.tag", 0, limits::kMaxTagLength, payload.tag);
    reader.ReadPrefixedU32("tagged_data.data", 0, limits::kMaxBlockLength, payload.data);
}

TaggedDataPayload DecodeTaggedDataBody(ByteReader &reader)
{
    TaggedDataPayload payload;
    DecodeTaggedDataBody(reader, payload);
    return payload;
}

void EncodeTaggedData(ByteWriter &writer, const TaggedDataPayload &payload)
{
    writer.WriteU32(kTaggedDataPayloadType);
    writer.WritePrefixedU8("tagged_data.tag", payload.tag);
    writer.WritePrefixedU32("tagged_data.data", payload.data);
}

} // namespace permanode::codec
