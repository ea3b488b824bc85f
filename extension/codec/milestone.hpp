// Milestone payload (TIP-29) with its receipt (TIP-34) and protocol parameters options.
#pragma once

#include "codec/address.hpp"
#include "codec/protocol_parameters.hpp"
#include "codec/reader.hpp"
#include "codec/transaction.hpp"
#include "codec/treasury.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace permanode::codec
{

constexpr std::uint32_t kMilestonePayloadType = 7;

struct MigratedFundsEntry
{
    std::array<std::uint8_t, 49> tail_transaction_hash{}; // t5b1-encoded legacy hash
    Address address;                                      // always Ed25519
    std::uint64_t deposit = 0;
    bool operator==(const MigratedFundsEntry &o) const
    {
        return tail_transaction_hash == o.tail_transaction_hash && address == o.address &&
               deposit == o.deposit;
    }
};

struct ReceiptMilestoneOption
{
    std::uint32_t migrated_at = 0;
    bool final = false;
    std::vector<MigratedFundsEntry> funds;
    TreasuryTransactionPayload transaction;
    bool operator==(const ReceiptMilestoneOption &o) const
    {
        return migrated_at == o.migrated_at && final == o.final && funds == o.funds &&
               transaction == o.transaction;
    }
};

// TIP-29 protocol parameters option. `params` is what the milestone signs and what the node API
// shows (hex): TIP-29, iota.go and iota.js all treat it as an opaque (uint16) byte array of at most
// Max Metadata Length bytes, so a milestone whose params are not a well-formed parameters blob is
// still a valid milestone and still decodes here. `parameters` is the typed view of `params`: the
// decoder and the JSON reader set it exactly when `params` decodes strictly (see
// DecodeProtocolParameters), and the encoder rejects an option where the two disagree.
struct ProtocolParamsMilestoneOption
{
    std::uint32_t target_milestone_index = 0;
    std::uint8_t protocol_version = 0;
    Bytes params;                                 // serialized protocol parameters (wire bytes)
    std::optional<ProtocolParameters> parameters; // decoded `params`, when well formed
    // Compares the wire fields; `parameters` is derived from `params`.
    bool operator==(const ProtocolParamsMilestoneOption &o) const
    {
        return target_milestone_index == o.target_milestone_index &&
               protocol_version == o.protocol_version && params == o.params;
    }
};

// Builds an option carrying `parameters` (both `params` and `parameters` filled in).
ProtocolParamsMilestoneOption MakeProtocolParamsOption(std::uint32_t target_milestone_index,
                                                       std::uint8_t protocol_version,
                                                       const ProtocolParameters &parameters);
// Builds an option from serialized params, decoding them into `parameters` when well formed.
ProtocolParamsMilestoneOption MakeProtocolParamsOption(std::uint32_t target_milestone_index,
                                                       std::uint8_t protocol_version, Bytes params);

// Variant index equals the wire type byte.
using MilestoneOption = std::variant<ReceiptMilestoneOption, ProtocolParamsMilestoneOption>;

inline std::uint8_t TypeOf(const MilestoneOption &option)
{
    return static_cast<std::uint8_t>(option.index());
}

struct MilestoneEssence
{
    std::uint32_t index = 0;
    std::uint32_t timestamp = 0;
    std::uint8_t protocol_version = 0;
    MilestoneId previous_milestone_id{};
    Parents parents; // 1..8, sorted and unique
    Hash32 inclusion_merkle_root{};
    Hash32 applied_merkle_root{};
    Bytes metadata;
    std::vector<MilestoneOption> options;
    bool operator==(const MilestoneEssence &o) const
    {
        return index == o.index && timestamp == o.timestamp &&
               protocol_version == o.protocol_version &&
               previous_milestone_id == o.previous_milestone_id && parents == o.parents &&
               inclusion_merkle_root == o.inclusion_merkle_root &&
               applied_merkle_root == o.applied_merkle_root && metadata == o.metadata &&
               options == o.options;
    }
};

struct MilestonePayload
{
    MilestoneEssence essence;
    std::vector<Ed25519Signature> signatures;
    bool operator==(const MilestonePayload &o) const
    {
        return essence == o.essence && signatures == o.signatures;
    }
};

// Serialized size of one signature entry (type byte, public key, signature).
constexpr std::size_t kEd25519SignatureSize = 1 + 32 + 64;

// Reads 1..8 parents that are sorted and unique (shared with blocks).
void DecodeParents(ByteReader &reader, const char *field, Parents &parents);

// Reads the body that follows the u32 payload type.
MilestonePayload DecodeMilestoneBody(ByteReader &reader);
// Writes the payload including its u32 type.
void EncodeMilestone(ByteWriter &writer, const MilestonePayload &payload);
// Writes only the essence: the bytes a milestone ID hashes and its signatures sign.
void EncodeMilestoneEssence(ByteWriter &writer, const MilestoneEssence &essence);

} // namespace permanode::codec
