#include "ledger/derive.hpp"

#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/reader.hpp"
#include "codec/writer.hpp"

#include <cstring>
#include <string>

namespace permanode::ledger
{
namespace
{

const char *VariantOf(const codec::Block &block)
{
    if (!block.payload)
        return nullptr;
    switch (codec::TypeOf(*block.payload))
    {
        case codec::kTaggedDataPayloadType:
            return "tagged_data";
        case codec::kTransactionPayloadType:
            return "transaction";
        case codec::kMilestonePayloadType:
            return "milestone";
        default:
            return "treasury_transaction";
    }
}

// The payload bytes (type included) inside a block that decoded: after the version, the
// parents and the u32 payload length.
codec::ByteSpan PayloadBytes(codec::ByteSpan block, std::size_t parent_count)
{
    std::size_t at = 2 + 32 * parent_count;
    std::uint32_t length = 0;
    for (int i = 3; i >= 0; --i)
        length = (length << 8) | block.data[at + i];
    return codec::ByteSpan(block.data + at + 4, length);
}

void AddTransactionParts(MilestoneRows &rows, const codec::TransactionPayload &payload,
                         const codec::TransactionId &transaction_id, std::size_t message)
{
    const auto &essence = payload.essence;
    for (std::size_t i = 0; i < essence.inputs.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "input",
                                          message, EncodeInput(essence.inputs[i])});
    for (std::size_t i = 0; i < essence.outputs.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "output",
                                          message, codec::EncodeOutput(essence.outputs[i])});
    for (std::size_t i = 0; i < payload.unlocks.size(); ++i)
        rows.transaction_parts.push_back({transaction_id, static_cast<std::uint16_t>(i), "unlock",
                                          message, EncodeUnlock(payload.unlocks[i])});
}

// Books what an included transaction creates and consumes.
void ApplyIncluded(MilestoneRows &rows, const codec::TransactionPayload &payload,
                   const codec::TransactionId &transaction_id, const codec::BlockId &block_id)
{
    rows.included_transactions++;
    for (const auto &input : codec::ConsumedOutputs(payload))
        rows.spends.push_back({input, transaction_id, block_id});
    for (auto &created : codec::CreatedOutputs(payload, transaction_id))
    {
        rows.transferred_tokens += created.fields.amount;
        codec::Bytes data = codec::EncodeOutput(created.output);
        rows.outputs.push_back({created.output_id, block_id, std::move(created.output),
                                std::move(created.fields), std::move(data), false});
    }
}

void AddSnapshotOutputs(MilestoneRows &rows, const std::vector<SnapshotInput> &snapshot_outputs)
{
    for (std::size_t i = 0; i < snapshot_outputs.size(); ++i)
    {
        const SnapshotInput &input = snapshot_outputs[i];
        codec::Output output;
        try
        {
            output = DecodeOneOutput(input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            throw InputError(InputError::Kind::kMalformed,
                             "could not decode snapshot output " + std::to_string(i) +
                                 " of milestone " + std::to_string(rows.milestone_index) + ": " +
                                 e.what());
        }
        codec::IndexedFields fields = codec::IndexOutput(output, input.output_id);
        codec::Bytes data(input.bytes.data, input.bytes.data + input.bytes.size);
        rows.outputs.push_back({input.output_id, input.block_id, std::move(output),
                                std::move(fields), std::move(data), true});
    }
}

} // namespace

std::string Position(std::size_t index, std::uint32_t milestone_index)
{
    return "block " + std::to_string(index) + " of the cone of milestone " +
           std::to_string(milestone_index);
}

void CheckInclusionState(const BlockInput &input, bool is_transaction, std::size_t index,
                         std::uint32_t milestone_index)
{
    if (input.inclusion_state > 2)
        throw InputError(InputError::Kind::kInvalid,
                         "invalid inclusion state " + std::to_string(input.inclusion_state) +
                             " of " + Position(index, milestone_index),
                         "Inclusion states are 0 (no_transaction), 1 (included) and 2 "
                         "(conflicting).",
                         index);
    bool no_transaction =
        input.inclusion_state == static_cast<std::uint8_t>(InclusionState::kNoTransaction);
    if (no_transaction == is_transaction)
        throw InputError(InputError::Kind::kInvalid,
                         "inclusion state " + std::to_string(input.inclusion_state) + " of " +
                             Position(index, milestone_index) +
                             (is_transaction ? " does not fit its transaction payload"
                                             : " needs a transaction payload"),
                         "A block with a transaction payload is included (1) or conflicting (2); "
                         "any other block is no_transaction (0).",
                         index);
}

void CheckMilestone(std::uint32_t essence_index, std::uint64_t essence_timestamp,
                    const MilestoneRows &rows, std::size_t index)
{
    if (essence_index > rows.milestone_index)
        throw InputError(
            InputError::Kind::kInvalid,
            Position(index, rows.milestone_index) + " carries the payload of milestone " +
                std::to_string(essence_index) + ", later than milestone " +
                std::to_string(rows.milestone_index),
            "A milestone's cone references only earlier milestones: is milestone_index "
            "the index of the milestone that references these blocks?",
            index);
    if (essence_index == rows.milestone_index && essence_timestamp != rows.timestamp)
        throw InputError(InputError::Kind::kInvalid,
                         "milestone " + std::to_string(essence_index) + " has timestamp " +
                             std::to_string(essence_timestamp) + " in its payload, not " +
                             std::to_string(rows.timestamp));
}

codec::Bytes EncodeInput(const codec::OutputId &input)
{
    codec::Bytes bytes;
    bytes.reserve(35);
    codec::ByteWriter writer(bytes);
    writer.WriteU8(0); // UTXO input
    writer.WriteArray(input.transaction_id);
    writer.WriteU16(input.index);
    return bytes;
}

codec::Bytes EncodeUnlock(const codec::Unlock &unlock)
{
    codec::Bytes bytes;
    codec::ByteWriter writer(bytes);
    writer.WriteU8(codec::TypeOf(unlock));
    std::visit(
        [&writer](const auto &u)
        {
            if constexpr (std::is_same_v<std::decay_t<decltype(u)>, codec::SignatureUnlock>)
                codec::EncodeEd25519Signature(writer, u.signature);
            else
                writer.WriteU16(u.reference);
        },
        unlock);
    return bytes;
}

codec::Output DecodeOneOutput(codec::ByteSpan bytes)
{
    codec::ByteReader reader(bytes);
    codec::Output output = codec::DecodeOutput(reader, codec::kTransactionOutputTypes);
    if (reader.Remaining() != 0)
        reader.Fail("output", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the output");
    return output;
}

MilestoneRows NewMilestoneRows(std::uint8_t protocol_version, std::uint32_t milestone_index,
                               std::uint32_t timestamp, std::size_t blocks)
{
    MilestoneRows rows;
    rows.protocol_version = protocol_version;
    rows.milestone_index = milestone_index;
    rows.timestamp = timestamp;
    rows.messages.reserve(blocks);
    return rows;
}

MessageRow NewMessageRow(const BlockInput &input, std::size_t index, const codec::BlockId &id,
                         std::uint8_t protocol_version, const char *variant,
                         std::vector<codec::BlockId> parents)
{
    MessageRow row;
    row.block_id = id;
    row.protocol_version = protocol_version;
    row.raw = input.bytes;
    row.inclusion_state = input.inclusion_state;
    row.conflict_reason = input.conflict_reason;
    row.white_flag_index = static_cast<std::uint32_t>(index);
    row.variant = variant;
    row.parents = std::move(parents);
    return row;
}

void ThrowUndecodable(std::size_t index, std::uint32_t milestone_index, const std::string &as,
                      const std::string &error)
{
    throw InputError(InputError::Kind::kMalformed,
                     "could not decode " + Position(index, milestone_index) +
                         (as.empty() ? "" : " as " + as) + ": " + error,
                     {}, index);
}

MilestoneRows DeriveMilestone(std::uint32_t milestone_index, std::uint32_t timestamp,
                              const std::vector<BlockInput> &blocks,
                              const std::vector<SnapshotInput> &snapshot_outputs)
{
    MilestoneRows rows =
        NewMilestoneRows(kStardustProtocol, milestone_index, timestamp, blocks.size());
    // Snapshot outputs come first: the cone's transactions may spend them.
    AddSnapshotOutputs(rows, snapshot_outputs);

    for (std::size_t i = 0; i < blocks.size(); ++i)
    {
        const BlockInput &input = blocks[i];
        codec::DecodedBlock decoded;
        try
        {
            decoded = codec::DecodeBlockWithIds(input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            ThrowUndecodable(i, milestone_index, {}, e.what());
        }
        const codec::Block &block = decoded.block;
        const codec::TransactionPayload *transaction = codec::TransactionOf(block);
        CheckInclusionState(input, transaction != nullptr, i, milestone_index);
        MessageRow message = NewMessageRow(input, i, decoded.block_id, block.protocol_version,
                                           VariantOf(block), block.parents);

        if (const codec::TaggedDataPayload *tagged = codec::TaggedDataOf(block))
        {
            if (!tagged->tag.empty())
                message.tag = tagged->tag;
        }
        else if (transaction)
        {
            const auto &inner = transaction->essence.payload;
            if (inner && !inner->tag.empty())
                message.tag = inner->tag;
            const codec::TransactionId &transaction_id = *decoded.transaction_id;
            rows.transaction_ids.push_back(transaction_id);
            AddTransactionParts(rows, *transaction, transaction_id, i);
            if (input.inclusion_state == static_cast<std::uint8_t>(InclusionState::kIncluded))
                ApplyIncluded(rows, *transaction, transaction_id, decoded.block_id);
        }
        else if (const codec::MilestonePayload *milestone = codec::MilestoneOf(block))
        {
            CheckMilestone(milestone->essence.index, milestone->essence.timestamp, rows, i);
            rows.milestones.push_back({i, milestone->essence.index, milestone->essence.timestamp,
                                       *decoded.milestone_id,
                                       PayloadBytes(input.bytes, block.parents.size())});
        }
        rows.messages.push_back(std::move(message));
    }
    return rows;
}

} // namespace permanode::ledger
