// Hand-built blocks that exercise every structure the fixtures lack (foundries, receipts, ...).
#pragma once

#include "codec/block.hpp"

#include <vector>

namespace permanode::codec::samples
{

inline Hash32 Filled(std::uint8_t value)
{
    Hash32 id;
    id.fill(value);
    return id;
}

inline Address Ed25519(std::uint8_t value)
{
    return Address{AddressType::kEd25519, Filled(value)};
}
inline Address Alias(std::uint8_t value)
{
    return Address{AddressType::kAlias, Filled(value)};
}
inline Address Nft(std::uint8_t value)
{
    return Address{AddressType::kNft, Filled(value)};
}

inline U256 Small(std::uint64_t value)
{
    U256 out{};
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<std::uint8_t>(value >> (8 * i));
    return out;
}

inline Block TransactionWithEveryOutputKind()
{
    TokenId token{};
    token[0] = 8;
    token[37] = 0;

    BasicOutput basic;
    basic.amount = 1000000;
    basic.native_tokens = {NativeToken{token, Small(123456789)}};
    basic.unlock_conditions = {
        AddressUnlockCondition{Ed25519(1)}, StorageDepositReturnUnlockCondition{Ed25519(2), 42600},
        TimelockUnlockCondition{1664385906}, ExpirationUnlockCondition{Nft(3), 1700000000}};
    basic.features = {SenderFeature{Alias(4)}, MetadataFeature{{1, 2, 3}},
                      TagFeature{{'t', 'a', 'g'}}};

    AliasOutput alias;
    alias.amount = 50000;
    alias.alias_id = Filled(5);
    alias.state_index = 3;
    alias.state_metadata = {0xde, 0xad};
    alias.foundry_counter = 1;
    alias.unlock_conditions = {StateControllerAddressUnlockCondition{Ed25519(6)},
                               GovernorAddressUnlockCondition{Ed25519(7)}};
    alias.features = {SenderFeature{Ed25519(6)}, MetadataFeature{{9}}};
    alias.immutable_features = {IssuerFeature{Ed25519(8)}, MetadataFeature{{10}}};

    FoundryOutput foundry;
    foundry.amount = 60000;
    foundry.serial_number = 1;
    foundry.token_scheme.minted_tokens = Small(1000);
    foundry.token_scheme.melted_tokens = Small(0);
    foundry.token_scheme.maximum_supply.fill(0xff);
    foundry.unlock_conditions = {ImmutableAliasAddressUnlockCondition{Alias(5)}};
    foundry.features = {MetadataFeature{{11}}};
    foundry.immutable_features = {MetadataFeature{{12}}};

    NftOutput nft;
    nft.amount = 70000;
    nft.unlock_conditions = {AddressUnlockCondition{Alias(5)}};
    nft.immutable_features = {IssuerFeature{Nft(9)}, MetadataFeature{{'{', '}'}}};

    TransactionPayload transaction;
    transaction.essence.network_id = 14364762045254553490ull;
    transaction.essence.inputs = {OutputId{Filled(20), 0}, OutputId{Filled(21), 5},
                                  OutputId{Filled(22), 127}, OutputId{Filled(23), 1}};
    transaction.essence.inputs_commitment = Filled(24);
    transaction.essence.outputs = {basic, alias, foundry, nft};
    transaction.essence.payload = TaggedDataPayload{{'i', 'n'}, {'n', 'e', 'r'}};
    Ed25519Signature signature;
    signature.public_key = Filled(25);
    signature.signature.fill(26);
    transaction.unlocks = {SignatureUnlock{signature}, ReferenceUnlock{0}, AliasUnlock{1},
                           NftUnlock{2}};

    Block block;
    block.parents = {Filled(1), Filled(2), Filled(3)};
    block.payload = transaction;
    block.nonce = 18446744073709551615ull;
    return block;
}

inline Block MilestoneWithOptions()
{
    MilestonePayload milestone;
    MilestoneEssence &essence = milestone.essence;
    essence.index = 17341;
    essence.timestamp = 1664385916;
    essence.protocol_version = 2;
    essence.previous_milestone_id = Filled(30);
    essence.parents = {Filled(31), Filled(32)};
    essence.inclusion_merkle_root = Filled(33);
    essence.applied_merkle_root = Filled(34);
    essence.metadata = {'m', 'e', 't', 'a'};

    ReceiptMilestoneOption receipt;
    receipt.migrated_at = 4000000;
    receipt.final = true;
    MigratedFundsEntry entry;
    entry.tail_transaction_hash.fill(35);
    entry.address = Ed25519(36);
    entry.deposit = 1000000;
    receipt.funds = {entry};
    receipt.transaction.input_milestone_id = Filled(37);
    receipt.transaction.output.amount = 2779530283277761ull;

    ProtocolParamsMilestoneOption params;
    params.target_milestone_index = 17350;
    params.protocol_version = 3;
    params.params = {1, 2, 3, 4};

    essence.options = {receipt, params};
    Ed25519Signature signature;
    signature.public_key = Filled(38);
    signature.signature.fill(39);
    milestone.signatures = {signature, signature};

    Block block;
    block.parents = {Filled(31), Filled(32)};
    block.payload = milestone;
    block.nonce = 0;
    return block;
}

// The Shimmer protocol parameters (TIP-32 values, as in the fixtures' milestone_data).
inline ProtocolParameters ShimmerParameters()
{
    ProtocolParameters parameters;
    parameters.version = 2;
    parameters.network_name = "shimmer";
    parameters.bech32_hrp = "smr";
    parameters.min_pow_score = 1500;
    parameters.below_max_depth = 15;
    parameters.rent_structure = RentStructure{100, 1, 10};
    parameters.token_supply = 1813620509061365ull;
    return parameters;
}

// A milestone announcing new protocol parameters (a well-formed TIP-32 blob in its option).
inline Block MilestoneWithProtocolParameters()
{
    MilestonePayload milestone;
    MilestoneEssence &essence = milestone.essence;
    essence.index = 17341;
    essence.timestamp = 1664385916;
    essence.protocol_version = 2;
    essence.previous_milestone_id = Filled(40);
    essence.parents = {Filled(41)};
    essence.inclusion_merkle_root = Filled(42);
    essence.applied_merkle_root = Filled(43);
    ProtocolParameters next = ShimmerParameters();
    next.version = 3;
    next.min_pow_score = 1000;
    essence.options = {MakeProtocolParamsOption(17350, 3, next)};
    Ed25519Signature signature;
    signature.public_key = Filled(44);
    signature.signature.fill(45);
    milestone.signatures = {signature};

    Block block;
    block.parents = {Filled(41)};
    block.payload = milestone;
    block.nonce = 5;
    return block;
}

inline Block WithoutPayload()
{
    Block block;
    block.parents = {Filled(1)};
    block.nonce = 99;
    return block;
}

inline std::vector<Block> All()
{
    return {TransactionWithEveryOutputKind(), MilestoneWithOptions(),
            MilestoneWithProtocolParameters(), WithoutPayload()};
}

} // namespace permanode::codec::samples
