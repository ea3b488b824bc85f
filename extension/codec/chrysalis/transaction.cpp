// Wire layout of the TIP-7 transaction payload, its parts, and the TIP-6 indexation payload.
#include "codec/chrysalis/wire.hpp"

#include <cstring>
#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

constexpr std::uint8_t kEssenceType = 0;
constexpr std::uint8_t kEd25519AddressType = 0;
constexpr std::uint8_t kEd25519SignatureType = 0;

constexpr std::uint8_t kUtxoInputType = 0;
constexpr std::uint8_t kTreasuryInputType = 1;
constexpr std::uint8_t kSingleOutputType = 0;
constexpr std::uint8_t kDustAllowanceOutputType = 1;
constexpr std::uint8_t kTreasuryOutputType = 2;
constexpr std::uint8_t kSignatureUnlockType = 0;
constexpr std::uint8_t kReferenceUnlockType = 1;

constexpr std::size_t kUtxoInputLength = 1 + 32 + 2; // type, transaction ID, index
constexpr std::size_t kOutputKeyLength = 1 + 1 + 32; // output type, address type, address

// A transaction spends UTXOs only; the treasury input belongs to treasury transactions.
UtxoInput DecodeUtxoInput(ByteReader &reader)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("input.type");
    if (type != kUtxoInputType)
        reader.Fail("input.type", start,
                    "a transaction takes only UTXO inputs (0), got " + std::to_string(type));
    UtxoInput input;
    input.transaction_id = reader.ReadArray<32>("utxo_input.transaction_id");
    std::size_t index_at = reader.Offset();
    input.index = reader.ReadU16("utxo_input.transaction_output_index");
    if (input.index >= limits::kMaxOutputs)
        reader.Fail("utxo_input.transaction_output_index", index_at,
                    "index " + std::to_string(input.index) + " exceeds the maximum output index");
    return input;
}

// TIP-7: inputs and outputs ascend in the lexical order of their bytes, and no two share their
// first `key_length` bytes (a whole input; an output's type and address).
void ExpectAscending(ByteReader &reader, const char *field, std::size_t previous, std::size_t start,
                     std::size_t key_length, const char *repeated)
{
    int order = std::memcmp(reader.Data() + previous, reader.Data() + start, key_length);
    if (order == 0)
        reader.Fail(field, start, repeated);
    if (order > 0)
        reader.Fail(field, start, "not in lexical order: sorts before the one ahead of it");
}

std::optional<IndexationPayload> DecodeEssencePayload(ByteReader &reader)
{
    return reader.ReadLengthPrefixed(
        "transaction_essence.payload_length",
        [&]
        {
            std::size_t start = reader.Offset();
            std::uint32_t type = reader.ReadU32("transaction_essence.payload.type");
            if (type != payload_type::kIndexation)
                reader.Fail("transaction_essence.payload.type", start,
                            "only indexation (2) is allowed, got " + std::to_string(type));
            return DecodeIndexationBody(reader);
        });
}

TransactionEssence DecodeEssence(ByteReader &reader)
{
    reader.ExpectType("transaction_essence.type", kEssenceType);
    TransactionEssence essence;
    std::size_t input_count =
        reader.ReadCountU16("transaction_essence.inputs.count", 1, limits::kMaxInputs);
    std::size_t previous = 0;
    for (std::size_t i = 0; i < input_count; ++i)
    {
        std::size_t start = reader.Offset();
        essence.inputs.push_back(DecodeUtxoInput(reader));
        if (i > 0)
            ExpectAscending(reader, "transaction_essence.inputs", previous, start, kUtxoInputLength,
                            "spends the same output as the input before it");
        previous = start;
    }
    std::size_t output_count =
        reader.ReadCountU16("transaction_essence.outputs.count", 1, limits::kMaxOutputs);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < output_count; ++i)
    {
        std::size_t start = reader.Offset();
        essence.outputs.push_back(DecodeTransactionOutput(reader, total));
        if (i > 0)
            ExpectAscending(reader, "transaction_essence.outputs", previous, start,
                            kOutputKeyLength,
                            "same type and address as the output before it (TIP-7 allows one "
                            "output of each type per address)");
        previous = start;
    }
    essence.payload = DecodeEssencePayload(reader);
    return essence;
}

// TIP-7 syntactic rules: signature unlocks are unique, and a reference unlock points at an
// earlier signature unlock.
Unlock DecodeUnlock(ByteReader &reader, const std::vector<Unlock> &earlier)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("unlock.type");
    if (type == kSignatureUnlockType)
    {
        reader.ExpectType("signature.type", kEd25519SignatureType);
        SignatureUnlock unlock;
        unlock.public_key = reader.ReadArray<32>("ed25519_signature.public_key");
        unlock.signature = reader.ReadArray<64>("ed25519_signature.signature");
        for (std::size_t i = 0; i < earlier.size(); ++i)
            if (const auto *other = std::get_if<SignatureUnlock>(&earlier[i]);
                other && *other == unlock)
                reader.Fail("signature_unlock", start,
                            "repeats signature unlock " + std::to_string(i));
        return unlock;
    }
    if (type == kReferenceUnlockType)
    {
        std::size_t reference_at = reader.Offset();
        ReferenceUnlock unlock;
        unlock.reference = reader.ReadU16("reference_unlock.reference");
        if (unlock.reference >= earlier.size() ||
            !std::holds_alternative<SignatureUnlock>(earlier[unlock.reference]))
            reader.Fail("reference_unlock.reference", reference_at,
                        "unlock " + std::to_string(unlock.reference) +
                            " is not an earlier signature unlock");
        return unlock;
    }
    reader.Fail("unlock.type", start, "unknown unlock type " + std::to_string(type));
}

} // namespace

// A transaction creates signature-locked outputs; the treasury output is the treasury's own.
Output DecodeTransactionOutput(ByteReader &reader, std::uint64_t &total)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8("output.type");
    if (type == kSingleOutputType)
    {
        SigLockedSingleOutput output;
        output.address = DecodeAddress(reader, "sig_locked_single_output.address");
        output.amount = ReadAmount(reader, "sig_locked_single_output.amount", 1, total);
        return output;
    }
    if (type == kDustAllowanceOutputType)
    {
        SigLockedDustAllowanceOutput output;
        output.address = DecodeAddress(reader, "sig_locked_dust_allowance_output.address");
        output.amount = ReadAmount(reader, "sig_locked_dust_allowance_output.amount",
                                   limits::kMinDustAllowance, total);
        return output;
    }
    reader.Fail("output.type", start,
                "a transaction creates only outputs of type 0 or 1, got " + std::to_string(type));
}

Ed25519Address DecodeAddress(ByteReader &reader, const char *field)
{
    reader.ExpectType(field, kEd25519AddressType);
    Ed25519Address address;
    address.hash = reader.ReadArray<32>(field);
    return address;
}

TreasuryInput DecodeTreasuryInput(ByteReader &reader)
{
    reader.ExpectType("treasury_input.type", kTreasuryInputType);
    TreasuryInput input;
    input.milestone_id = reader.ReadArray<32>("treasury_input.milestone_id");
    return input;
}

TreasuryOutput DecodeTreasuryOutput(ByteReader &reader)
{
    reader.ExpectType("treasury_output.type", kTreasuryOutputType);
    TreasuryOutput output;
    std::uint64_t total = 0;
    output.amount = ReadAmount(reader, "treasury_output.amount", 0, total);
    return output;
}

std::uint64_t ReadAmount(ByteReader &reader, const char *field, std::uint64_t minimum,
                         std::uint64_t &total)
{
    std::size_t at = reader.Offset();
    std::uint64_t amount = reader.ReadU64(field);
    if (amount < minimum)
        reader.Fail(field, at,
                    "amount " + std::to_string(amount) + " is below the minimum of " +
                        std::to_string(minimum));
    if (amount > limits::kTotalSupply - total)
        reader.Fail(field, at,
                    "amounts add up to more than the total supply of " +
                        std::to_string(limits::kTotalSupply));
    total += amount;
    return amount;
}

TransactionPayload DecodeTransactionBody(ByteReader &reader)
{
    TransactionPayload payload;
    payload.essence = DecodeEssence(reader);
    std::size_t count_at = reader.Offset();
    std::size_t unlock_count =
        reader.ReadCountU16("transaction.unlocks.count", 1, limits::kMaxInputs);
    if (unlock_count != payload.essence.inputs.size())
        reader.Fail("transaction.unlocks.count", count_at,
                    std::to_string(unlock_count) + " unlocks for " +
                        std::to_string(payload.essence.inputs.size()) + " inputs");
    for (std::size_t i = 0; i < unlock_count; ++i)
        payload.unlocks.push_back(DecodeUnlock(reader, payload.unlocks));
    return payload;
}

IndexationPayload DecodeIndexationBody(ByteReader &reader)
{
    IndexationPayload payload;
    reader.ReadPrefixedU16("indexation.index", 1, limits::kMaxIndexLength, payload.index);
    reader.ReadPrefixedU32("indexation.data", 0, limits::kMaxMessageLength, payload.data);
    return payload;
}

void EncodeAddress(ByteWriter &writer, const Ed25519Address &address)
{
    writer.WriteU8(kEd25519AddressType);
    writer.WriteArray(address.hash);
}

void EncodeInput(ByteWriter &writer, const Input &input)
{
    if (const auto *utxo = std::get_if<UtxoInput>(&input))
    {
        writer.WriteU8(kUtxoInputType);
        writer.WriteArray(utxo->transaction_id);
        writer.WriteU16(utxo->index);
        return;
    }
    writer.WriteU8(kTreasuryInputType);
    writer.WriteArray(std::get<TreasuryInput>(input).milestone_id);
}

void EncodeOutput(ByteWriter &writer, const Output &output)
{
    if (const auto *single = std::get_if<SigLockedSingleOutput>(&output))
    {
        writer.WriteU8(kSingleOutputType);
        EncodeAddress(writer, single->address);
        writer.WriteU64(single->amount);
    }
    else if (const auto *dust = std::get_if<SigLockedDustAllowanceOutput>(&output))
    {
        writer.WriteU8(kDustAllowanceOutputType);
        EncodeAddress(writer, dust->address);
        writer.WriteU64(dust->amount);
    }
    else
    {
        writer.WriteU8(kTreasuryOutputType);
        writer.WriteU64(std::get<TreasuryOutput>(output).amount);
    }
}

void EncodeTransactionEssence(ByteWriter &writer, const TransactionEssence &essence)
{
    writer.WriteU8(kEssenceType);
    writer.WriteCountU16("transaction_essence.inputs.count", essence.inputs.size());
    for (const Input &input : essence.inputs)
        EncodeInput(writer, input);
    writer.WriteCountU16("transaction_essence.outputs.count", essence.outputs.size());
    for (const Output &output : essence.outputs)
        EncodeOutput(writer, output);
    std::size_t length_at = writer.ReserveU32();
    if (essence.payload)
    {
        writer.WriteU32(payload_type::kIndexation);
        EncodeIndexationBody(writer, *essence.payload);
    }
    writer.PatchU32(length_at, static_cast<std::uint32_t>(writer.Size() - length_at - 4));
}

void EncodeTransactionBody(ByteWriter &writer, const TransactionPayload &payload)
{
    EncodeTransactionEssence(writer, payload.essence);
    writer.WriteCountU16("transaction.unlocks.count", payload.unlocks.size());
    for (const Unlock &unlock : payload.unlocks)
        EncodeUnlock(writer, unlock);
}

void EncodeUnlock(ByteWriter &writer, const Unlock &unlock)
{
    if (const auto *signature = std::get_if<SignatureUnlock>(&unlock))
    {
        writer.WriteU8(kSignatureUnlockType);
        writer.WriteU8(kEd25519SignatureType);
        writer.WriteArray(signature->public_key);
        writer.WriteArray(signature->signature);
    }
    else
    {
        writer.WriteU8(kReferenceUnlockType);
        writer.WriteU16(std::get<ReferenceUnlock>(unlock).reference);
    }
}

void EncodeIndexationBody(ByteWriter &writer, const IndexationPayload &payload)
{
    writer.WritePrefixedU16("indexation.index", payload.index);
    writer.WritePrefixedU32("indexation.data", payload.data);
}

} // namespace permanode::codec::chrysalis
