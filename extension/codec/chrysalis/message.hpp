// The public face of the Chrysalis (protocol v1) codec: bytes <-> message <-> REST API v1 JSON,
// and the IDs derived by hashing. Decoding throws codec::DecodeError, JSON parsing JsonError.
#pragma once

#include "codec/chrysalis/model.hpp"
#include "codec/types.hpp"

#include <nlohmann/json.hpp>

namespace permanode::codec::chrysalis
{

// Parses and syntactically checks a whole message; rejects trailing bytes.
Message DecodeMessage(ByteSpan bytes);
Bytes EncodeMessage(const Message &message);
// A payload on its own (u32 type first), as milestones.payload stores a milestone's; rejects
// trailing bytes.
Payload DecodePayloadBytes(ByteSpan bytes);

// Message ID: BLAKE2b-256 of the message bytes, nonce included.
MessageId ComputeMessageId(ByteSpan message_bytes);
// Transaction ID: BLAKE2b-256 of the transaction payload bytes, its u32 type included.
TransactionId ComputeTransactionId(const TransactionPayload &payload);
// Milestone ID: BLAKE2b-256 of the milestone essence (index through receipt).
MilestoneId ComputeMilestoneId(const MilestoneEssence &essence);
// Output ID: transaction ID followed by the output index as u16 little endian.
OutputIdBytes ComputeOutputId(const TransactionId &transaction_id, std::uint16_t index);

// What the signatures sign: BLAKE2b-256 of the essence bytes (TIP-7 and TIP-8).
Hash32 TransactionSigningHash(const TransactionEssence &essence);
Hash32 MilestoneSigningHash(const MilestoneEssence &essence);

// Parts in the REST API v1 shape, as ToJson(Message) writes them inside a message: an output
// (GET outputs/{id}), a payload (a receipt in GET receipts).
nlohmann::json ToJson(const Output &output);
nlohmann::json ToJson(const Payload &payload);

// The message as a Chrysalis node's REST API v1 served it (TIP-13): hex without 0x, amounts as
// numbers, network ID and nonce as decimal strings; absent optional parts are left out.
nlohmann::json ToJson(const Message &message);
Message MessageFromJson(const nlohmann::json &json);
// An output in that shape (GET outputs/{id}'s "output").
Output OutputFromJson(const nlohmann::json &json);

// One input, output or unlock on its own, as a transaction serializes it (what the ledger stores
// per part), and a SigLocked output back from such bytes (rejecting trailing bytes).
Bytes EncodeInputBytes(const Input &input);
Bytes EncodeOutputBytes(const Output &output);
Bytes EncodeUnlockBytes(const Unlock &unlock);
Output DecodeTransactionOutputBytes(ByteSpan bytes);

// Bech32 form of an Ed25519 address: type byte 0 then the hash, under "iota" or "atoi". (Text is
// read back by codec::AddressFromBech32, which takes every network's HRP.)
std::string AddressToBech32(const Ed25519Address &address, std::string_view hrp);

} // namespace permanode::codec::chrysalis
