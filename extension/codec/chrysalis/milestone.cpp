// Wire layout of the TIP-8 milestone and of the TIP-17 receipt and treasury transaction it carries.
#include "codec/chrysalis/wire.hpp"

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

constexpr std::size_t kMaxPublicKeys = 255;

// Reads a u32 length then exactly one payload of `type` filling it; a zero length means none.
template <typename Body, typename DecodeBody>
std::optional<Body> DecodeNestedPayload(ByteReader &reader, const char *length_field,
                                        const char *type_field, std::uint32_t expected,
                                        DecodeBody decode_body)
{
    return reader.ReadLengthPrefixed(length_field,
                                     [&]() -> Body
                                     {
                                         std::size_t start = reader.Offset();
                                         std::uint32_t type = reader.ReadU32(type_field);
                                         if (type != expected)
                                             reader.Fail(type_field, start,
                                                         "expected payload type " +
                                                             std::to_string(expected) + ", got " +
                                                             std::to_string(type));
                                         return decode_body(reader);
                                     });
}

// Writes a u32 length, the payload type and the body.
template <typename EncodeBody>
void EncodeNestedPayload(ByteWriter &writer, std::uint32_t type, EncodeBody encode_body)
{
    std::size_t length_at = writer.ReserveU32();
    writer.WriteU32(type);
    encode_body();
    writer.PatchU32(length_at, static_cast<std::uint32_t>(writer.Size() - length_at - 4));
}

MilestoneEssence DecodeMilestoneEssence(ByteReader &reader)
{
    MilestoneEssence essence;
    essence.index = reader.ReadU32("milestone.index");
    essence.timestamp = reader.ReadU64("milestone.timestamp");
    DecodeParents(reader, "milestone.parents", essence.parents);
    essence.inclusion_merkle_proof = reader.ReadArray<32>("milestone.inclusion_merkle_proof");
    essence.next_pow_score = reader.ReadU32("milestone.next_pow_score");
    std::size_t next_index_at = reader.Offset();
    essence.next_pow_score_milestone_index =
        reader.ReadU32("milestone.next_pow_score_milestone_index");
    // TIP-8: no next PoW score, no index for it; else it takes effect after this milestone.
    if (essence.next_pow_score == 0 && essence.next_pow_score_milestone_index != 0)
        reader.Fail("milestone.next_pow_score_milestone_index", next_index_at,
                    "must be 0 when the next PoW score is 0");
    if (essence.next_pow_score != 0 && essence.next_pow_score_milestone_index <= essence.index)
        reader.Fail("milestone.next_pow_score_milestone_index", next_index_at,
                    "must be larger than the milestone index " + std::to_string(essence.index));
    std::size_t key_count = reader.ReadCountU8("milestone.public_keys.count", 1, kMaxPublicKeys);
    for (std::size_t i = 0; i < key_count; ++i)
    {
        std::size_t start = reader.Offset();
        PublicKey key = reader.ReadArray<32>("milestone.public_keys");
        // TIP-8: the keys are in lexical order and unique.
        if (!essence.public_keys.empty() && !(essence.public_keys.back() < key))
            reader.Fail("milestone.public_keys", start, "keys are not sorted and unique");
        essence.public_keys.push_back(key);
    }
    essence.receipt = DecodeNestedPayload<ReceiptPayload>(
        reader, "milestone.receipt_length", "milestone.receipt.type", payload_type::kReceipt,
        DecodeReceiptBody);
    return essence;
}

} // namespace

MilestonePayload DecodeMilestoneBody(ByteReader &reader)
{
    MilestonePayload payload;
    payload.essence = DecodeMilestoneEssence(reader);
    std::size_t count_at = reader.Offset();
    std::size_t signature_count =
        reader.ReadCountU8("milestone.signatures.count", 1, kMaxPublicKeys);
    if (signature_count != payload.essence.public_keys.size())
        reader.Fail("milestone.signatures.count", count_at,
                    std::to_string(signature_count) + " signatures for " +
                        std::to_string(payload.essence.public_keys.size()) + " public keys");
    for (std::size_t i = 0; i < signature_count; ++i)
        payload.signatures.push_back(reader.ReadArray<64>("milestone.signatures"));
    return payload;
}

ReceiptPayload DecodeReceiptBody(ByteReader &reader)
{
    ReceiptPayload receipt;
    receipt.migrated_at = reader.ReadU32("receipt.migrated_at");
    std::size_t final_at = reader.Offset();
    std::uint8_t final = reader.ReadU8("receipt.final");
    if (final > 1)
        reader.Fail("receipt.final", final_at, "boolean is " + std::to_string(final));
    receipt.final = final == 1;
    std::size_t fund_count =
        reader.ReadCountU16("receipt.funds.count", 1, limits::kMaxMigratedFunds);
    std::uint64_t total = 0; // TIP-17: each deposit at least 1 Mi, all within the supply
    for (std::size_t i = 0; i < fund_count; ++i)
    {
        MigratedFundsEntry entry;
        std::size_t start = reader.Offset();
        entry.tail_transaction_hash = reader.ReadArray<49>("migrated_funds.tail_transaction_hash");
        // TIP-17: entries in lexical order of their bytes with unique tails; the tail leads the
        // entry, so both hold exactly when the tails strictly ascend.
        if (!receipt.funds.empty() &&
            !(receipt.funds.back().tail_transaction_hash < entry.tail_transaction_hash))
            reader.Fail("migrated_funds.tail_transaction_hash", start,
                        "entries are not sorted or a tail repeats");
        entry.address = DecodeAddress(reader, "migrated_funds.address");
        entry.deposit =
            ReadAmount(reader, "migrated_funds.deposit", limits::kMinMigratedDeposit, total);
        receipt.funds.push_back(entry);
    }
    std::size_t length_at = reader.Offset();
    std::optional<TreasuryTransactionPayload> transaction =
        DecodeNestedPayload<TreasuryTransactionPayload>(
            reader, "receipt.transaction_length", "receipt.transaction.type",
            payload_type::kTreasuryTransaction, DecodeTreasuryTransactionBody);
    // TIP-17: a receipt always moves the treasury.
    if (!transaction)
        reader.Fail("receipt.transaction_length", length_at, "a receipt needs a transaction");
    receipt.transaction = *transaction;
    return receipt;
}

TreasuryTransactionPayload DecodeTreasuryTransactionBody(ByteReader &reader)
{
    TreasuryTransactionPayload payload;
    payload.input = DecodeTreasuryInput(reader);
    payload.output = DecodeTreasuryOutput(reader);
    return payload;
}

void EncodeMilestoneEssence(ByteWriter &writer, const MilestoneEssence &essence)
{
    writer.WriteU32(essence.index);
    writer.WriteU64(essence.timestamp);
    EncodeParents(writer, "milestone.parents.count", essence.parents);
    writer.WriteArray(essence.inclusion_merkle_proof);
    writer.WriteU32(essence.next_pow_score);
    writer.WriteU32(essence.next_pow_score_milestone_index);
    writer.WriteCountU8("milestone.public_keys.count", essence.public_keys.size());
    for (const PublicKey &key : essence.public_keys)
        writer.WriteArray(key);
    if (essence.receipt)
        EncodeNestedPayload(writer, payload_type::kReceipt,
                            [&] { EncodeReceiptBody(writer, *essence.receipt); });
    else
        writer.WriteU32(0);
}

void EncodeMilestoneBody(ByteWriter &writer, const MilestonePayload &payload)
{
    EncodeMilestoneEssence(writer, payload.essence);
    writer.WriteCountU8("milestone.signatures.count", payload.signatures.size());
    for (const Signature &signature : payload.signatures)
        writer.WriteArray(signature);
}

void EncodeReceiptBody(ByteWriter &writer, const ReceiptPayload &receipt)
{
    writer.WriteU32(receipt.migrated_at);
    writer.WriteU8(receipt.final ? 1 : 0);
    writer.WriteCountU16("receipt.funds.count", receipt.funds.size());
    for (const MigratedFundsEntry &entry : receipt.funds)
    {
        writer.WriteArray(entry.tail_transaction_hash);
        EncodeAddress(writer, entry.address);
        writer.WriteU64(entry.deposit);
    }
    EncodeNestedPayload(writer, payload_type::kTreasuryTransaction,
                        [&] { EncodeTreasuryTransactionBody(writer, receipt.transaction); });
}

void EncodeTreasuryTransactionBody(ByteWriter &writer, const TreasuryTransactionPayload &payload)
{
    EncodeInput(writer, payload.input);
    EncodeOutput(writer, payload.output);
}

} // namespace permanode::codec::chrysalis
