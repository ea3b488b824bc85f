// Message -> JSON in the REST API v1 shape (TIP-13): plain hex, numeric amounts, and the 64-bit
// network ID and nonce as decimal strings because JavaScript numbers cannot hold them.
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

using nlohmann::json;

// API v1 hex has no 0x prefix.
std::string Hex(ByteSpan bytes)
{
    return ToHex(bytes).substr(2);
}
template <std::size_t N> std::string Hex(const std::array<std::uint8_t, N> &bytes)
{
    return Hex(ByteSpan(bytes.data(), N));
}

json HexList(const std::vector<Hash32> &ids)
{
    json list = json::array();
    for (const Hash32 &id : ids)
        list.push_back(Hex(id));
    return list;
}

json AddressJson(const Ed25519Address &address)
{
    return {{"type", 0}, {"address", Hex(address.hash)}};
}

json InputJson(const Input &input)
{
    if (const auto *utxo = std::get_if<UtxoInput>(&input))
        return {{"type", 0},
                {"transactionId", Hex(utxo->transaction_id)},
                {"transactionOutputIndex", utxo->index}};
    return {{"type", 1}, {"milestoneId", Hex(std::get<TreasuryInput>(input).milestone_id)}};
}

json OutputJson(const Output &output)
{
    if (const auto *single = std::get_if<SigLockedSingleOutput>(&output))
        return {{"type", 0}, {"address", AddressJson(single->address)}, {"amount", single->amount}};
    if (const auto *dust = std::get_if<SigLockedDustAllowanceOutput>(&output))
        return {{"type", 1}, {"address", AddressJson(dust->address)}, {"amount", dust->amount}};
    return {{"type", 2}, {"amount", std::get<TreasuryOutput>(output).amount}};
}

json UnlockJson(const Unlock &unlock)
{
    if (const auto *signature = std::get_if<SignatureUnlock>(&unlock))
        return {{"type", 0},
                {"signature",
                 {{"type", 0},
                  {"publicKey", Hex(signature->public_key)},
                  {"signature", Hex(signature->signature)}}}};
    return {{"type", 1}, {"reference", std::get<ReferenceUnlock>(unlock).reference}};
}

json IndexationJson(const IndexationPayload &payload)
{
    return {{"type", 2}, {"index", Hex(payload.index)}, {"data", Hex(payload.data)}};
}

json TransactionJson(const TransactionPayload &payload)
{
    json essence = {{"type", 0}, {"inputs", json::array()}, {"outputs", json::array()}};
    for (const Input &input : payload.essence.inputs)
        essence["inputs"].push_back(InputJson(input));
    for (const Output &output : payload.essence.outputs)
        essence["outputs"].push_back(OutputJson(output));
    if (payload.essence.payload)
        essence["payload"] = IndexationJson(*payload.essence.payload);
    json unlocks = json::array();
    for (const Unlock &unlock : payload.unlocks)
        unlocks.push_back(UnlockJson(unlock));
    return {{"type", 0}, {"essence", essence}, {"unlockBlocks", unlocks}};
}

json TreasuryTransactionJson(const TreasuryTransactionPayload &payload)
{
    return {
        {"type", 4}, {"input", InputJson(payload.input)}, {"output", OutputJson(payload.output)}};
}

json ReceiptJson(const ReceiptPayload &receipt)
{
    json funds = json::array();
    for (const MigratedFundsEntry &entry : receipt.funds)
        funds.push_back({{"tailTransactionHash", Hex(entry.tail_transaction_hash)},
                         {"address", AddressJson(entry.address)},
                         {"deposit", entry.deposit}});
    return {{"type", 3},
            {"migratedAt", receipt.migrated_at},
            {"final", receipt.final},
            {"funds", funds},
            {"transaction", TreasuryTransactionJson(receipt.transaction)}};
}

json MilestoneJson(const MilestonePayload &payload)
{
    const MilestoneEssence &essence = payload.essence;
    json keys = json::array();
    for (const PublicKey &key : essence.public_keys)
        keys.push_back(Hex(key));
    json signatures = json::array();
    for (const Signature &signature : payload.signatures)
        signatures.push_back(Hex(signature));
    json out = {{"type", 1},
                {"index", essence.index},
                {"timestamp", essence.timestamp},
                {"parentMessageIds", HexList(essence.parents)},
                {"inclusionMerkleProof", Hex(essence.inclusion_merkle_proof)},
                {"nextPoWScore", essence.next_pow_score},
                {"nextPoWScoreMilestoneIndex", essence.next_pow_score_milestone_index},
                {"publicKeys", keys},
                {"signatures", signatures}};
    if (essence.receipt)
        out["receipt"] = ReceiptJson(*essence.receipt);
    return out;
}

json PayloadJson(const Payload &payload)
{
    if (const auto *transaction = std::get_if<TransactionPayload>(&payload))
        return TransactionJson(*transaction);
    if (const auto *milestone = std::get_if<MilestonePayload>(&payload))
        return MilestoneJson(*milestone);
    if (const auto *indexation = std::get_if<IndexationPayload>(&payload))
        return IndexationJson(*indexation);
    if (const auto *receipt = std::get_if<ReceiptPayload>(&payload))
        return ReceiptJson(*receipt);
    return TreasuryTransactionJson(std::get<TreasuryTransactionPayload>(payload));
}

} // namespace

nlohmann::json ToJson(const Output &output)
{
    return OutputJson(output);
}

nlohmann::json ToJson(const Payload &payload)
{
    return PayloadJson(payload);
}

nlohmann::json ToJson(const Message &message)
{
    json out = {{"networkId", std::to_string(message.network_id)},
                {"parentMessageIds", HexList(message.parents)}};
    if (message.payload)
        out["payload"] = PayloadJson(*message.payload);
    out["nonce"] = std::to_string(message.nonce);
    return out;
}

} // namespace permanode::codec::chrysalis
