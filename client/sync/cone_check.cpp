// Cone checks of milestones a node sent (see cone_check.hpp).
#include "sync/cone_check.hpp"

#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/merkle.hpp"
#include "codec/milestone.hpp"
#include "codec/output.hpp"

#include <map>

#include <fmt/format.h>

namespace permanode::sync
{
namespace
{

codec::MilestonePayload DecodePayload(const NodeMilestone &milestone)
{
    if (milestone.payload.empty())
        throw ConeError(fmt::format("milestone {}: no milestone payload came with it, so its "
                                    "cone cannot be checked",
                                    milestone.index));
    try
    {
        codec::ByteReader reader(milestone.payload);
        if (reader.ReadU32("payload type") != codec::kMilestonePayloadType)
            throw ConeError(
                fmt::format("milestone {}: its milestone payload is not one", milestone.index));
        return codec::DecodeMilestoneBody(reader);
    }
    catch (const codec::DecodeError &e)
    {
        throw ConeError(fmt::format("milestone {}: its milestone payload does not decode: {}",
                                    milestone.index, e.what()));
    }
}

void CompareRoot(const NodeMilestone &milestone, const char *name, const codec::Hash32 &claimed,
                 const std::vector<codec::Hash32> &leaves, const char *what)
{
    codec::Hash32 computed = codec::MerkleRoot(leaves);
    if (computed != claimed)
        throw ConeError(fmt::format(
            "milestone {}: the cone is not the one its payload commits to: the {} {} is not the "
            "Merkle hash (TIP-4) of the cone's {} {} ({}): a block is missing or wrong",
            milestone.index, name, codec::ToHex(claimed), leaves.size(), what,
            codec::ToHex(computed)));
}

} // namespace

namespace
{

void CheckStardustCone(const NodeMilestone &milestone)
{
    codec::MilestonePayload payload = DecodePayload(milestone);
    const codec::MilestoneEssence &essence = payload.essence;
    if (essence.index != milestone.index || essence.timestamp != milestone.timestamp)
        throw ConeError(fmt::format("milestone {} (timestamp {}): its payload is of "
                                    "milestone {} (timestamp {})",
                                    milestone.index, milestone.timestamp, essence.index,
                                    essence.timestamp));
    std::vector<codec::Hash32> referenced, applied;
    for (const ConeBlock &block : milestone.blocks)
    {
        referenced.push_back(codec::ComputeBlockId(block.bytes));
        if (block.inclusion_state == 1)
            applied.push_back(referenced.back());
    }
    CompareRoot(milestone, "inclusion merkle root", essence.inclusion_merkle_root, referenced,
                "blocks");
    CompareRoot(milestone, "applied merkle root", essence.applied_merkle_root, applied,
                "included transactions");
}

// A Chrysalis cone ends with its milestone's own message, whose payload commits to the
// included transaction messages (TIP-4's inclusion merkle proof).
const codec::chrysalis::MilestonePayload &ChrysalisPayloadOf(const NodeMilestone &milestone,
                                                             codec::chrysalis::Message &message)
{
    if (milestone.blocks.empty())
        throw ConeError(fmt::format("milestone {}: its cone is empty", milestone.index));
    try
    {
        message = codec::chrysalis::DecodeMessage(milestone.blocks.back().bytes);
    }
    catch (const codec::DecodeError &e)
    {
        throw ConeError(fmt::format("milestone {}: its milestone message does not decode: {}",
                                    milestone.index, e.what()));
    }
    const auto *payload = message.payload
                              ? std::get_if<codec::chrysalis::MilestonePayload>(&*message.payload)
                              : nullptr;
    if (!payload)
        throw ConeError(fmt::format("milestone {}: the cone does not end with its milestone "
                                    "message",
                                    milestone.index));
    return *payload;
}

void CheckChrysalisCone(const NodeMilestone &milestone)
{
    codec::chrysalis::Message message;
    const auto &essence = ChrysalisPayloadOf(milestone, message).essence;
    if (essence.index != milestone.index || essence.timestamp != milestone.timestamp)
        throw ConeError(fmt::format("milestone {} (timestamp {}): the cone ends with the "
                                    "message of milestone {} (timestamp {})",
                                    milestone.index, milestone.timestamp, essence.index,
                                    essence.timestamp));
    std::vector<codec::Hash32> applied;
    for (const ConeBlock &block : milestone.blocks)
        if (block.inclusion_state == 1)
            applied.push_back(codec::ComputeBlockId(block.bytes));
    CompareRoot(milestone, "inclusion merkle proof", essence.inclusion_merkle_proof, applied,
                "included transaction messages");
}

void AddStardustOutputs(const ConeBlock &block, std::map<codec::OutputIdBytes, codec::Bytes> &out)
{
    codec::DecodedBlock decoded = codec::DecodeBlockWithIds(block.bytes);
    if (const codec::TransactionPayload *tx = codec::TransactionOf(decoded.block))
        for (std::size_t i = 0; i < tx->essence.outputs.size(); ++i)
            out[codec::ToBytes({*decoded.transaction_id, static_cast<std::uint16_t>(i)})] =
                codec::EncodeOutput(tx->essence.outputs[i]);
}

void AddChrysalisOutputs(const ConeBlock &block, std::map<codec::OutputIdBytes, codec::Bytes> &out)
{
    namespace chrysalis = codec::chrysalis;
    chrysalis::Message message = chrysalis::DecodeMessage(block.bytes);
    if (!message.payload)
        return;
    if (const auto *tx = std::get_if<chrysalis::TransactionPayload>(&*message.payload))
    {
        codec::TransactionId id = chrysalis::ComputeTransactionId(*tx);
        for (std::size_t i = 0; i < tx->essence.outputs.size(); ++i)
            out[chrysalis::ComputeOutputId(id, static_cast<std::uint16_t>(i))] =
                chrysalis::EncodeOutputBytes(tx->essence.outputs[i]);
    }
}

// The funds a Chrysalis milestone's receipt migrates (TIP-17), booked as Hornet 1.x booked
// them: the milestone ID as the transaction ID.
void AddMigratedFunds(const NodeMilestone &milestone,
                      std::map<codec::OutputIdBytes, codec::Bytes> &out)
{
    namespace chrysalis = codec::chrysalis;
    chrysalis::Message message;
    const auto &essence = ChrysalisPayloadOf(milestone, message).essence;
    if (!essence.receipt)
        return;
    codec::MilestoneId id = chrysalis::ComputeMilestoneId(essence);
    for (std::size_t i = 0; i < essence.receipt->funds.size(); ++i)
    {
        const auto &entry = essence.receipt->funds[i];
        out[chrysalis::ComputeOutputId(id, static_cast<std::uint16_t>(i))] =
            chrysalis::EncodeOutputBytes(
                chrysalis::SigLockedSingleOutput{entry.address, entry.deposit});
    }
}

} // namespace

void CheckCone(const NodeMilestone &milestone)
{
    if (milestone.protocol_version == 1)
        CheckChrysalisCone(milestone);
    else
        CheckStardustCone(milestone);
}

std::map<codec::OutputIdBytes, codec::Bytes> OutputsOfCone(const NodeMilestone &milestone)
{
    std::map<codec::OutputIdBytes, codec::Bytes> out;
    for (const ConeBlock &block : milestone.blocks)
    {
        if (block.inclusion_state != 1)
            continue;
        if (milestone.protocol_version == 1)
            AddChrysalisOutputs(block, out);
        else
            AddStardustOutputs(block, out);
    }
    if (milestone.protocol_version == 1)
        AddMigratedFunds(milestone, out);
    return out;
}

std::vector<LedgerOutput> OutputsFromOutside(const NodeMilestone &milestone)
{
    std::map<codec::OutputIdBytes, codec::Bytes> of_cone = OutputsOfCone(milestone);
    std::vector<LedgerOutput> outside;
    for (const LedgerOutput &output : milestone.updates.created)
    {
        codec::OutputIdBytes id = codec::ToBytes(output.output_id);
        auto found = of_cone.find(id);
        if (found == of_cone.end())
            outside.push_back(output);
        else if (!output.output.empty() && found->second != output.output)
            throw ConeError(fmt::format(
                "milestone {}: the node's ledger updates disagree with its cone: created output "
                "{} is not what transaction {} of the cone creates",
                milestone.index, codec::ToHex(id), codec::ToHex(output.output_id.transaction_id)));
    }
    return outside;
}

} // namespace permanode::sync
