#include "codec/transaction.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

constexpr std::uint8_t kTransactionEssenceType = 1;
constexpr std::uint8_t kUtxoInputType = 0;
constexpr std::uint8_t kEd25519SignatureType = 0;

UtxoInput DecodeUtxoInput(ByteReader &reader)
{
    reader.ExpectType("input.type", kUtxoInputType);
    UtxoInput input;
    input.transaction_id = reader.ReadArray<32>("utxo_input.transaction_id");
    std::size_t start = reader.Offset();
    input.index = reader.ReadU16("utxo_input.transaction_output_index");
    if (input.index >= limits::kMaxOutputs)
        reader.Fail("utxo_input.transaction_output_index", start,
                    "index " + std::to_string(input.index) + " exceeds the maximum output index");
    return input;
}

// The essence may carry only a tagged data payload, behind a u32 length.
std::optional<TaggedDataPayload> DecodeEssencePayload(ByteReader &reader)
{
    return reader.ReadLengthPrefixed(
        "transaction_essence.payload_length",
        [&]
        {
            std::size_t start = reader.Offset();
            std::uint32_t type = reader.ReadU32("transaction_essence.payload.type");
            if (type != kTaggedDataPayloadType)
                reader.Fail("transaction_essence.payload.type", start,
                            "only tagged data (5) is allowed, got " + std::to_string(type));
            return DecodeTaggedDataBody(reader);
        });
}

TransactionEssence DecodeEssence(ByteReader &reader)
{
    reader.ExpectType("transaction_essence.type", kTransactionEssenceType);
    TransactionEssence essence;
    essence.network_id = reader.ReadU64("transaction_essence.network_id");
    std::size_t input_count =
        reader.ReadCountU16("transaction_essence.inputs.count", 1, limits::kMaxInputs);
    essence.inputs.reserve(input_count);
    for (std::size_t i = 0; i < input_count; ++i)
        essence.inputs.push_back(DecodeUtxoInput(reader));
    essence.inputs_commitment = reader.ReadArray<32>("transaction_essence.inputs_commitment");
    std::size_t output_count =
        reader.ReadCountU16("transaction_essence.outputs.count", 1, limits::kMaxOutputs);
    essence.outputs.reserve(output_count);
    for (std::size_t i = 0; i < output_count; ++i)
        essence.outputs.push_back(DecodeOutput(reader, kTransactionOutputTypes));
    essence.payload = DecodeEssencePayload(reader);
    return essence;
}

Unlock DecodeUnlock(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("unlock.type");
    switch (type)
    {
        case 0:
            return SignatureUnlock{DecodeEd25519Signature(reader, "signature_unlock.signature")};
        case 1:
            return ReferenceUnlock{reader.ReadU16("reference_unlock.reference")};
        case 2:
            return AliasUnlock{reader.ReadU16("alias_unlock.reference")};
        case 3:
            return NftUnlock{reader.ReadU16("nft_unlock.reference")};
        default:
            reader.Fail("unlock.type", start, "unknown unlock type " + std::to_string(type));
    }
}

} // namespace

Ed25519Signature DecodeEd25519Signature(ByteReader &reader, const char *field)
{
    reader.ExpectType(field, kEd25519SignatureType);
    Ed25519Signature signature;
    signature.public_key = reader.ReadArray<32>("ed25519_signature.public_key");
    signature.signature = reader.ReadArray<64>("ed25519_signature.signature");
    return signature;
}

void EncodeEd25519Signature(ByteWriter &writer, const Ed25519Signature &signature)
{
    writer.WriteU8(kEd25519SignatureType);
    writer.WriteArray(signature.public_key);
    writer.WriteArray(signature.signature);
}

TransactionPayload DecodeTransactionBody(ByteReader &reader)
{
    TransactionPayload payload;
    payload.essence = DecodeEssence(reader);
    std::size_t start = reader.Offset();
    std::size_t unlock_count =
        reader.ReadCountU16("transaction.unlocks.count", 1, limits::kMaxInputs);
    if (unlock_count != payload.essence.inputs.size())
        reader.Fail("transaction.unlocks.count", start,
                    "has " + std::to_string(unlock_count) + " unlocks for " +
                        std::to_string(payload.essence.inputs.size()) + " inputs");
    payload.unlocks.reserve(unlock_count);
    for (std::size_t i = 0; i < unlock_count; ++i)
        payload.unlocks.push_back(DecodeUnlock(reader));
    return payload;
}

void EncodeTransaction(ByteWriter &writer, const TransactionPayload &payload)
{
    const TransactionEssence &essence = payload.essence;
    writer.WriteU32(kTransactionPayloadType);
    writer.WriteU8(kTransactionEssenceType);
    writer.WriteU64(essence.network_id);
    writer.WriteCountU16("transaction_essence.inputs.count", essence.inputs.size());
    for (const auto &input : essence.inputs)
    {
        writer.WriteU8(kUtxoInputType);
        writer.WriteArray(input.transaction_id);
        writer.WriteU16(input.index);
    }
    writer.WriteArray(essence.inputs_commitment);
    writer.WriteCountU16("transaction_essence.outputs.count", essence.outputs.size());
    for (const auto &output : essence.outputs)
        EncodeOutput(writer, output);
    if (essence.payload)
    {
        std::size_t length_at = writer.ReserveU32();
        EncodeTaggedData(writer, *essence.payload);
        writer.PatchU32(length_at, static_cast<std::uint32_t>(writer.Size() - length_at - 4));
    }
    else
    {
        writer.WriteU32(0);
    }
    writer.WriteCountU16("transaction.unlocks.count", payload.unlocks.size());
    for (const auto &unlock : payload.unlocks)
    {
        writer.WriteU8(TypeOf(unlock));
        std::visit(
            [&writer](const auto &u)
            {
                if constexpr (std::is_same_v<std::decay_t<decltype(u)>, SignatureUnlock>)
                    EncodeEd25519Signature(writer, u.signature);
                else
                    writer.WriteU16(u.reference);
            },
            unlock);
    }
}

} // namespace permanode::codec
