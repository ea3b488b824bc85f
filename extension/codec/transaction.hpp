// Transaction payload (TIP-20): essence (inputs, outputs, optional tagged data) plus unlocks.
#pragma once

#include "codec/output.hpp"
#include "codec/reader.hpp"
#include "codec/tagged_data.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace permanode::codec
{

constexpr std::uint32_t kTransactionPayloadType = 6;

// Inputs of a transaction essence are always UTXO inputs (type 0).
using UtxoInput = OutputId;

struct TransactionEssence
{
    std::uint64_t network_id = 0;
    std::vector<UtxoInput> inputs;
    Hash32 inputs_commitment{};
    std::vector<Output> outputs;
    std::optional<TaggedDataPayload> payload;
    bool operator==(const TransactionEssence &o) const
    {
        return network_id == o.network_id && inputs == o.inputs &&
               inputs_commitment == o.inputs_commitment && outputs == o.outputs &&
               payload == o.payload;
    }
};

struct Ed25519Signature
{
    std::array<std::uint8_t, 32> public_key{};
    std::array<std::uint8_t, 64> signature{};
    bool operator==(const Ed25519Signature &o) const
    {
        return public_key == o.public_key && signature == o.signature;
    }
};

struct SignatureUnlock
{
    Ed25519Signature signature;
    bool operator==(const SignatureUnlock &o) const { return signature == o.signature; }
};

// Reference, alias and NFT unlocks point at an earlier unlock by index.
struct ReferenceUnlock
{
    std::uint16_t reference = 0;
    bool operator==(const ReferenceUnlock &o) const { return reference == o.reference; }
};
struct AliasUnlock
{
    std::uint16_t reference = 0;
    bool operator==(const AliasUnlock &o) const { return reference == o.reference; }
};
struct NftUnlock
{
    std::uint16_t reference = 0;
    bool operator==(const NftUnlock &o) const { return reference == o.reference; }
};

// Variant index equals the wire type byte.
using Unlock = std::variant<SignatureUnlock, ReferenceUnlock, AliasUnlock, NftUnlock>;

inline std::uint8_t TypeOf(const Unlock &unlock)
{
    return static_cast<std::uint8_t>(unlock.index());
}

struct TransactionPayload
{
    TransactionEssence essence;
    std::vector<Unlock> unlocks;
    bool operator==(const TransactionPayload &o) const
    {
        return essence == o.essence && unlocks == o.unlocks;
    }
};

// Ed25519 signatures are shared with milestones: type byte 0, public key, signature.
Ed25519Signature DecodeEd25519Signature(ByteReader &reader, const char *field);
void EncodeEd25519Signature(ByteWriter &writer, const Ed25519Signature &signature);

// Reads the body that follows the u32 payload type.
TransactionPayload DecodeTransactionBody(ByteReader &reader);
// Writes the payload including its u32 type.
void EncodeTransaction(ByteWriter &writer, const TransactionPayload &payload);

} // namespace permanode::codec
