#include "codec/milestone.hpp"

#include <string>
#include <utility>

namespace permanode::codec
{
namespace
{

constexpr std::size_t kMaxMigratedFunds = 128;

MigratedFundsEntry DecodeMigratedFunds(ByteReader &reader)
{
    MigratedFundsEntry entry;
    entry.tail_transaction_hash = reader.ReadArray<49>("migrated_funds.tail_transaction_hash");
    std::size_t start = reader.Offset();
    entry.address = DecodeAddress(reader, "migrated_funds.address");
    if (entry.address.type != AddressType::kEd25519)
        reader.Fail("migrated_funds.address", start, "must be an Ed25519 address");
    entry.deposit = reader.ReadU64("migrated_funds.deposit");
    return entry;
}

// TIP-34: the treasury transaction follows the funds directly, with its u32 type and no length.
ReceiptMilestoneOption DecodeReceipt(ByteReader &reader)
{
    ReceiptMilestoneOption receipt;
    receipt.migrated_at = reader.ReadU32("receipt.migrated_at");
    std::size_t final_at = reader.Offset();
    std::uint8_t final = reader.ReadU8("receipt.final");
    if (final > 1)
        reader.Fail("receipt.final", final_at, "must be 0 or 1");
    receipt.final = final == 1;
    std::size_t count = reader.ReadCountU16("receipt.funds.count", 1, kMaxMigratedFunds);
    receipt.funds.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        receipt.funds.push_back(DecodeMigratedFunds(reader));
    std::size_t type_at = reader.Offset();
    std::uint32_t type = reader.ReadU32("receipt.transaction.type");
    if (type != kTreasuryTransactionPayloadType)
        reader.Fail("receipt.transaction.type", type_at,
                    "expected treasury transaction (4), got " + std::to_string(type));
    receipt.transaction = DecodeTreasuryTransactionBody(reader);
    return receipt;
}

ProtocolParamsMilestoneOption DecodeProtocolParamsOption(ByteReader &reader)
{
    ProtocolParamsMilestoneOption option;
    option.target_milestone_index = reader.ReadU32("protocol_params_option.target_milestone_index");
    option.protocol_version = reader.ReadU8("protocol_params_option.protocol_version");
    reader.ReadPrefixedU16("protocol_params_option.params", 0, limits::kMaxMetadataLength,
                           option.params);
    option.parameters = TryDecodeProtocolParameters(option.params);
    return option;
}

std::vector<MilestoneOption> DecodeOptions(ByteReader &reader)
{
    std::size_t count = reader.ReadCountU8("milestone_essence.options.count", 0, 2);
    std::vector<MilestoneOption> options;
    int previous_type = -1;
    for (std::size_t i = 0; i < count; ++i)
    {
        std::size_t start = reader.Offset();
        std::uint8_t type = reader.ReadU8("milestone_option.type");
        if (type > 1)
            reader.Fail("milestone_option.type", start,
                        "unknown milestone option type " + std::to_string(type));
        if (type <= previous_type)
            reader.Fail("milestone_option.type", start,
                        "options must be unique and sorted by type");
        previous_type = type;
        if (type == 0)
            options.emplace_back(DecodeReceipt(reader));
        else
            options.emplace_back(DecodeProtocolParamsOption(reader));
    }
    return options;
}

} // namespace

ProtocolParamsMilestoneOption MakeProtocolParamsOption(std::uint32_t target_milestone_index,
                                                       std::uint8_t protocol_version,
                                                       const ProtocolParameters &parameters)
{
    ProtocolParamsMilestoneOption option;
    option.target_milestone_index = target_milestone_index;
    option.protocol_version = protocol_version;
    option.params = EncodeProtocolParameters(parameters);
    option.parameters = parameters;
    return option;
}

ProtocolParamsMilestoneOption MakeProtocolParamsOption(std::uint32_t target_milestone_index,
                                                       std::uint8_t protocol_version, Bytes params)
{
    ProtocolParamsMilestoneOption option;
    option.target_milestone_index = target_milestone_index;
    option.protocol_version = protocol_version;
    option.params = std::move(params);
    option.parameters = TryDecodeProtocolParameters(option.params);
    return option;
}

void DecodeParents(ByteReader &reader, const char *field, Parents &parents)
{
    reader.ReadAscendingIds(field, limits::kMinParents, limits::kMaxParents, parents);
}

MilestonePayload DecodeMilestoneBody(ByteReader &reader)
{
    MilestonePayload payload;
    MilestoneEssence &essence = payload.essence;
    essence.index = reader.ReadU32("milestone_essence.index");
    essence.timestamp = reader.ReadU32("milestone_essence.timestamp");
    essence.protocol_version = reader.ReadU8("milestone_essence.protocol_version");
    essence.previous_milestone_id = reader.ReadArray<32>("milestone_essence.previous_milestone_id");
    DecodeParents(reader, "milestone_essence.parents", essence.parents);
    essence.inclusion_merkle_root = reader.ReadArray<32>("milestone_essence.inclusion_merkle_root");
    essence.applied_merkle_root = reader.ReadArray<32>("milestone_essence.applied_merkle_root");
    reader.ReadPrefixedU16("milestone_essence.metadata", 0, limits::kMaxMetadataLength,
                           essence.metadata);
    essence.options = DecodeOptions(reader);
    std::size_t count = reader.ReadCountU8("milestone.signatures.count", 1, 255);
    payload.signatures.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        payload.signatures.push_back(DecodeEd25519Signature(reader, "milestone.signature.type"));
    return payload;
}

void EncodeMilestoneEssence(ByteWriter &writer, const MilestoneEssence &essence)
{
    writer.WriteU32(essence.index);
    writer.WriteU32(essence.timestamp);
    writer.WriteU8(essence.protocol_version);
    writer.WriteArray(essence.previous_milestone_id);
    writer.WriteCountU8("milestone_essence.parents.count", essence.parents.size());
    for (const auto &parent : essence.parents)
        writer.WriteArray(parent);
    writer.WriteArray(essence.inclusion_merkle_root);
    writer.WriteArray(essence.applied_merkle_root);
    writer.WritePrefixedU16("milestone_essence.metadata", essence.metadata);
    writer.WriteCountU8("milestone_essence.options.count", essence.options.size());
    for (const auto &option : essence.options)
    {
        writer.WriteU8(TypeOf(option));
        if (const auto *receipt = std::get_if<ReceiptMilestoneOption>(&option))
        {
            writer.WriteU32(receipt->migrated_at);
            writer.WriteU8(receipt->final ? 1 : 0);
            writer.WriteCountU16("receipt.funds.count", receipt->funds.size());
            for (const auto &entry : receipt->funds)
            {
                writer.WriteArray(entry.tail_transaction_hash);
                EncodeAddress(writer, entry.address);
                writer.WriteU64(entry.deposit);
            }
            EncodeTreasuryTransaction(writer, receipt->transaction);
        }
        else
        {
            const auto &params = std::get<ProtocolParamsMilestoneOption>(option);
            if (params.parameters && EncodeProtocolParameters(*params.parameters) != params.params)
                throw EncodeError("protocol_params_option.parameters: do not match the params "
                                  "bytes (build the option with MakeProtocolParamsOption)");
            writer.WriteU32(params.target_milestone_index);
            writer.WriteU8(params.protocol_version);
            writer.WritePrefixedU16("protocol_params_option.params", params.params);
        }
    }
}

void EncodeMilestone(ByteWriter &writer, const MilestonePayload &payload)
{
    writer.WriteU32(kMilestonePayloadType);
    EncodeMilestoneEssence(writer, payload.essence);
    writer.WriteCountU8("milestone.signatures.count", payload.signatures.size());
    for (const auto &signature : payload.signatures)
        EncodeEd25519Signature(writer, signature);
}

} // namespace permanode::codec
