// Outputs (TIP-18): treasury, basic, alias, foundry and NFT, with native tokens and token schemes.
#pragma once

#include "codec/feature.hpp"
#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/unlock_condition.hpp"
#include "codec/writer.hpp"

#include <cstdint>
#include <variant>
#include <vector>

namespace permanode::codec
{

struct NativeToken
{
    TokenId token_id{};
    U256 amount{};
    bool operator==(const NativeToken &o) const
    {
        return token_id == o.token_id && amount == o.amount;
    }
};

// The only token scheme in Stardust (type 0).
struct SimpleTokenScheme
{
    U256 minted_tokens{};
    U256 melted_tokens{};
    U256 maximum_supply{};
    bool operator==(const SimpleTokenScheme &o) const
    {
        return minted_tokens == o.minted_tokens && melted_tokens == o.melted_tokens &&
               maximum_supply == o.maximum_supply;
    }
};

struct TreasuryOutput
{
    std::uint64_t amount = 0;
    bool operator==(const TreasuryOutput &o) const { return amount == o.amount; }
};

struct BasicOutput
{
    std::uint64_t amount = 0;
    std::vector<NativeToken> native_tokens;
    std::vector<UnlockCondition> unlock_conditions;
    std::vector<Feature> features;
    bool operator==(const BasicOutput &o) const
    {
        return amount == o.amount && native_tokens == o.native_tokens &&
               unlock_conditions == o.unlock_conditions && features == o.features;
    }
};

struct AliasOutput
{
    std::uint64_t amount = 0;
    std::vector<NativeToken> native_tokens;
    AliasId alias_id{}; // all zero when the output creates the alias
    std::uint32_t state_index = 0;
    Bytes state_metadata;
    std::uint32_t foundry_counter = 0;
    std::vector<UnlockCondition> unlock_conditions;
    std::vector<Feature> features;
    std::vector<Feature> immutable_features;
    bool operator==(const AliasOutput &o) const
    {
        return amount == o.amount && native_tokens == o.native_tokens && alias_id == o.alias_id &&
               state_index == o.state_index && state_metadata == o.state_metadata &&
               foundry_counter == o.foundry_counter && unlock_conditions == o.unlock_conditions &&
               features == o.features && immutable_features == o.immutable_features;
    }
};

struct FoundryOutput
{
    std::uint64_t amount = 0;
    std::vector<NativeToken> native_tokens;
    std::uint32_t serial_number = 0;
    SimpleTokenScheme token_scheme;
    std::vector<UnlockCondition> unlock_conditions;
    std::vector<Feature> features;
    std::vector<Feature> immutable_features;
    bool operator==(const FoundryOutput &o) const
    {
        return amount == o.amount && native_tokens == o.native_tokens &&
               serial_number == o.serial_number && token_scheme == o.token_scheme &&
               unlock_conditions == o.unlock_conditions && features == o.features &&
               immutable_features == o.immutable_features;
    }
};

struct NftOutput
{
    std::uint64_t amount = 0;
    std::vector<NativeToken> native_tokens;
    NftId nft_id{}; // all zero when the output mints the NFT
    std::vector<UnlockCondition> unlock_conditions;
    std::vector<Feature> features;
    std::vector<Feature> immutable_features;
    bool operator==(const NftOutput &o) const
    {
        return amount == o.amount && native_tokens == o.native_tokens && nft_id == o.nft_id &&
               unlock_conditions == o.unlock_conditions && features == o.features &&
               immutable_features == o.immutable_features;
    }
};

// Variant index + 2 equals the wire type byte.
using Output = std::variant<TreasuryOutput, BasicOutput, AliasOutput, FoundryOutput, NftOutput>;

enum class OutputType : std::uint8_t
{
    kTreasury = 2,
    kBasic = 3,
    kAlias = 4,
    kFoundry = 5,
    kNft = 6,
};

inline OutputType TypeOf(const Output &output)
{
    return static_cast<OutputType>(output.index() + 2);
}

std::uint64_t AmountOf(const Output &output);

// Native tokens and unlock conditions of an output (empty for a treasury output).
const std::vector<NativeToken> &NativeTokensOf(const Output &output);
const std::vector<UnlockCondition> &UnlockConditionsOf(const Output &output);
const std::vector<Feature> &FeaturesOf(const Output &output);
const std::vector<Feature> &ImmutableFeaturesOf(const Output &output);

// Output types a transaction essence may create; a treasury transaction has the treasury type.
constexpr TypeMask kTransactionOutputTypes = (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6);
constexpr TypeMask kTreasuryOutputType = 1u << 2;

Output DecodeOutput(ByteReader &reader, TypeMask allowed_types);
void EncodeOutput(ByteWriter &writer, const Output &output);

Bytes EncodeOutput(const Output &output);

} // namespace permanode::codec
