// Derivation of a Chrysalis milestone's rows (protocol v1 messages): the same MilestoneRows as a
// Stardust cone, with SigLocked outputs marked for legacy_outputs. See derive.hpp.
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/ids.hpp"
#include "ledger/derive.hpp"

#include <string>

namespace permanode::ledger
{
namespace
{

namespace chrysalis = codec::chrysalis;

// Payload kinds as messages.variant names them (Stardust's names where the kinds are the same).
const char *VariantOf(const chrysalis::Message &message)
{
    if (!message.payload)
        return nullptr;
    switch (message.payload->index())
    {
        case 0:
            return "transaction";
        case 1:
            return "milestone";
        case 2:
            return "indexation";
        case 3:
            return "receipt";
        default:
            return "treasury_transaction";
    }
}

// The payload bytes (type included) of a message that decoded: after the network ID, the
// parents and the u32 payload length.
codec::ByteSpan PayloadBytes(codec::ByteSpan message, std::size_t parent_count)
{
    std::size_t at = 8 + 1 + 32 * parent_count;
    std::uint32_t length = 0;
    for (int i = 3; i >= 0; --i)
        length = (length << 8) | message.data[at + i];
    return codec::ByteSpan(message.data + at + 4, length);
}

codec::Address AddressOf(const chrysalis::Ed25519Address &address)
{
    codec::Address out;
    out.type = codec::AddressType::kEd25519;
    out.id = address.hash;
    return out;
}

// The ledger row of a SigLocked output; nullopt for a treasury output (not in the UTXO set).
std::optional<OutputRow> ChrysalisOutputRow(const chrysalis::Output &output,
                                            const codec::OutputId &output_id,
                                            const codec::BlockId &block_id, bool from_snapshot)
{
    const chrysalis::Ed25519Address *address = nullptr;
    std::uint64_t amount = 0;
    if (const auto *single = std::get_if<chrysalis::SigLockedSingleOutput>(&output))
    {
        address = &single->address;
        amount = single->amount;
    }
    else if (const auto *dust = std::get_if<chrysalis::SigLockedDustAllowanceOutput>(&output))
    {
        address = &dust->address;
        amount = dust->amount;
    }
    else
        return std::nullopt;
    OutputRow row;
    row.output_id = output_id;
    row.block_id = block_id;
    row.fields.kind = codec::OutputType::kBasic;
    row.fields.address = AddressOf(*address);
    row.fields.amount = amount;
    row.data = chrysalis::EncodeOutputBytes(output);
    row.from_snapshot = from_snapshot;
    row.chrysalis_type = static_cast<std::uint8_t>(output.index());
    return row;
}

codec::OutputId MakeOutputId(const codec::Hash32 &transaction_id, std::uint16_t index)
{
    return codec::OutputIdFromBytes(chrysalis::ComputeOutputId(transaction_id, index));
}

void AddTransactionParts(MilestoneRows &rows, const chrysalis::TransactionPayload &payload,
                         const codec::TransactionId &transaction_id, std::size_t message)
{
    const auto &essence = payload.essence;
    for (std::size_t i = 0; i < essence.inputs.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "input",
                                          message, chrysalis::EncodeInputBytes(essence.inputs[i])});
    for (std::size_t i = 0; i < essence.outputs.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "output",
                                          message,
                                          chrysalis::EncodeOutputBytes(essence.outputs[i])});
    for (std::size_t i = 0; i < payload.unlocks.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "unlock",
                                          message,
                                          chrysalis::EncodeUnlockBytes(payload.unlocks[i])});
}

// Books what an included transaction creates and consumes.
void ApplyIncluded(MilestoneRows &rows, const chrysalis::TransactionPayload &payload,
                   const codec::TransactionId &transaction_id, const codec::BlockId &block_id)
{
    rows.included_transactions++;
    for (const chrysalis::Input &input : payload.essence.inputs)
        if (const auto *utxo = std::get_if<chrysalis::UtxoInput>(&input))
            rows.spends.push_back(
                {MakeOutputId(utxo->transaction_id, utxo->index), transaction_id, block_id});
    const auto &outputs = payload.essence.outputs;
    for (std::size_t i = 0; i < outputs.size(); ++i)
    {
        auto row = ChrysalisOutputRow(outputs[i],
                                      MakeOutputId(transaction_id, static_cast<std::uint16_t>(i)),
                                      block_id, false);
        if (!row)
            continue;
        rows.transferred_tokens += row->fields.amount;
        rows.outputs.push_back(std::move(*row));
    }
}

// A receipt's migrated funds become SigLockedSingleOutputs, identified as Hornet 1.x booked
// them: the milestone ID in place of a transaction ID, and the entry's index.
void BookMigratedFunds(MilestoneRows &rows, const chrysalis::ReceiptPayload &receipt,
                       const codec::MilestoneId &milestone_id, const codec::BlockId &block_id,
                       ReceiptRow &receipt_row)
{
    for (std::size_t i = 0; i < receipt.funds.size(); ++i)
    {
        const chrysalis::MigratedFundsEntry &entry = receipt.funds[i];
        chrysalis::SigLockedSingleOutput output{entry.address, entry.deposit};
        auto output_id = MakeOutputId(milestone_id, static_cast<std::uint16_t>(i));
        auto row = ChrysalisOutputRow(output, output_id, block_id, false);
        rows.transferred_tokens += row->fields.amount;
        rows.outputs.push_back(std::move(*row));
        receipt_row.migrations.push_back({output_id, entry.tail_transaction_hash});
    }
}

void AddSnapshotOutputs(MilestoneRows &rows, const std::vector<SnapshotInput> &snapshot_outputs)
{
    for (std::size_t i = 0; i < snapshot_outputs.size(); ++i)
    {
        const SnapshotInput &input = snapshot_outputs[i];
        chrysalis::Output output;
        try
        {
            output = chrysalis::DecodeTransactionOutputBytes(input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            throw InputError(InputError::Kind::kMalformed,
                             "could not decode snapshot output " + std::to_string(i) +
                                 " of Chrysalis milestone " + std::to_string(rows.milestone_index) +
                                 ": " + e.what());
        }
        rows.outputs.push_back(*ChrysalisOutputRow(output, input.output_id, input.block_id, true));
    }
}

} // namespace

MilestoneRows DeriveChrysalisMilestone(std::uint32_t milestone_index, std::uint32_t timestamp,
                                       const std::vector<BlockInput> &blocks,
                                       const std::vector<SnapshotInput> &snapshot_outputs)
{
    MilestoneRows rows =
        NewMilestoneRows(kChrysalisProtocol, milestone_index, timestamp, blocks.size());
    AddSnapshotOutputs(rows, snapshot_outputs);

    for (std::size_t i = 0; i < blocks.size(); ++i)
    {
        const BlockInput &input = blocks[i];
        chrysalis::Message message;
        try
        {
            message = chrysalis::DecodeMessage(input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            ThrowUndecodable(i, milestone_index, "a Chrysalis message", e.what());
        }
        const chrysalis::Payload *payload = message.payload ? &*message.payload : nullptr;
        const auto *transaction =
            payload ? std::get_if<chrysalis::TransactionPayload>(payload) : nullptr;
        CheckInclusionState(input, transaction != nullptr, i, milestone_index);
        MessageRow row = NewMessageRow(input, i, chrysalis::ComputeMessageId(input.bytes),
                                       kChrysalisProtocol, VariantOf(message), message.parents);

        if (!payload)
        {
        }
        else if (const auto *indexation = std::get_if<chrysalis::IndexationPayload>(payload))
        {
            row.tag = indexation->index;
        }
        else if (transaction)
        {
            if (transaction->essence.payload)
                row.tag = transaction->essence.payload->index;
            codec::TransactionId transaction_id = chrysalis::ComputeTransactionId(*transaction);
            rows.transaction_ids.push_back(transaction_id);
            AddTransactionParts(rows, *transaction, transaction_id, i);
            if (input.inclusion_state == static_cast<std::uint8_t>(InclusionState::kIncluded))
                ApplyIncluded(rows, *transaction, transaction_id, row.block_id);
        }
        else if (const auto *milestone = std::get_if<chrysalis::MilestonePayload>(payload))
        {
            const chrysalis::MilestoneEssence &essence = milestone->essence;
            CheckMilestone(essence.index, essence.timestamp, rows, i);
            codec::MilestoneId milestone_id = chrysalis::ComputeMilestoneId(essence);
            rows.milestones.push_back({i, essence.index,
                                       static_cast<std::uint32_t>(essence.timestamp), milestone_id,
                                       PayloadBytes(input.bytes, message.parents.size())});
            // Migrated funds are booked by the milestone that carries the receipt.
            if (essence.receipt && essence.index == milestone_index)
            {
                ReceiptRow receipt_row{
                    essence.index, essence.receipt->migrated_at, essence.receipt->final, {}};
                BookMigratedFunds(rows, *essence.receipt, milestone_id, row.block_id, receipt_row);
                rows.receipts.push_back(std::move(receipt_row));
            }
        }
        rows.messages.push_back(std::move(row));
    }
    return rows;
}

} // namespace permanode::ledger
