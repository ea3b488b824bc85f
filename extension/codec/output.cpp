#include "codec/output.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

constexpr TypeMask Bits(std::initializer_list<unsigned> types)
{
    TypeMask mask = 0;
    for (unsigned type : types)
        mask |= TypeMask{1} << type;
    return mask;
}

// Which unlock conditions and features each output kind may carry (TIP-18).
constexpr TypeMask kBasicConditions = Bits({0, 1, 2, 3});
constexpr TypeMask kBasicFeatures = Bits({0, 2, 3});
constexpr TypeMask kAliasConditions = Bits({4, 5});
constexpr TypeMask kAliasFeatures = Bits({0, 2});
constexpr TypeMask kAliasImmutableFeatures = Bits({1, 2});
constexpr TypeMask kFoundryConditions = Bits({6});
constexpr TypeMask kFoundryFeatures = Bits({2});
constexpr TypeMask kFoundryImmutableFeatures = Bits({2});
constexpr TypeMask kNftConditions = Bits({0, 1, 2, 3});
constexpr TypeMask kNftFeatures = Bits({0, 2, 3});
constexpr TypeMask kNftImmutableFeatures = Bits({1, 2});

constexpr std::uint8_t kSimpleTokenSchemeType = 0;

const std::vector<NativeToken> kNoNativeTokens;
const std::vector<UnlockCondition> kNoUnlockConditions;
const std::vector<Feature> kNoFeatures;

std::vector<NativeToken> DecodeNativeTokens(ByteReader &reader)
{
    std::size_t count =
        reader.ReadCountU8("native_tokens.count", 0, limits::kMaxNativeTokensPerOutput);
    std::vector<NativeToken> tokens(count);
    for (auto &token : tokens)
    {
        token.token_id = reader.ReadArray<38>("native_token.id");
        token.amount = reader.ReadArray<32>("native_token.amount");
    }
    return tokens;
}

void EncodeNativeTokens(ByteWriter &writer, const std::vector<NativeToken> &tokens)
{
    writer.WriteCountU8("native_tokens.count", tokens.size());
    for (const auto &token : tokens)
    {
        writer.WriteArray(token.token_id);
        writer.WriteArray(token.amount);
    }
}

SimpleTokenScheme DecodeTokenScheme(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("token_scheme.type");
    if (type != kSimpleTokenSchemeType)
        reader.Fail("token_scheme.type", start,
                    "unknown token scheme type " + std::to_string(type));
    SimpleTokenScheme scheme;
    scheme.minted_tokens = reader.ReadArray<32>("simple_token_scheme.minted_tokens");
    scheme.melted_tokens = reader.ReadArray<32>("simple_token_scheme.melted_tokens");
    scheme.maximum_supply = reader.ReadArray<32>("simple_token_scheme.maximum_supply");
    return scheme;
}

BasicOutput DecodeBasic(ByteReader &reader)
{
    BasicOutput output;
    output.amount = reader.ReadU64("basic_output.amount");
    output.native_tokens = DecodeNativeTokens(reader);
    output.unlock_conditions = DecodeUnlockConditions(reader, kBasicConditions);
    output.features = DecodeFeatures(reader, kBasicFeatures, "basic_output.features.count");
    return output;
}

AliasOutput DecodeAlias(ByteReader &reader)
{
    AliasOutput output;
    output.amount = reader.ReadU64("alias_output.amount");
    output.native_tokens = DecodeNativeTokens(reader);
    output.alias_id = reader.ReadArray<32>("alias_output.alias_id");
    output.state_index = reader.ReadU32("alias_output.state_index");
    reader.ReadPrefixedU16("alias_output.state_metadata", 0, limits::kMaxMetadataLength,
                           output.state_metadata);
    output.foundry_counter = reader.ReadU32("alias_output.foundry_counter");
    output.unlock_conditions = DecodeUnlockConditions(reader, kAliasConditions);
    output.features = DecodeFeatures(reader, kAliasFeatures, "alias_output.features.count");
    output.immutable_features =
        DecodeFeatures(reader, kAliasImmutableFeatures, "alias_output.immutable_features.count");
    return output;
}

FoundryOutput DecodeFoundry(ByteReader &reader)
{
    FoundryOutput output;
    output.amount = reader.ReadU64("foundry_output.amount");
    output.native_tokens = DecodeNativeTokens(reader);
    output.serial_number = reader.ReadU32("foundry_output.serial_number");
    output.token_scheme = DecodeTokenScheme(reader);
    output.unlock_conditions = DecodeUnlockConditions(reader, kFoundryConditions);
    output.features = DecodeFeatures(reader, kFoundryFeatures, "foundry_output.features.count");
    output.immutable_features = DecodeFeatures(reader, kFoundryImmutableFeatures,
                                               "foundry_output.immutable_features.count");
    return output;
}

NftOutput DecodeNft(ByteReader &reader)
{
    NftOutput output;
    output.amount = reader.ReadU64("nft_output.amount");
    output.native_tokens = DecodeNativeTokens(reader);
    output.nft_id = reader.ReadArray<32>("nft_output.nft_id");
    output.unlock_conditions = DecodeUnlockConditions(reader, kNftConditions);
    output.features = DecodeFeatures(reader, kNftFeatures, "nft_output.features.count");
    output.immutable_features =
        DecodeFeatures(reader, kNftImmutableFeatures, "nft_output.immutable_features.count");
    return output;
}

} // namespace

std::uint64_t AmountOf(const Output &output)
{
    return std::visit([](const auto &o) { return o.amount; }, output);
}

const std::vector<NativeToken> &NativeTokensOf(const Output &output)
{
    return std::visit(
        [](const auto &o) -> const std::vector<NativeToken> &
        {
            if constexpr (std::is_same_v<std::decay_t<decltype(o)>, TreasuryOutput>)
                return kNoNativeTokens;
            else
                return o.native_tokens;
        },
        output);
}

const std::vector<UnlockCondition> &UnlockConditionsOf(const Output &output)
{
    return std::visit(
        [](const auto &o) -> const std::vector<UnlockCondition> &
        {
            if constexpr (std::is_same_v<std::decay_t<decltype(o)>, TreasuryOutput>)
                return kNoUnlockConditions;
            else
                return o.unlock_conditions;
        },
        output);
}

const std::vector<Feature> &FeaturesOf(const Output &output)
{
    return std::visit(
        [](const auto &o) -> const std::vector<Feature> &
        {
            if constexpr (std::is_same_v<std::decay_t<decltype(o)>, TreasuryOutput>)
                return kNoFeatures;
            else
                return o.features;
        },
        output);
}

const std::vector<Feature> &ImmutableFeaturesOf(const Output &output)
{
    return std::visit(
        [](const auto &o) -> const std::vector<Feature> &
        {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, TreasuryOutput> || std::is_same_v<T, BasicOutput>)
                return kNoFeatures;
            else
                return o.immutable_features;
        },
        output);
}

Output DecodeOutput(ByteReader &reader, TypeMask allowed_types)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("output.type");
    if (type >= 32 || (allowed_types & (TypeMask{1} << type)) == 0)
        reader.Fail("output.type", start,
                    "unknown or disallowed output type " + std::to_string(type));
    switch (static_cast<OutputType>(type))
    {
        case OutputType::kTreasury:
            return TreasuryOutput{reader.ReadU64("treasury_output.amount")};
        case OutputType::kBasic:
            return DecodeBasic(reader);
        case OutputType::kAlias:
            return DecodeAlias(reader);
        case OutputType::kFoundry:
            return DecodeFoundry(reader);
        case OutputType::kNft:
            return DecodeNft(reader);
    }
    reader.Fail("output.type", start, "unhandled type");
}

void EncodeOutput(ByteWriter &writer, const Output &output)
{
    writer.WriteU8(static_cast<std::uint8_t>(TypeOf(output)));
    std::visit(
        [&writer](const auto &o)
        {
            using T = std::decay_t<decltype(o)>;
            writer.WriteU64(o.amount);
            if constexpr (std::is_same_v<T, BasicOutput>)
            {
                EncodeNativeTokens(writer, o.native_tokens);
                EncodeUnlockConditions(writer, o.unlock_conditions);
                EncodeFeatures(writer, o.features);
            }
            else if constexpr (std::is_same_v<T, AliasOutput>)
            {
                EncodeNativeTokens(writer, o.native_tokens);
                writer.WriteArray(o.alias_id);
                writer.WriteU32(o.state_index);
                writer.WritePrefixedU16("alias_output.state_metadata", o.state_metadata);
                writer.WriteU32(o.foundry_counter);
                EncodeUnlockConditions(writer, o.unlock_conditions);
                EncodeFeatures(writer, o.features);
                EncodeFeatures(writer, o.immutable_features);
            }
            else if constexpr (std::is_same_v<T, FoundryOutput>)
            {
                EncodeNativeTokens(writer, o.native_tokens);
                writer.WriteU32(o.serial_number);
                writer.WriteU8(kSimpleTokenSchemeType);
                writer.WriteArray(o.token_scheme.minted_tokens);
                writer.WriteArray(o.token_scheme.melted_tokens);
                writer.WriteArray(o.token_scheme.maximum_supply);
                EncodeUnlockConditions(writer, o.unlock_conditions);
                EncodeFeatures(writer, o.features);
                EncodeFeatures(writer, o.immutable_features);
            }
            else if constexpr (std::is_same_v<T, NftOutput>)
            {
                EncodeNativeTokens(writer, o.native_tokens);
                writer.WriteArray(o.nft_id);
                EncodeUnlockConditions(writer, o.unlock_conditions);
                EncodeFeatures(writer, o.features);
                EncodeFeatures(writer, o.immutable_features);
            }
        },
        output);
}

Bytes EncodeOutput(const Output &output)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    EncodeOutput(writer, output);
    return bytes;
}

} // namespace permanode::codec
