// REST API v1 JSON of Chrysalis messages, outputs, receipts and the treasury.
#include "routes/chrysalis_render.hpp"

#include <array>
#include <cstring>

#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "server/json_errors.hpp"

namespace permanode::http
{
namespace
{

namespace chrysalis = codec::chrysalis;

codec::ByteSpan SpanOf(const std::string &raw)
{
    return codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(raw.data()), raw.size());
}

// Stored bytes that do not decode mean a damaged archive, not a bad request.
template <typename Fn> auto Decode(const char *what, Fn &&fn) -> decltype(fn())
{
    try
    {
        return fn();
    }
    catch (const codec::DecodeError &e)
    {
        throw HttpError(500, std::string("stored ") + what + " does not decode: " + e.what());
    }
}

chrysalis::MilestonePayload MilestoneOf(const client::ReceiptRow &row)
{
    auto payload = Decode("milestone payload",
                          [&] { return chrysalis::DecodePayloadBytes(SpanOf(row.payload)); });
    const auto *milestone = std::get_if<chrysalis::MilestonePayload>(&payload);
    if (milestone == nullptr || !milestone->essence.receipt)
    {
        throw HttpError(500, "stored milestone " + std::to_string(row.milestone_index) +
                                 " carries no receipt");
    }
    return *milestone;
}

const char *InclusionStateName(std::int16_t state)
{
    switch (state)
    {
        case 1:
            return "included";
        case 2:
            return "conflicting";
        default:
            return "noTransaction";
    }
}

} // namespace

std::string PlainHex(const std::string &hex)
{
    return hex.rfind("0x", 0) == 0 ? hex.substr(2) : hex;
}

chrysalis::Message DecodeStoredMessage(const client::BlockRow &row)
{
    return Decode("message", [&] { return chrysalis::DecodeMessage(SpanOf(row.raw)); });
}

nlohmann::json ChrysalisMessageJson(const client::BlockRow &row)
{
    return chrysalis::ToJson(DecodeStoredMessage(row));
}

nlohmann::json ChrysalisMetadataJson(const client::BlockRow &row)
{
    chrysalis::Message message = DecodeStoredMessage(row);
    nlohmann::json parents = nlohmann::json::array();
    for (const auto &parent : message.parents)
    {
        parents.push_back(codec::ToHex(parent).substr(2));
    }
    // A message a milestone referenced was solid; Hornet reports solidity, referencing
    // milestone and inclusion state, and promote/reattach advice only for the others.
    nlohmann::json metadata = {{"messageId", PlainHex(row.block_id)},
                               {"parentMessageIds", parents},
                               {"isSolid", row.is_solid || row.milestone_index.has_value()}};
    if (row.milestone_index)
    {
        metadata["referencedByMilestoneIndex"] = *row.milestone_index;
        if (message.payload)
        {
            if (const auto *milestone = std::get_if<chrysalis::MilestonePayload>(&*message.payload))
            {
                metadata["milestoneIndex"] = milestone->essence.index;
            }
        }
        std::int16_t state = row.inclusion_state.value_or(0);
        metadata["ledgerInclusionState"] = InclusionStateName(state);
        if (state == 2 && row.conflict_reason && *row.conflict_reason != 0)
        {
            metadata["conflictReason"] = *row.conflict_reason;
        }
    }
    else
    {
        metadata["shouldPromote"] = row.should_promote.value_or(false);
        metadata["shouldReattach"] = row.should_reattach.value_or(false);
    }
    return metadata;
}

nlohmann::json ChrysalisOutputJson(const client::OutputRow &output)
{
    // The output ID is the transaction ID followed by the index, u16 little endian.
    auto id = codec::FromHex(output.output_id);
    if (!id || id->size() != 34)
    {
        throw HttpError(500, "stored output ID " + output.output_id + " is malformed");
    }
    auto decoded = Decode("output", [&]
                          { return chrysalis::DecodeTransactionOutputBytes(SpanOf(output.raw)); });
    nlohmann::json body = {{"messageId", PlainHex(output.block_id)},
                           {"transactionId", PlainHex(output.output_id.substr(0, 66))},
                           {"outputIndex", (*id)[32] | ((*id)[33] << 8)},
                           {"isSpent", output.is_spent},
                           {"output", chrysalis::ToJson(decoded)},
                           {"ledgerIndex", output.ledger_index}};
    if (output.is_spent)
    {
        body["milestoneIndexSpent"] = output.milestone_index_spent;
        body["transactionIdSpent"] = PlainHex(output.transaction_id_spent);
    }
    return body;
}

nlohmann::json ReceiptTupleJson(const client::ReceiptRow &row)
{
    chrysalis::MilestonePayload milestone = MilestoneOf(row);
    return {{"milestoneIndex", row.milestone_index},
            {"receipt", chrysalis::ToJson(chrysalis::Payload(*milestone.essence.receipt))}};
}

nlohmann::json TreasuryJson(const client::ReceiptRow &row)
{
    // The treasury output a receipt's transaction makes is named by the receipt's milestone.
    chrysalis::MilestonePayload milestone = MilestoneOf(row);
    return {{"milestoneId", PlainHex(row.milestone_id)},
            {"amount", milestone.essence.receipt->transaction.output.amount}};
}

std::string NetworkName(std::uint64_t network_id)
{
    static const std::array<const char *, 6> kNames = {
        "chrysalis-mainnet", "chrysalis-devnet", "testnet7", "testnet6", "testnet5", "testnet4"};
    for (const char *name : kNames)
    {
        codec::Hash32 hash = codec::Blake2b256(
            codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(name), std::strlen(name)));
        std::uint64_t id = 0;
        for (int i = 7; i >= 0; i--)
        {
            id = id << 8 | hash[i];
        }
        if (id == network_id)
        {
            return name;
        }
    }
    return std::to_string(network_id);
}

} // namespace permanode::http
