// Internal: the binary layout of each Chrysalis part, shared by message.cpp and ids.cpp.
#pragma once

#include "codec/chrysalis/model.hpp"
#include "codec/reader.hpp"
#include "codec/writer.hpp"

#include <cstdint>

namespace permanode::codec::chrysalis
{

namespace payload_type
{
constexpr std::uint32_t kTransaction = 0;
constexpr std::uint32_t kMilestone = 1;
constexpr std::uint32_t kIndexation = 2;
constexpr std::uint32_t kReceipt = 3;
constexpr std::uint32_t kTreasuryTransaction = 4;
} // namespace payload_type

// Reads a u32 type then that payload's body, any of the five (a message takes three of them).
Payload DecodePayload(ByteReader &reader);
// Writes the u32 type and body.
void EncodePayload(ByteWriter &writer, const Payload &payload);
// A u8-counted list of 32-byte IDs, 1..8 long, strictly ascending.
void DecodeParents(ByteReader &reader, const char *field, Parents &parents);
void EncodeParents(ByteWriter &writer, const char *field, const Parents &parents);

// In transaction.cpp.
TransactionPayload DecodeTransactionBody(ByteReader &reader);
IndexationPayload DecodeIndexationBody(ByteReader &reader);
TreasuryInput DecodeTreasuryInput(ByteReader &reader);
TreasuryOutput DecodeTreasuryOutput(ByteReader &reader);
Ed25519Address DecodeAddress(ByteReader &reader, const char *field);
// Reads a u64 amount of at least `minimum` and adds it to `total`, which must stay within the
// total supply.
std::uint64_t ReadAmount(ByteReader &reader, const char *field, std::uint64_t minimum,
                         std::uint64_t &total);
void EncodeTransactionEssence(ByteWriter &writer, const TransactionEssence &essence);
void EncodeTransactionBody(ByteWriter &writer, const TransactionPayload &payload);
void EncodeIndexationBody(ByteWriter &writer, const IndexationPayload &payload);
// A SigLocked output (type 0 or 1): what a transaction may create. Amounts are above zero, a
// dust allowance at least 1 Mi (TIP-15), and `total` adds them up within the total supply.
Output DecodeTransactionOutput(ByteReader &reader, std::uint64_t &total);
void EncodeInput(ByteWriter &writer, const Input &input);
void EncodeUnlock(ByteWriter &writer, const Unlock &unlock);
void EncodeOutput(ByteWriter &writer, const Output &output);
void EncodeAddress(ByteWriter &writer, const Ed25519Address &address);

// In milestone.cpp.
MilestonePayload DecodeMilestoneBody(ByteReader &reader);
ReceiptPayload DecodeReceiptBody(ByteReader &reader);
TreasuryTransactionPayload DecodeTreasuryTransactionBody(ByteReader &reader);
void EncodeMilestoneEssence(ByteWriter &writer, const MilestoneEssence &essence);
void EncodeMilestoneBody(ByteWriter &writer, const MilestonePayload &payload);
void EncodeReceiptBody(ByteWriter &writer, const ReceiptPayload &payload);
void EncodeTreasuryTransactionBody(ByteWriter &writer, const TreasuryTransactionPayload &payload);

} // namespace permanode::codec::chrysalis
