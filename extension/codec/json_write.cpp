#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/json.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

using nlohmann::json;

std::string Hex(const Bytes &bytes)
{
    return ToHex(ByteSpan(bytes));
}

json HexList(const std::vector<Hash32> &ids)
{
    json list = json::array();
    for (const auto &id : ids)
        list.push_back(ToHex(id));
    return list;
}

template <typename T> json JsonList(const std::vector<T> &items)
{
    json list = json::array();
    for (const auto &item : items)
        list.push_back(ToJson(item));
    return list;
}

json NativeTokensJson(const std::vector<NativeToken> &tokens)
{
    json list = json::array();
    for (const auto &token : tokens)
        list.push_back({{"id", ToHex(token.token_id)}, {"amount", U256ToHex(token.amount)}});
    return list;
}

// The fields every non-treasury output shares, emitted in TIP-25 order.
template <typename T> void CommonOutputFields(json &out, const T &output)
{
    if (!output.native_tokens.empty())
        out["nativeTokens"] = NativeTokensJson(output.native_tokens);
    out["unlockConditions"] = JsonList(output.unlock_conditions);
    if (!output.features.empty())
        out["features"] = JsonList(output.features);
}

json SignatureJson(const Ed25519Signature &signature)
{
    return {{"type", 0},
            {"publicKey", ToHex(signature.public_key)},
            {"signature", ToHex(signature.signature)}};
}

json UnlockJson(const Unlock &unlock)
{
    if (const auto *signature = std::get_if<SignatureUnlock>(&unlock))
        return {{"type", 0}, {"signature", SignatureJson(signature->signature)}};
    std::uint16_t reference = std::visit(
        [](const auto &u) -> std::uint16_t
        {
            if constexpr (std::is_same_v<std::decay_t<decltype(u)>, SignatureUnlock>)
                return 0;
            else
                return u.reference;
        },
        unlock);
    return {{"type", TypeOf(unlock)}, {"reference", reference}};
}

json TaggedDataJson(const TaggedDataPayload &payload)
{
    json out = {{"type", kTaggedDataPayloadType}};
    if (!payload.tag.empty())
        out["tag"] = Hex(payload.tag);
    if (!payload.data.empty())
        out["data"] = Hex(payload.data);
    return out;
}

json TreasuryTransactionJson(const TreasuryTransactionPayload &payload)
{
    return {{"type", kTreasuryTransactionPayloadType},
            {"input", {{"type", 1}, {"milestoneId", ToHex(payload.input_milestone_id)}}},
            {"output", ToJson(Output{payload.output})}};
}

json TransactionJson(const TransactionPayload &payload)
{
    const TransactionEssence &essence = payload.essence;
    json inputs = json::array();
    for (const auto &input : essence.inputs)
        inputs.push_back({{"type", 0},
                          {"transactionId", ToHex(input.transaction_id)},
                          {"transactionOutputIndex", input.index}});
    json essence_json = {{"type", 1},
                         {"networkId", std::to_string(essence.network_id)},
                         {"inputs", inputs},
                         {"inputsCommitment", ToHex(essence.inputs_commitment)},
                         {"outputs", JsonList(essence.outputs)}};
    if (essence.payload)
        essence_json["payload"] = TaggedDataJson(*essence.payload);
    json unlocks = json::array();
    for (const auto &unlock : payload.unlocks)
        unlocks.push_back(UnlockJson(unlock));
    return {{"type", kTransactionPayloadType}, {"essence", essence_json}, {"unlocks", unlocks}};
}

json MilestoneOptionJson(const MilestoneOption &option)
{
    if (const auto *receipt = std::get_if<ReceiptMilestoneOption>(&option))
    {
        json funds = json::array();
        for (const auto &entry : receipt->funds)
            funds.push_back({{"tailTransactionHash", ToHex(entry.tail_transaction_hash)},
                             {"address", ToJson(entry.address)},
                             {"deposit", std::to_string(entry.deposit)}});
        return {{"type", 0},
                {"migratedAt", receipt->migrated_at},
                {"final", receipt->final},
                {"funds", funds},
                {"transaction", TreasuryTransactionJson(receipt->transaction)}};
    }
    const auto &params = std::get<ProtocolParamsMilestoneOption>(option);
    return {{"type", 1},
            {"targetMilestoneIndex", params.target_milestone_index},
            {"protocolVersion", params.protocol_version},
            {"params", Hex(params.params)}};
}

json MilestoneJson(const MilestonePayload &payload)
{
    const MilestoneEssence &essence = payload.essence;
    json out = {{"type", kMilestonePayloadType},
                {"index", essence.index},
                {"timestamp", essence.timestamp},
                {"protocolVersion", essence.protocol_version},
                {"previousMilestoneId", ToHex(essence.previous_milestone_id)},
                {"parents", HexList(essence.parents)},
                {"inclusionMerkleRoot", ToHex(essence.inclusion_merkle_root)},
                {"appliedMerkleRoot", ToHex(essence.applied_merkle_root)}};
    if (!essence.metadata.empty())
        out["metadata"] = Hex(essence.metadata);
    if (!essence.options.empty())
    {
        json options = json::array();
        for (const auto &option : essence.options)
            options.push_back(MilestoneOptionJson(option));
        out["options"] = options;
    }
    json signatures = json::array();
    for (const auto &signature : payload.signatures)
        signatures.push_back(SignatureJson(signature));
    out["signatures"] = signatures;
    return out;
}

} // namespace

json ToJson(const Address &address)
{
    switch (address.type)
    {
        case AddressType::kEd25519:
            return {{"type", 0}, {"pubKeyHash", ToHex(address.id)}};
        case AddressType::kAlias:
            return {{"type", 8}, {"aliasId", ToHex(address.id)}};
        case AddressType::kNft:
            return {{"type", 16}, {"nftId", ToHex(address.id)}};
    }
    return {};
}

json ToJson(const UnlockCondition &condition)
{
    json out = {{"type", TypeOf(condition)}};
    std::visit(
        [&out](const auto &c)
        {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, StorageDepositReturnUnlockCondition>)
            {
                out["returnAddress"] = ToJson(c.return_address);
                out["amount"] = std::to_string(c.amount);
            }
            else if constexpr (std::is_same_v<T, TimelockUnlockCondition>)
            {
                out["unixTime"] = c.unix_time;
            }
            else if constexpr (std::is_same_v<T, ExpirationUnlockCondition>)
            {
                out["returnAddress"] = ToJson(c.return_address);
                out["unixTime"] = c.unix_time;
            }
            else
            {
                out["address"] = ToJson(c.address);
            }
        },
        condition);
    return out;
}

json ToJson(const Feature &feature)
{
    json out = {{"type", TypeOf(feature)}};
    std::visit(
        [&out](const auto &f)
        {
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, MetadataFeature>)
                out["data"] = Hex(f.data);
            else if constexpr (std::is_same_v<T, TagFeature>)
                out["tag"] = Hex(f.tag);
            else
                out["address"] = ToJson(f.address);
        },
        feature);
    return out;
}

json ToJson(const Output &output)
{
    json out = {{"type", static_cast<int>(TypeOf(output))},
                {"amount", std::to_string(AmountOf(output))}};
    std::visit(
        [&out](const auto &o)
        {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, BasicOutput>)
            {
                CommonOutputFields(out, o);
            }
            else if constexpr (std::is_same_v<T, AliasOutput>)
            {
                out["aliasId"] = ToHex(o.alias_id);
                out["stateIndex"] = o.state_index;
                if (!o.state_metadata.empty())
                    out["stateMetadata"] = Hex(o.state_metadata);
                out["foundryCounter"] = o.foundry_counter;
                CommonOutputFields(out, o);
            }
            else if constexpr (std::is_same_v<T, FoundryOutput>)
            {
                out["serialNumber"] = o.serial_number;
                out["tokenScheme"] = {{"type", 0},
                                      {"mintedTokens", U256ToHex(o.token_scheme.minted_tokens)},
                                      {"meltedTokens", U256ToHex(o.token_scheme.melted_tokens)},
                                      {"maximumSupply", U256ToHex(o.token_scheme.maximum_supply)}};
                CommonOutputFields(out, o);
            }
            else if constexpr (std::is_same_v<T, NftOutput>)
            {
                out["nftId"] = ToHex(o.nft_id);
                CommonOutputFields(out, o);
            }
            if constexpr (!std::is_same_v<T, TreasuryOutput> && !std::is_same_v<T, BasicOutput>)
            {
                if (!o.immutable_features.empty())
                    out["immutableFeatures"] = JsonList(o.immutable_features);
            }
        },
        output);
    return out;
}

json ToJson(const Payload &payload)
{
    return std::visit(
        [](const auto &p) -> json
        {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, TreasuryTransactionPayload>)
                return TreasuryTransactionJson(p);
            else if constexpr (std::is_same_v<T, TaggedDataPayload>)
                return TaggedDataJson(p);
            else if constexpr (std::is_same_v<T, TransactionPayload>)
                return TransactionJson(p);
            else
                return MilestoneJson(p);
        },
        payload);
}

json ToJson(const Block &block)
{
    json out = {{"protocolVersion", block.protocol_version}, {"parents", HexList(block.parents)}};
    if (block.payload)
        out["payload"] = ToJson(*block.payload);
    out["nonce"] = std::to_string(block.nonce);
    return out;
}

json ToJson(const BlockMetadata &metadata)
{
    json out = {{"blockId", ToHex(metadata.block_id)},
                {"parents", HexList(metadata.parents)},
                {"isSolid", metadata.is_solid}};
    if (metadata.referenced_by_milestone_index)
        out["referencedByMilestoneIndex"] = *metadata.referenced_by_milestone_index;
    if (metadata.milestone_index)
        out["milestoneIndex"] = *metadata.milestone_index;
    if (metadata.ledger_inclusion_state)
        out["ledgerInclusionState"] = std::string(ToString(*metadata.ledger_inclusion_state));
    if (metadata.conflict_reason)
        out["conflictReason"] = *metadata.conflict_reason;
    if (metadata.white_flag_index)
        out["whiteFlagIndex"] = *metadata.white_flag_index;
    if (metadata.should_promote)
        out["shouldPromote"] = *metadata.should_promote;
    if (metadata.should_reattach)
        out["shouldReattach"] = *metadata.should_reattach;
    return out;
}

json ToJson(const ProtocolParameters &parameters)
{
    const RentStructure &rent = parameters.rent_structure;
    return {{"version", parameters.version},
            {"networkName", parameters.network_name},
            {"bech32Hrp", parameters.bech32_hrp},
            {"minPowScore", parameters.min_pow_score},
            {"belowMaxDepth", parameters.below_max_depth},
            {"rentStructure",
             {{"vByteCost", rent.v_byte_cost},
              {"vByteFactorData", rent.v_byte_factor_data},
              {"vByteFactorKey", rent.v_byte_factor_key}}},
            {"tokenSupply", std::to_string(parameters.token_supply)}};
}

std::string OutputIdToHex(const OutputId &output_id)
{
    OutputIdBytes bytes = ToBytes(output_id);
    return ToHex(ByteSpan(bytes.data(), bytes.size()));
}

} // namespace permanode::codec
