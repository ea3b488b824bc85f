#include "codec/feature.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

Feature DecodeFeature(ByteReader &reader, std::uint8_t type)
{
    switch (static_cast<FeatureType>(type))
    {
        case FeatureType::kSender:
            return SenderFeature{DecodeAddress(reader, "sender_feature.address")};
        case FeatureType::kIssuer:
            return IssuerFeature{DecodeAddress(reader, "issuer_feature.address")};
        case FeatureType::kMetadata:
        {
            MetadataFeature feature;
            reader.ReadPrefixedU16("metadata_feature.data", 1, limits::kMaxMetadataLength,
                                   feature.data);
            return feature;
        }
        case FeatureType::kTag:
        {
            TagFeature feature;
            reader.ReadPrefixedU8("tag_feature.tag", 1, limits::kMaxTagLength, feature.tag);
            return feature;
        }
    }
    reader.Fail("feature.type", reader.Offset() - 1, "unhandled type");
}

} // namespace

std::vector<Feature> DecodeFeatures(ByteReader &reader, TypeMask allowed, const char *field)
{
    std::size_t count = reader.ReadCountU8(field, 0, 4);
    std::vector<Feature> features;
    if (count == 0)
        return features;
    features.reserve(count);
    int previous_type = -1;
    for (std::size_t i = 0; i < count; ++i)
    {
        std::size_t start = reader.Offset();
        std::uint8_t type = reader.ReadU8("feature.type");
        if (type >= 32 || (allowed & (TypeMask{1} << type)) == 0)
            reader.Fail("feature.type", start,
                        "unknown or disallowed feature type " + std::to_string(type));
        if (type <= previous_type)
            reader.Fail("feature.type", start, "features must be unique and sorted by type");
        previous_type = type;
        features.push_back(DecodeFeature(reader, type));
    }
    return features;
}

void EncodeFeatures(ByteWriter &writer, const std::vector<Feature> &features)
{
    writer.WriteCountU8("features.count", features.size());
    for (const auto &feature : features)
    {
        writer.WriteU8(TypeOf(feature));
        std::visit(
            [&writer](const auto &f)
            {
                using T = std::decay_t<decltype(f)>;
                if constexpr (std::is_same_v<T, MetadataFeature>)
                    writer.WritePrefixedU16("metadata_feature.data", f.data);
                else if constexpr (std::is_same_v<T, TagFeature>)
                    writer.WritePrefixedU8("tag_feature.tag", f.tag);
                else
                    EncodeAddress(writer, f.address);
            },
            feature);
    }
}

} // namespace permanode::codec
