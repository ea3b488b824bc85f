// Identifiers derived by hashing (BLAKE2b-256 via libsodium) or by concatenation (TIP-18/20/24/29).
#pragma once

#include "codec/address.hpp"
#include "codec/milestone.hpp"
#include "codec/output.hpp"
#include "codec/transaction.hpp"
#include "codec/types.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace permanode::codec
{

Hash32 Blake2b256(ByteSpan bytes);
// The same over the parts one after another, without joining them first.
Hash32 Blake2b256(std::initializer_list<ByteSpan> parts);

// Block ID: hash of the whole serialized block, nonce included.
BlockId ComputeBlockId(ByteSpan block_bytes);
// Transaction ID: hash of the serialized transaction payload (type, essence and unlocks).
TransactionId ComputeTransactionId(const TransactionPayload &payload);
// Milestone ID: hash of the serialized milestone essence.
MilestoneId ComputeMilestoneId(const MilestoneEssence &essence);

OutputIdBytes ToBytes(const OutputId &output_id);
OutputId OutputIdFromBytes(const OutputIdBytes &bytes);

// Alias and NFT IDs: hash of the output ID that created the chain.
Hash32 ChainIdFromOutputId(const OutputId &output_id);
// The alias/NFT ID an output belongs to: its stored ID, or the derived one when it is all zero.
AliasId ResolveAliasId(const AliasOutput &output, const OutputId &output_id);
NftId ResolveNftId(const NftOutput &output, const OutputId &output_id);

// Foundry ID: alias address (type + 32 bytes), u32 serial number, u8 token scheme type.
FoundryId ComputeFoundryId(const AliasId &alias_id, std::uint32_t serial_number,
                           std::uint8_t token_scheme_type = 0);
// The foundry's ID from its immutable alias unlock condition; nullopt if it has none.
std::optional<FoundryId> FoundryIdOf(const FoundryOutput &output);

} // namespace permanode::codec
