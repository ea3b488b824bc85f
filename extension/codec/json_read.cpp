#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/json.hpp"
#include "codec/json_fields.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

using nlohmann::json;

std::string Index(const std::string &path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

const json *OptionalField(const json &object, const char *key)
{
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const std::string &String(const json &value, const std::string &path)
{
    if (!value.is_string())
        throw JsonError(path, "expected a string");
    return value.get_ref<const std::string &>();
}

Bytes HexBytes(const json &value, const std::string &path)
{
    std::optional<Bytes> bytes = FromHex(String(value, path));
    if (!bytes)
        throw JsonError(path, "expected 0x-prefixed hex");
    return *bytes;
}

Bytes HexField(const json &object, const std::string &path, const char *key)
{
    return HexBytes(JsonField(object, path, key), JsonJoin(path, key));
}

// An omitted or empty ("" / "0x") byte string is the empty byte string.
Bytes OptionalHexField(const json &object, const std::string &path, const char *key)
{
    const json *value = OptionalField(object, key);
    return value ? HexBytes(*value, JsonJoin(path, key)) : Bytes{};
}

template <std::size_t N>
std::array<std::uint8_t, N> FixedHex(const json &value, const std::string &path)
{
    auto bytes = FromHexFixed<N>(String(value, path));
    if (!bytes)
        throw JsonError(path, "expected 0x-prefixed hex of " + std::to_string(N) + " bytes");
    return *bytes;
}

template <std::size_t N>
std::array<std::uint8_t, N> FixedHexField(const json &object, const std::string &path,
                                          const char *key)
{
    return FixedHex<N>(JsonField(object, path, key), JsonJoin(path, key));
}

U256 U256JsonField(const json &object, const std::string &path, const char *key)
{
    auto value = U256FromHex(String(JsonField(object, path, key), JsonJoin(path, key)));
    if (!value)
        throw JsonError(JsonJoin(path, key),
                        "expected a 0x-prefixed hex number of at most 256 bits");
    return *value;
}

const json &ArrayField(const json &object, const std::string &path, const char *key)
{
    const json &value = JsonField(object, path, key);
    if (!value.is_array())
        throw JsonError(JsonJoin(path, key), "expected an array");
    return value;
}

// Optional arrays default to empty, matching how the node API omits them.
template <typename Parse>
auto OptionalList(const json &object, const std::string &path, const char *key, Parse parse)
    -> std::vector<decltype(parse(object, path))>
{
    std::vector<decltype(parse(object, path))> items;
    const json *value = OptionalField(object, key);
    if (!value)
        return items;
    std::string list_path = JsonJoin(path, key);
    if (!value->is_array())
        throw JsonError(list_path, "expected an array");
    for (std::size_t i = 0; i < value->size(); ++i)
        items.push_back(parse((*value)[i], Index(list_path, i)));
    return items;
}

template <typename Parse>
auto RequiredList(const json &object, const std::string &path, const char *key, Parse parse)
    -> std::vector<decltype(parse(object, path))>
{
    ArrayField(object, path, key);
    return OptionalList(object, path, key, parse);
}

std::vector<Hash32> HashList(const json &object, const std::string &path, const char *key)
{
    return RequiredList(object, path, key,
                        [](const json &v, const std::string &p) { return FixedHex<32>(v, p); });
}

Address AddressAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    Address address;
    switch (type)
    {
        case 0:
            address.type = AddressType::kEd25519;
            address.id = FixedHexField<32>(value, path, "pubKeyHash");
            break;
        case 8:
            address.type = AddressType::kAlias;
            address.id = FixedHexField<32>(value, path, "aliasId");
            break;
        case 16:
            address.type = AddressType::kNft;
            address.id = FixedHexField<32>(value, path, "nftId");
            break;
        default:
            throw JsonError(JsonJoin(path, "type"), "unknown address type " + std::to_string(type));
    }
    return address;
}

Address AddressField(const json &object, const std::string &path, const char *key)
{
    return AddressAt(JsonField(object, path, key), JsonJoin(path, key));
}

UnlockCondition UnlockConditionAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    switch (type)
    {
        case 0:
            return AddressUnlockCondition{AddressField(value, path, "address")};
        case 1:
            return StorageDepositReturnUnlockCondition{AddressField(value, path, "returnAddress"),
                                                       JsonDecimalField(value, path, "amount")};
        case 2:
            return TimelockUnlockCondition{
                JsonUnsignedField<std::uint32_t>(value, path, "unixTime")};
        case 3:
            return ExpirationUnlockCondition{
                AddressField(value, path, "returnAddress"),
                JsonUnsignedField<std::uint32_t>(value, path, "unixTime")};
        case 4:
            return StateControllerAddressUnlockCondition{AddressField(value, path, "address")};
        case 5:
            return GovernorAddressUnlockCondition{AddressField(value, path, "address")};
        case 6:
            return ImmutableAliasAddressUnlockCondition{AddressField(value, path, "address")};
        default:
            throw JsonError(JsonJoin(path, "type"),
                            "unknown unlock condition type " + std::to_string(type));
    }
}

Feature FeatureAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    switch (type)
    {
        case 0:
            return SenderFeature{AddressField(value, path, "address")};
        case 1:
            return IssuerFeature{AddressField(value, path, "address")};
        case 2:
            return MetadataFeature{HexField(value, path, "data")};
        case 3:
            return TagFeature{HexField(value, path, "tag")};
        default:
            throw JsonError(JsonJoin(path, "type"), "unknown feature type " + std::to_string(type));
    }
}

NativeToken NativeTokenAt(const json &value, const std::string &path)
{
    return NativeToken{FixedHexField<38>(value, path, "id"), U256JsonField(value, path, "amount")};
}

template <typename T> void CommonOutputFields(const json &value, const std::string &path, T &out)
{
    out.amount = JsonDecimalField(value, path, "amount");
    out.native_tokens = OptionalList(value, path, "nativeTokens", NativeTokenAt);
    out.unlock_conditions = RequiredList(value, path, "unlockConditions", UnlockConditionAt);
    out.features = OptionalList(value, path, "features", FeatureAt);
}

Output OutputAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    switch (type)
    {
        case 2:
            return TreasuryOutput{JsonDecimalField(value, path, "amount")};
        case 3:
        {
            BasicOutput out;
            CommonOutputFields(value, path, out);
            return out;
        }
        case 4:
        {
            AliasOutput out;
            CommonOutputFields(value, path, out);
            out.alias_id = FixedHexField<32>(value, path, "aliasId");
            out.state_index = JsonUnsignedField<std::uint32_t>(value, path, "stateIndex");
            out.state_metadata = OptionalHexField(value, path, "stateMetadata");
            out.foundry_counter = JsonUnsignedField<std::uint32_t>(value, path, "foundryCounter");
            out.immutable_features = OptionalList(value, path, "immutableFeatures", FeatureAt);
            return out;
        }
        case 5:
        {
            FoundryOutput out;
            CommonOutputFields(value, path, out);
            out.serial_number = JsonUnsignedField<std::uint32_t>(value, path, "serialNumber");
            const json &scheme = JsonField(value, path, "tokenScheme");
            std::string scheme_path = JsonJoin(path, "tokenScheme");
            if (JsonUnsignedField<std::uint8_t>(scheme, scheme_path, "type") != 0)
                throw JsonError(JsonJoin(scheme_path, "type"), "unknown token scheme type");
            out.token_scheme.minted_tokens = U256JsonField(scheme, scheme_path, "mintedTokens");
            out.token_scheme.melted_tokens = U256JsonField(scheme, scheme_path, "meltedTokens");
            out.token_scheme.maximum_supply = U256JsonField(scheme, scheme_path, "maximumSupply");
            out.immutable_features = OptionalList(value, path, "immutableFeatures", FeatureAt);
            return out;
        }
        case 6:
        {
            NftOutput out;
            CommonOutputFields(value, path, out);
            out.nft_id = FixedHexField<32>(value, path, "nftId");
            out.immutable_features = OptionalList(value, path, "immutableFeatures", FeatureAt);
            return out;
        }
        default:
            throw JsonError(JsonJoin(path, "type"), "unknown output type " + std::to_string(type));
    }
}

Ed25519Signature SignatureAt(const json &value, const std::string &path)
{
    if (JsonUnsignedField<std::uint8_t>(value, path, "type") != 0)
        throw JsonError(JsonJoin(path, "type"), "unknown signature type");
    return Ed25519Signature{FixedHexField<32>(value, path, "publicKey"),
                            FixedHexField<64>(value, path, "signature")};
}

Unlock UnlockAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    switch (type)
    {
        case 0:
            return SignatureUnlock{
                SignatureAt(JsonField(value, path, "signature"), JsonJoin(path, "signature"))};
        case 1:
            return ReferenceUnlock{JsonUnsignedField<std::uint16_t>(value, path, "reference")};
        case 2:
            return AliasUnlock{JsonUnsignedField<std::uint16_t>(value, path, "reference")};
        case 3:
            return NftUnlock{JsonUnsignedField<std::uint16_t>(value, path, "reference")};
        default:
            throw JsonError(JsonJoin(path, "type"), "unknown unlock type " + std::to_string(type));
    }
}

void ExpectType(const json &value, const std::string &path, unsigned expected)
{
    if (JsonUnsignedField<std::uint32_t>(value, path, "type") != expected)
        throw JsonError(JsonJoin(path, "type"), "expected " + std::to_string(expected));
}

TaggedDataPayload TaggedDataAt(const json &value, const std::string &path)
{
    return TaggedDataPayload{OptionalHexField(value, path, "tag"),
                             OptionalHexField(value, path, "data")};
}

TreasuryTransactionPayload TreasuryTransactionAt(const json &value, const std::string &path)
{
    TreasuryTransactionPayload payload;
    const json &input = JsonField(value, path, "input");
    std::string input_path = JsonJoin(path, "input");
    ExpectType(input, input_path, 1);
    payload.input_milestone_id = FixedHexField<32>(input, input_path, "milestoneId");
    Output output = OutputAt(JsonField(value, path, "output"), JsonJoin(path, "output"));
    if (!std::holds_alternative<TreasuryOutput>(output))
        throw JsonError(JsonJoin(path, "output"), "expected a treasury output");
    payload.output = std::get<TreasuryOutput>(output);
    return payload;
}

UtxoInput InputAt(const json &value, const std::string &path)
{
    ExpectType(value, path, 0);
    return UtxoInput{FixedHexField<32>(value, path, "transactionId"),
                     JsonUnsignedField<std::uint16_t>(value, path, "transactionOutputIndex")};
}

std::uint64_t NetworkIdField(const json &object, const std::string &path)
{
    return JsonDecimalField(object, path, "networkId");
}

TransactionPayload TransactionAt(const json &value, const std::string &path)
{
    TransactionPayload payload;
    const json &essence = JsonField(value, path, "essence");
    std::string essence_path = JsonJoin(path, "essence");
    ExpectType(essence, essence_path, 1);
    payload.essence.network_id = NetworkIdField(essence, essence_path);
    payload.essence.inputs = RequiredList(essence, essence_path, "inputs", InputAt);
    payload.essence.inputs_commitment =
        FixedHexField<32>(essence, essence_path, "inputsCommitment");
    payload.essence.outputs = RequiredList(essence, essence_path, "outputs", OutputAt);
    if (const json *inner = OptionalField(essence, "payload"))
    {
        std::string inner_path = JsonJoin(essence_path, "payload");
        ExpectType(*inner, inner_path, kTaggedDataPayloadType);
        payload.essence.payload = TaggedDataAt(*inner, inner_path);
    }
    payload.unlocks = RequiredList(value, path, "unlocks", UnlockAt);
    return payload;
}

MigratedFundsEntry FundsAt(const json &value, const std::string &path)
{
    return MigratedFundsEntry{FixedHexField<49>(value, path, "tailTransactionHash"),
                              AddressField(value, path, "address"),
                              JsonDecimalField(value, path, "deposit")};
}

MilestoneOption MilestoneOptionAt(const json &value, const std::string &path)
{
    std::uint8_t type = JsonUnsignedField<std::uint8_t>(value, path, "type");
    if (type == 0)
    {
        ReceiptMilestoneOption receipt;
        receipt.migrated_at = JsonUnsignedField<std::uint32_t>(value, path, "migratedAt");
        const json &final = JsonField(value, path, "final");
        if (!final.is_boolean())
            throw JsonError(JsonJoin(path, "final"), "expected a boolean");
        receipt.final = final.get<bool>();
        receipt.funds = RequiredList(value, path, "funds", FundsAt);
        receipt.transaction = TreasuryTransactionAt(JsonField(value, path, "transaction"),
                                                    JsonJoin(path, "transaction"));
        return receipt;
    }
    if (type == 1)
    {
        ProtocolParamsMilestoneOption option;
        option.target_milestone_index =
            JsonUnsignedField<std::uint32_t>(value, path, "targetMilestoneIndex");
        option.protocol_version = JsonUnsignedField<std::uint8_t>(value, path, "protocolVersion");
        option.params = HexField(value, path, "params");
        option.parameters = TryDecodeProtocolParameters(option.params);
        return option;
    }
    throw JsonError(JsonJoin(path, "type"),
                    "unknown milestone option type " + std::to_string(type));
}

MilestonePayload MilestoneAt(const json &value, const std::string &path)
{
    MilestonePayload payload;
    MilestoneEssence &essence = payload.essence;
    essence.index = JsonUnsignedField<std::uint32_t>(value, path, "index");
    essence.timestamp = JsonUnsignedField<std::uint32_t>(value, path, "timestamp");
    essence.protocol_version = JsonUnsignedField<std::uint8_t>(value, path, "protocolVersion");
    essence.previous_milestone_id = FixedHexField<32>(value, path, "previousMilestoneId");
    essence.parents = HashList(value, path, "parents");
    essence.inclusion_merkle_root = FixedHexField<32>(value, path, "inclusionMerkleRoot");
    essence.applied_merkle_root = FixedHexField<32>(value, path, "appliedMerkleRoot");
    essence.metadata = OptionalHexField(value, path, "metadata");
    essence.options = OptionalList(value, path, "options", MilestoneOptionAt);
    payload.signatures = RequiredList(value, path, "signatures", SignatureAt);
    return payload;
}

std::string ShortStringField(const json &object, const std::string &path, const char *key)
{
    const std::string &text = String(JsonField(object, path, key), JsonJoin(path, key));
    if (text.size() > 255)
        throw JsonError(JsonJoin(path, key), "longer than 255 bytes");
    return text;
}

ProtocolParameters ProtocolParametersAt(const json &value, const std::string &path)
{
    ProtocolParameters parameters;
    parameters.version = JsonUnsignedField<std::uint8_t>(value, path, "version");
    parameters.network_name = ShortStringField(value, path, "networkName");
    parameters.bech32_hrp = ShortStringField(value, path, "bech32Hrp");
    parameters.min_pow_score = JsonUnsignedField<std::uint32_t>(value, path, "minPowScore");
    parameters.below_max_depth = JsonUnsignedField<std::uint8_t>(value, path, "belowMaxDepth");
    const json &rent = JsonField(value, path, "rentStructure");
    std::string rent_path = JsonJoin(path, "rentStructure");
    parameters.rent_structure.v_byte_cost =
        JsonUnsignedField<std::uint32_t>(rent, rent_path, "vByteCost");
    parameters.rent_structure.v_byte_factor_data =
        JsonUnsignedField<std::uint8_t>(rent, rent_path, "vByteFactorData");
    parameters.rent_structure.v_byte_factor_key =
        JsonUnsignedField<std::uint8_t>(rent, rent_path, "vByteFactorKey");
    parameters.token_supply = JsonDecimalField(value, path, "tokenSupply");
    return parameters;
}

Payload PayloadAt(const json &value, const std::string &path)
{
    std::uint32_t type = JsonUnsignedField<std::uint32_t>(value, path, "type");
    switch (type)
    {
        case kTreasuryTransactionPayloadType:
            return TreasuryTransactionAt(value, path);
        case kTaggedDataPayloadType:
            return TaggedDataAt(value, path);
        case kTransactionPayloadType:
            return TransactionAt(value, path);
        case kMilestonePayloadType:
            return MilestoneAt(value, path);
        default:
            throw JsonError(JsonJoin(path, "type"), "unknown payload type " + std::to_string(type));
    }
}

} // namespace

Address AddressFromJson(const json &value)
{
    return AddressAt(value, "$");
}
Output OutputFromJson(const json &value)
{
    return OutputAt(value, "$");
}
Payload PayloadFromJson(const json &value)
{
    return PayloadAt(value, "$");
}

Block BlockFromJson(const json &value)
{
    const std::string path = "$";
    Block block;
    block.protocol_version = JsonUnsignedField<std::uint8_t>(value, path, "protocolVersion");
    block.parents = HashList(value, path, "parents");
    if (const json *payload = OptionalField(value, "payload"))
        block.payload = PayloadAt(*payload, JsonJoin(path, "payload"));
    block.nonce = JsonDecimalField(value, path, "nonce");
    return block;
}

BlockMetadata BlockMetadataFromJson(const json &value)
{
    const std::string path = "$";
    BlockMetadata metadata;
    metadata.block_id = FixedHexField<32>(value, path, "blockId");
    metadata.parents = HashList(value, path, "parents");
    const json &solid = JsonField(value, path, "isSolid");
    if (!solid.is_boolean())
        throw JsonError(JsonJoin(path, "isSolid"), "expected a boolean");
    metadata.is_solid = solid.get<bool>();
    if (OptionalField(value, "referencedByMilestoneIndex"))
        metadata.referenced_by_milestone_index =
            JsonUnsignedField<std::uint32_t>(value, path, "referencedByMilestoneIndex");
    if (OptionalField(value, "milestoneIndex"))
        metadata.milestone_index = JsonUnsignedField<std::uint32_t>(value, path, "milestoneIndex");
    if (const json *state = OptionalField(value, "ledgerInclusionState"))
    {
        metadata.ledger_inclusion_state =
            ParseLedgerInclusionState(String(*state, JsonJoin(path, "ledgerInclusionState")));
        if (!metadata.ledger_inclusion_state)
            throw JsonError(JsonJoin(path, "ledgerInclusionState"), "unknown inclusion state");
    }
    if (OptionalField(value, "conflictReason"))
        metadata.conflict_reason = JsonUnsignedField<std::uint8_t>(value, path, "conflictReason");
    if (OptionalField(value, "whiteFlagIndex"))
        metadata.white_flag_index = JsonUnsignedField<std::uint32_t>(value, path, "whiteFlagIndex");
    for (auto [key, target] : {std::pair{"shouldPromote", &metadata.should_promote},
                               std::pair{"shouldReattach", &metadata.should_reattach}})
    {
        if (const json *flag = OptionalField(value, key))
        {
            if (!flag->is_boolean())
                throw JsonError(JsonJoin(path, key), "expected a boolean");
            *target = flag->get<bool>();
        }
    }
    return metadata;
}

ProtocolParameters ProtocolParametersFromJson(const json &value)
{
    return ProtocolParametersAt(value, "$");
}

OutputId OutputIdFromHex(std::string_view text)
{
    auto bytes = FromHexFixed<34>(text);
    if (!bytes)
        throw JsonError("$", "expected an output ID: 0x-prefixed hex of 34 bytes");
    return OutputIdFromBytes(*bytes);
}

} // namespace permanode::codec
