// Cone checks of milestones a node sent (see cone_check.hpp).
#include "sync/cone_check.hpp"

#include "codec/block.hpp"
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
        throw ConeError(fmt::format("milestone {}: the node sent no milestone payload, so its "
                                    "cone cannot be checked",
                                    milestone.index));
    try
    {
        codec::ByteReader reader(milestone.payload);
        if (reader.ReadU32("payload type") != codec::kMilestonePayloadType)
            throw ConeError(fmt::format("milestone {}: the node's milestone payload is not one",
                                        milestone.index));
        return codec::DecodeMilestoneBody(reader);
    }
    catch (const codec::DecodeError &e)
    {
        throw ConeError(
            fmt::format("milestone {}: the node's milestone payload does not decode: {}",
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
            "Merkle hash (TIP-4) of the {} {} the node sent ({}): a block is missing or wrong",
            milestone.index, name, codec::ToHex(claimed), leaves.size(), what,
            codec::ToHex(computed)));
}

} // namespace

void CheckCone(const NodeMilestone &milestone)
{
    codec::MilestonePayload payload = DecodePayload(milestone);
    const codec::MilestoneEssence &essence = payload.essence;
    if (essence.index != milestone.index || essence.timestamp != milestone.timestamp)
        throw ConeError(fmt::format("milestone {} (timestamp {}): the node's payload is of "
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

std::vector<LedgerOutput> OutputsFromOutside(const NodeMilestone &milestone)
{
    // the outputs of every included transaction of the cone, by transaction ID
    std::map<codec::TransactionId, std::vector<codec::Output>> created_by;
    for (const ConeBlock &block : milestone.blocks)
    {
        if (block.inclusion_state != 1)
            continue;
        codec::DecodedBlock decoded = codec::DecodeBlockWithIds(block.bytes);
        if (const codec::TransactionPayload *tx = codec::TransactionOf(decoded.block))
            created_by[*decoded.transaction_id] = tx->essence.outputs;
    }
    std::vector<LedgerOutput> outside;
    for (const LedgerOutput &output : milestone.updates.created)
    {
        auto found = created_by.find(output.output_id.transaction_id);
        if (found == created_by.end())
        {
            outside.push_back(output);
            continue;
        }
        const auto &outputs = found->second;
        if (output.output_id.index >= outputs.size() ||
            codec::EncodeOutput(outputs[output.output_id.index]) != output.output)
            throw ConeError(fmt::format(
                "milestone {}: the node's ledger updates disagree with its cone: created output "
                "{} is not what transaction {} of the cone creates",
                milestone.index, codec::ToHex(codec::ToBytes(output.output_id)),
                codec::ToHex(output.output_id.transaction_id)));
    }
    return outside;
}

} // namespace permanode::sync
