// Ledger derivations: what a transaction creates and consumes, and the fields ingest indexes.
#pragma once

#include "codec/address.hpp"
#include "codec/output.hpp"
#include "codec/transaction.hpp"
#include "codec/types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace permanode::codec
{

// The searchable fields of one output (the columns of the output tables and their lookups).
struct IndexedFields
{
    OutputType kind = OutputType::kBasic;
    std::uint64_t amount = 0;
    // The owning address: the address unlock condition; for an alias its state controller;
    // for a foundry its immutable alias address.
    std::optional<Address> address;
    std::optional<Address> state_controller; // alias only
    std::optional<Address> governor;         // alias only
    std::optional<Address> sender;
    std::optional<Address> issuer;
    std::optional<Bytes> tag;
    std::optional<Address> storage_deposit_return_address;
    std::optional<std::uint64_t> storage_deposit_return_amount;
    std::optional<std::uint32_t> timelock;
    std::optional<std::uint32_t> expiration;
    std::optional<Address> expiration_return_address;
    std::size_t native_token_count = 0;
    std::vector<TokenId> native_token_ids;
    std::optional<AliasId> alias_id;     // alias outputs, resolved when minted
    std::optional<NftId> nft_id;         // NFT outputs, resolved when minted
    std::optional<FoundryId> foundry_id; // foundry outputs
};

IndexedFields IndexOutput(const Output &output, const OutputId &output_id);

struct CreatedOutput
{
    OutputId output_id;
    Output output;
    IndexedFields fields;
};

// The outputs a transaction creates, in essence order, with their IDs and indexed fields.
std::vector<CreatedOutput> CreatedOutputs(const TransactionPayload &payload,
                                          const TransactionId &transaction_id);
// The outputs a transaction consumes (its UTXO inputs), in essence order.
std::vector<OutputId> ConsumedOutputs(const TransactionPayload &payload);

} // namespace permanode::codec
