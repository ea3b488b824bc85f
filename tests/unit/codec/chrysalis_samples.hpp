// Hand-built Chrysalis messages for the error and layout tests (no real fixture has these parts).
#pragma once

#include "codec/chrysalis/model.hpp"

namespace permanode::codec::chrysalis::samples
{

template <std::size_t N> std::array<std::uint8_t, N> Filled(std::uint8_t value)
{
    std::array<std::uint8_t, N> out;
    out.fill(value);
    return out;
}

inline Ed25519Address AddressOf(std::uint8_t value)
{
    return Ed25519Address{Filled<32>(value)};
}

// One UTXO input (0x11.., index 1), one dust allowance output of 1 Mi to 0x22.., no essence
// payload, one signature unlock (key 0x33.., signature 0x44..).
inline TransactionPayload DustTransaction()
{
    TransactionPayload payload;
    payload.essence.inputs.push_back(UtxoInput{Filled<32>(0x11), 1});
    payload.essence.outputs.push_back(SigLockedDustAllowanceOutput{AddressOf(0x22), 1000000});
    payload.unlocks.push_back(SignatureUnlock{Filled<32>(0x33), Filled<64>(0x44)});
    return payload;
}

// Input milestone 0x77.., remaining treasury 0x0001020304050607 (within the total supply).
inline TreasuryTransactionPayload TreasuryTransaction()
{
    return TreasuryTransactionPayload{TreasuryInput{Filled<32>(0x77)},
                                      TreasuryOutput{0x0001020304050607}};
}

// Migrated at 42, final, one entry (tail 0x55.., address 0x66.., 1 Mi).
inline ReceiptPayload Receipt()
{
    ReceiptPayload receipt;
    receipt.migrated_at = 42;
    receipt.final = true;
    receipt.funds.push_back(MigratedFundsEntry{Filled<49>(0x55), AddressOf(0x66), 1000000});
    receipt.transaction = TreasuryTransaction();
    return receipt;
}

// Milestone 7 at 1620000000 with the parents of MessageWith (0x01.., 0x02..), no next PoW
// score, keys 0x0b.. and 0x0c.. signed by 0x0d.. and 0x0e.., and `receipt` if one is given.
inline MilestonePayload Milestone(std::optional<ReceiptPayload> receipt = std::nullopt)
{
    MilestonePayload milestone;
    milestone.essence.index = 7;
    milestone.essence.timestamp = 1620000000;
    milestone.essence.parents = {Filled<32>(0x01), Filled<32>(0x02)};
    milestone.essence.public_keys = {Filled<32>(0x0b), Filled<32>(0x0c)};
    milestone.essence.receipt = std::move(receipt);
    milestone.signatures = {Filled<64>(0x0d), Filled<64>(0x0e)};
    return milestone;
}

// Network ID 0x1122334455667788, parents 0x01.. and 0x02.., nonce 0x0807060504030201.
inline Message MessageWith(Payload payload)
{
    Message message;
    message.network_id = 0x1122334455667788;
    message.parents = {Filled<32>(0x01), Filled<32>(0x02)};
    message.payload = std::move(payload);
    message.nonce = 0x0807060504030201;
    return message;
}

} // namespace permanode::codec::chrysalis::samples
