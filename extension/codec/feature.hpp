// Output features (TIP-18). The variant index equals the wire type byte.
#pragma once

#include "codec/address.hpp"
#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/unlock_condition.hpp"
#include "codec/writer.hpp"

#include <cstdint>
#include <variant>
#include <vector>

namespace permanode::codec
{

struct SenderFeature
{
    Address address;
    bool operator==(const SenderFeature &o) const { return address == o.address; }
};

struct IssuerFeature
{
    Address address;
    bool operator==(const IssuerFeature &o) const { return address == o.address; }
};

struct MetadataFeature
{
    Bytes data; // 1..8192 bytes
    bool operator==(const MetadataFeature &o) const { return data == o.data; }
};

struct TagFeature
{
    Bytes tag; // 1..64 bytes
    bool operator==(const TagFeature &o) const { return tag == o.tag; }
};

using Feature = std::variant<SenderFeature, IssuerFeature, MetadataFeature, TagFeature>;

enum class FeatureType : std::uint8_t
{
    kSender = 0,
    kIssuer = 1,
    kMetadata = 2,
    kTag = 3,
};

inline std::uint8_t TypeOf(const Feature &feature)
{
    return static_cast<std::uint8_t>(feature.index());
}

// Reads a u8 count and that many features, each of a type in `allowed`, strictly ascending.
std::vector<Feature> DecodeFeatures(ByteReader &reader, TypeMask allowed, const char *field);
void EncodeFeatures(ByteWriter &writer, const std::vector<Feature> &features);

} // namespace permanode::codec
