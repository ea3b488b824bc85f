// Chrysalis (protocol v1) message model: TIP-6 message and indexation, TIP-7 transaction, TIP-8
// milestone, TIP-15 dust allowance output, TIP-17 receipt and treasury transaction.
#pragma once

#include "codec/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace permanode::codec::chrysalis
{

using MessageId = Hash32;
using PublicKey = std::array<std::uint8_t, 32>;
using Signature = std::array<std::uint8_t, 64>;
// A legacy (trinary network) transaction hash in its 49-byte binary form.
using LegacyTailHash = std::array<std::uint8_t, 49>;

namespace limits
{
constexpr std::size_t kMaxMessageLength = 32768;
constexpr std::size_t kMinParents = 1;
constexpr std::size_t kMaxParents = 8;
constexpr std::size_t kMaxInputs = 127;
constexpr std::size_t kMaxOutputs = 127;
constexpr std::size_t kMaxIndexLength = 64;
constexpr std::size_t kMaxMigratedFunds = 127;
// Every IOTA token there is (TIP-7): no amount, nor any sum of amounts, exceeds it.
constexpr std::uint64_t kTotalSupply = 2'779'530'283'277'761;
// TIP-15: a dust allowance deposit, and TIP-17: a migrated deposit, is at least 1 Mi.
constexpr std::uint64_t kMinDustAllowance = 1'000'000;
constexpr std::uint64_t kMinMigratedDeposit = 1'000'000;
} // namespace limits

// The only address kind: the BLAKE2b-256 hash of an Ed25519 public key (type 0).
struct Ed25519Address
{
    Hash32 hash{};
    bool operator==(const Ed25519Address &o) const { return hash == o.hash; }
};

struct UtxoInput // type 0
{
    TransactionId transaction_id{};
    std::uint16_t index = 0;
    bool operator==(const UtxoInput &o) const
    {
        return transaction_id == o.transaction_id && index == o.index;
    }
};

struct TreasuryInput // type 1
{
    MilestoneId milestone_id{};
    bool operator==(const TreasuryInput &o) const { return milestone_id == o.milestone_id; }
};

// Variant index equals the wire type.
using Input = std::variant<UtxoInput, TreasuryInput>;

struct SigLockedSingleOutput // type 0
{
    Ed25519Address address;
    std::uint64_t amount = 0;
    bool operator==(const SigLockedSingleOutput &o) const
    {
        return address == o.address && amount == o.amount;
    }
};

struct SigLockedDustAllowanceOutput // type 1
{
    Ed25519Address address;
    std::uint64_t amount = 0;
    bool operator==(const SigLockedDustAllowanceOutput &o) const
    {
        return address == o.address && amount == o.amount;
    }
};

struct TreasuryOutput // type 2
{
    std::uint64_t amount = 0;
    bool operator==(const TreasuryOutput &o) const { return amount == o.amount; }
};

using Output = std::variant<SigLockedSingleOutput, SigLockedDustAllowanceOutput, TreasuryOutput>;

struct SignatureUnlock // type 0, holding an Ed25519 signature (type 0)
{
    PublicKey public_key{};
    Signature signature{};
    bool operator==(const SignatureUnlock &o) const
    {
        return public_key == o.public_key && signature == o.signature;
    }
};

struct ReferenceUnlock // type 1
{
    std::uint16_t reference = 0;
    bool operator==(const ReferenceUnlock &o) const { return reference == o.reference; }
};

using Unlock = std::variant<SignatureUnlock, ReferenceUnlock>;

struct IndexationPayload // type 2
{
    Bytes index; // 1..64 bytes
    Bytes data;
    bool operator==(const IndexationPayload &o) const { return index == o.index && data == o.data; }
};

struct TransactionEssence // essence type 0
{
    std::vector<Input> inputs;
    std::vector<Output> outputs;
    std::optional<IndexationPayload> payload;
    bool operator==(const TransactionEssence &o) const
    {
        return inputs == o.inputs && outputs == o.outputs && payload == o.payload;
    }
};

struct TransactionPayload // type 0
{
    TransactionEssence essence;
    std::vector<Unlock> unlocks;
    bool operator==(const TransactionPayload &o) const
    {
        return essence == o.essence && unlocks == o.unlocks;
    }
};

struct TreasuryTransactionPayload // type 4
{
    TreasuryInput input;
    TreasuryOutput output;
    bool operator==(const TreasuryTransactionPayload &o) const
    {
        return input == o.input && output == o.output;
    }
};

struct MigratedFundsEntry
{
    LegacyTailHash tail_transaction_hash{};
    Ed25519Address address;
    std::uint64_t deposit = 0;
    bool operator==(const MigratedFundsEntry &o) const
    {
        return tail_transaction_hash == o.tail_transaction_hash && address == o.address &&
               deposit == o.deposit;
    }
};

struct ReceiptPayload // type 3
{
    std::uint32_t migrated_at = 0;
    bool final = false;
    std::vector<MigratedFundsEntry> funds;
    TreasuryTransactionPayload transaction;
    bool operator==(const ReceiptPayload &o) const
    {
        return migrated_at == o.migrated_at && final == o.final && funds == o.funds &&
               transaction == o.transaction;
    }
};

// The signed part of a milestone: everything from the index through the receipt.
struct MilestoneEssence
{
    std::uint32_t index = 0;
    std::uint64_t timestamp = 0;
    Parents parents; // 1..8, sorted and unique
    Hash32 inclusion_merkle_proof{};
    std::uint32_t next_pow_score = 0;
    std::uint32_t next_pow_score_milestone_index = 0;
    std::vector<PublicKey> public_keys;
    std::optional<ReceiptPayload> receipt;
    bool operator==(const MilestoneEssence &o) const
    {
        return index == o.index && timestamp == o.timestamp && parents == o.parents &&
               inclusion_merkle_proof == o.inclusion_merkle_proof &&
               next_pow_score == o.next_pow_score &&
               next_pow_score_milestone_index == o.next_pow_score_milestone_index &&
               public_keys == o.public_keys && receipt == o.receipt;
    }
};

struct MilestonePayload // type 1
{
    MilestoneEssence essence;
    std::vector<Signature> signatures; // one per public key, in key order
    bool operator==(const MilestonePayload &o) const
    {
        return essence == o.essence && signatures == o.signatures;
    }
};

// Variant index equals the wire payload type.
using Payload = std::variant<TransactionPayload, MilestonePayload, IndexationPayload,
                             ReceiptPayload, TreasuryTransactionPayload>;

struct Message
{
    std::uint64_t network_id = 0;
    Parents parents; // 1..8, sorted and unique
    std::optional<Payload> payload;
    std::uint64_t nonce = 0;
    bool operator==(const Message &o) const
    {
        return network_id == o.network_id && parents == o.parents && payload == o.payload &&
               nonce == o.nonce;
    }
};

} // namespace permanode::codec::chrysalis
