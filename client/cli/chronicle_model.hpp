// inx-chronicle's data model (its test data: bytes as {"$binary": ...}, outputs decoded into
// JSON) mapped onto the codec's types, for `permanode import-chronicle` and the codec tests that
// compare whole outputs with the fixtures.
#pragma once

#include "codec/json_fields.hpp"
#include "codec/milestone.hpp"
#include "codec/output.hpp"
#include "codec/protocol_parameters.hpp"

#include <nlohmann/json.hpp>
#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace permanode::chronicle
{

using namespace permanode::codec;

// Decodes {"$binary": {"base64": "..."}}, as inx-chronicle's test data writes bytes.
inline codec::Bytes Binary(const nlohmann::json &value)
{
    const std::string &text = value.at("$binary").at("base64").get_ref<const std::string &>();
    if (text.empty())
        return {}; // sodium_base642bin takes no null buffer, which an empty vector's data() is
    codec::Bytes bytes(text.size());
    std::size_t length = 0;
    if (sodium_base642bin(bytes.data(), bytes.size(), text.data(), text.size(), nullptr, &length,
                          nullptr, sodium_base64_VARIANT_ORIGINAL) != 0)
        throw std::runtime_error("bad base64 in chronicle data");
    bytes.resize(length);
    return bytes;
}

inline codec::Hash32 Binary32(const nlohmann::json &value)
{
    codec::Bytes bytes = Binary(value);
    if (bytes.size() != 32)
        throw std::runtime_error("chronicle value is not 32 bytes");
    codec::Hash32 out;
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return out;
}

inline Address ChronicleAddress(const nlohmann::json &value)
{
    Address address;
    if (value.contains("ed25519"))
        address = {AddressType::kEd25519, Binary32(value.at("ed25519"))};
    else if (value.contains("alias"))
        address = {AddressType::kAlias, Binary32(value.at("alias"))};
    else if (value.contains("nft"))
        address = {AddressType::kNft, Binary32(value.at("nft"))};
    else
        throw std::runtime_error("unknown chronicle address " + value.dump());
    return address;
}

inline std::vector<NativeToken> ChronicleNativeTokens(const nlohmann::json &list)
{
    std::vector<NativeToken> tokens;
    for (const auto &entry : list)
    {
        NativeToken token;
        Bytes id = Binary(entry.at("token_id"));
        Bytes amount = Binary(entry.at("amount"));
        if (id.size() != 38 || amount.size() != 32)
            throw std::runtime_error("bad chronicle native token");
        std::copy(id.begin(), id.end(), token.token_id.begin());
        // Chronicle stores the amount big endian; the wire (and our U256) is little endian.
        std::reverse_copy(amount.begin(), amount.end(), token.amount.begin());
        tokens.push_back(token);
    }
    return tokens;
}

inline std::vector<Feature> ChronicleFeatures(const nlohmann::json &list)
{
    std::vector<Feature> features;
    for (const auto &entry : list)
    {
        const std::string &kind = entry.at("kind").get_ref<const std::string &>();
        if (kind == "sender")
            features.emplace_back(SenderFeature{ChronicleAddress(entry.at("address"))});
        else if (kind == "issuer")
            features.emplace_back(IssuerFeature{ChronicleAddress(entry.at("address"))});
        else if (kind == "metadata")
            features.emplace_back(MetadataFeature{Binary(entry.at("data"))});
        else if (kind == "tag")
            features.emplace_back(TagFeature{Binary(entry.at("data"))});
        else
            throw std::runtime_error("unknown chronicle feature " + kind);
    }
    return features;
}

// Unlock conditions are separate named fields in chronicle's model; ours is the sorted list.
inline std::vector<UnlockCondition> ChronicleUnlockConditions(const nlohmann::json &output)
{
    std::vector<UnlockCondition> conditions;
    if (output.contains("address_unlock_condition"))
        conditions.emplace_back(AddressUnlockCondition{
            ChronicleAddress(output.at("address_unlock_condition").at("address"))});
    if (output.contains("storage_deposit_return_unlock_condition"))
    {
        const auto &c = output.at("storage_deposit_return_unlock_condition");
        conditions.emplace_back(StorageDepositReturnUnlockCondition{
            ChronicleAddress(c.at("return_address")),
            JsonDecimalField(c, "storage_deposit_return_unlock_condition", "amount")});
    }
    if (output.contains("timelock_unlock_condition"))
        conditions.emplace_back(TimelockUnlockCondition{JsonUnsignedField<std::uint32_t>(
            output.at("timelock_unlock_condition"), "timelock_unlock_condition", "timestamp")});
    if (output.contains("expiration_unlock_condition"))
    {
        const auto &c = output.at("expiration_unlock_condition");
        conditions.emplace_back(ExpirationUnlockCondition{
            ChronicleAddress(c.at("return_address")),
            JsonUnsignedField<std::uint32_t>(c, "expiration_unlock_condition", "timestamp")});
    }
    if (output.contains("state_controller_address_unlock_condition"))
        conditions.emplace_back(StateControllerAddressUnlockCondition{ChronicleAddress(
            output.at("state_controller_address_unlock_condition").at("address"))});
    if (output.contains("governor_address_unlock_condition"))
        conditions.emplace_back(GovernorAddressUnlockCondition{
            ChronicleAddress(output.at("governor_address_unlock_condition").at("address"))});
    if (output.contains("immutable_alias_address_unlock_condition"))
        conditions.emplace_back(ImmutableAliasAddressUnlockCondition{
            ChronicleAddress(output.at("immutable_alias_address_unlock_condition").at("address"))});
    return conditions;
}

// The fields every output kind has.
template <typename T> T ChronicleCommonFields(const nlohmann::json &output)
{
    T out;
    out.amount = JsonDecimalField(output, "output", "amount");
    out.native_tokens = ChronicleNativeTokens(output.at("native_tokens"));
    out.unlock_conditions = ChronicleUnlockConditions(output);
    out.features = ChronicleFeatures(output.at("features"));
    return out;
}

inline Output ChronicleOutput(const nlohmann::json &output)
{
    const std::string &kind = output.at("kind").get_ref<const std::string &>();
    if (kind == "basic")
        return ChronicleCommonFields<BasicOutput>(output);
    if (kind == "alias")
    {
        auto out = ChronicleCommonFields<AliasOutput>(output);
        out.alias_id = Binary32(output.at("alias_id"));
        out.state_index = JsonUnsignedField<std::uint32_t>(output, "output", "state_index");
        out.state_metadata = Binary(output.at("state_metadata"));
        out.foundry_counter = JsonUnsignedField<std::uint32_t>(output, "output", "foundry_counter");
        out.immutable_features = ChronicleFeatures(output.at("immutable_features"));
        return out;
    }
    if (kind == "nft")
    {
        auto out = ChronicleCommonFields<NftOutput>(output);
        out.nft_id = Binary32(output.at("nft_id"));
        out.immutable_features = ChronicleFeatures(output.at("immutable_features"));
        return out;
    }
    throw std::runtime_error("chronicle output kind not handled: " + kind);
}

inline OutputId ChronicleOutputId(const nlohmann::json &value)
{
    return OutputId{Binary32(value.at("transaction_id")),
                    JsonUnsignedField<std::uint16_t>(value, "output_id", "index")};
}

// Fixed-size bytes: public keys and signatures.
template <std::size_t N> std::array<std::uint8_t, N> BinaryArray(const nlohmann::json &value)
{
    codec::Bytes bytes = Binary(value);
    if (bytes.size() != N)
        throw std::runtime_error("chronicle value is not " + std::to_string(N) + " bytes");
    std::array<std::uint8_t, N> out;
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return out;
}

// milestone_data.protocol_params.
inline ProtocolParameters ChronicleProtocolParameters(const nlohmann::json &params)
{
    ProtocolParameters out;
    out.version = JsonUnsignedField<std::uint8_t>(params, "parameters", "version");
    out.network_name = params.at("network_name").get<std::string>();
    out.bech32_hrp = params.at("bech32_hrp").get<std::string>();
    out.min_pow_score = JsonUnsignedField<std::uint32_t>(params, "parameters", "min_pow_score");
    out.below_max_depth = JsonUnsignedField<std::uint8_t>(params, "parameters", "below_max_depth");
    const auto &rent = params.at("rent_structure");
    out.rent_structure = {
        JsonUnsignedField<std::uint32_t>(rent, "parameters.rent_structure", "v_byte_cost"),
        JsonUnsignedField<std::uint8_t>(rent, "parameters.rent_structure", "v_byte_factor_data"),
        JsonUnsignedField<std::uint8_t>(rent, "parameters.rent_structure", "v_byte_factor_key")};
    out.token_supply = JsonDecimalField(params, "parameters", "token_supply");
    return out;
}

// milestone_data.payload. Milestone options (receipts, protocol parameters) are not mapped:
// the test data has none.
inline MilestonePayload ChronicleMilestonePayload(const nlohmann::json &payload)
{
    MilestonePayload out;
    const auto &essence = payload.at("essence");
    if (!essence.at("options").empty())
        throw std::runtime_error("chronicle milestone options are not handled");
    out.essence.index = JsonUnsignedField<std::uint32_t>(essence, "milestone.essence", "index");
    out.essence.timestamp =
        JsonUnsignedField<std::uint32_t>(essence, "milestone.essence", "timestamp");
    out.essence.protocol_version =
        JsonUnsignedField<std::uint8_t>(essence, "milestone.essence", "protocol_version");
    out.essence.previous_milestone_id = Binary32(essence.at("previous_milestone_id"));
    for (const auto &parent : essence.at("parents"))
        out.essence.parents.push_back(Binary32(parent));
    out.essence.inclusion_merkle_root = Binary32(essence.at("inclusion_merkle_root"));
    out.essence.applied_merkle_root = Binary32(essence.at("applied_merkle_root"));
    out.essence.metadata = Binary(essence.at("metadata"));
    for (const auto &signature : payload.at("signatures"))
    {
        if (signature.at("kind") != "ed25519")
            throw std::runtime_error("unknown chronicle signature " + signature.dump());
        out.signatures.push_back(Ed25519Signature{BinaryArray<32>(signature.at("public_key")),
                                                  BinaryArray<64>(signature.at("signature"))});
    }
    return out;
}

} // namespace permanode::chronicle
