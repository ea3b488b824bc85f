// The node's INX messages as NodeMilestone and friends (inx_convert.hpp).
#include "sync/inx_convert.hpp"

#include "codec/ids.hpp"
#include "codec/protocol_parameters.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace permanode::sync
{
namespace
{

NodeError Protocol(const std::string &what)
{
    return NodeError(NodeError::Kind::kProtocol, what);
}

template <std::size_t N>
std::array<std::uint8_t, N> FixedBytes(const std::string &bytes, const char *what)
{
    if (bytes.size() != N)
        throw Protocol(
            fmt::format("the node sent a {} of {} bytes, not {}", what, bytes.size(), N));
    std::array<std::uint8_t, N> out{};
    std::memcpy(out.data(), bytes.data(), N);
    return out;
}

codec::Bytes BytesOf(const std::string &bytes)
{
    return codec::Bytes(bytes.begin(), bytes.end());
}

} // namespace

LedgerOutput OutputOf(const inx::LedgerOutput &o)
{
    LedgerOutput out;
    out.output_id = codec::OutputIdFromBytes(FixedBytes<34>(o.output_id().id(), "output ID"));
    out.block_id = FixedBytes<32>(o.blockid().id(), "block ID");
    out.output = BytesOf(o.output().data());
    out.booked_index = o.milestone_index_booked();
    out.booked_timestamp = o.milestone_timestamp_booked();
    return out;
}

LedgerSpent SpentOf(const inx::LedgerSpent &s)
{
    LedgerSpent out;
    out.output = OutputOf(s.output());
    out.spent_by = FixedBytes<32>(s.transaction_id_spent().id(), "transaction ID");
    out.spent_index = s.milestone_index_spent();
    out.spent_timestamp = s.milestone_timestamp_spent();
    return out;
}

NodeStatus StatusOf(const inx::NodeStatus &status)
{
    NodeStatus out;
    out.healthy = status.is_healthy();
    out.confirmed_index = status.confirmed_milestone().milestone_info().milestone_index();
    out.confirmed_timestamp = status.confirmed_milestone().milestone_info().milestone_timestamp();
    out.pruning_index = status.milestones_pruning_index();
    out.ledger_index = status.ledger_index();
    const std::string &params = status.current_protocol_parameters().params();
    auto decoded = codec::TryDecodeProtocolParameters(
        codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(params.data()), params.size()));
    if (decoded)
    {
        out.network_name = decoded->network_name;
        out.bech32_hrp = decoded->bech32_hrp;
        out.protocol_parameters.assign(params.begin(), params.end());
    }
    return out;
}

void ReadMilestone(const inx::Milestone &milestone, std::uint32_t index, NodeMilestone &out)
{
    if (milestone.milestone_info().milestone_index() != index)
        throw Protocol(fmt::format("the node sent milestone {} for milestone {}",
                                   milestone.milestone_info().milestone_index(), index));
    out.index = index;
    out.timestamp = milestone.milestone_info().milestone_timestamp();
    out.milestone_id =
        FixedBytes<32>(milestone.milestone_info().milestone_id().id(), "milestone ID");
    out.payload = BytesOf(milestone.milestone().data());
}

std::pair<std::uint32_t, ConeBlock> ConeBlockOf(const inx::BlockWithMetadata &block)
{
    const auto &metadata = block.metadata();
    // proto3 enums take any value: the node's must be TIP-25's
    int state = metadata.ledger_inclusion_state();
    int reason = metadata.conflict_reason();
    if (state < 0 || state > 2 || reason < 0 || reason > 255)
        throw Protocol(fmt::format("the node sent a block with ledger inclusion state {} and "
                                   "conflict reason {}",
                                   state, reason));
    ConeBlock out;
    out.bytes = BytesOf(block.block().data());
    out.inclusion_state = static_cast<std::uint8_t>(state);
    out.conflict_reason = static_cast<std::uint8_t>(reason);
    return {metadata.white_flag_index(), std::move(out)};
}

std::vector<ConeBlock> InWhiteFlagOrder(IndexedCone cone, std::uint32_t index)
{
    std::sort(cone.begin(), cone.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<ConeBlock> blocks;
    blocks.reserve(cone.size());
    for (std::size_t i = 0; i < cone.size(); ++i)
    {
        if (cone[i].first != i)
            throw Protocol(fmt::format("the cone of milestone {} has no block at white-flag "
                                       "index {}",
                                       index, i));
        blocks.push_back(std::move(cone[i].second));
    }
    return blocks;
}

void LedgerUpdateReader::Add(const inx::LedgerUpdate &update)
{
    if (done_)
        throw Protocol("the node sent ledger updates after the milestones asked for");
    if (update.has_batch_marker())
    {
        Marker(update.batch_marker());
        return;
    }
    if (!open_)
        throw Protocol("the node sent a ledger update outside a milestone's batch");
    if (update.has_consumed())
        batches_.back().consumed.push_back(SpentOf(update.consumed()));
    else if (update.has_created())
        batches_.back().created.push_back(OutputOf(update.created()));
}

void LedgerUpdateReader::Marker(const inx::LedgerUpdate::Marker &marker)
{
    std::uint32_t due = from_ + static_cast<std::uint32_t>(batches_.size());
    if (marker.marker_type() == inx::LedgerUpdate::Marker::BEGIN)
    {
        if (open_ || marker.milestone_index() != due)
            throw Protocol(fmt::format("the node's ledger updates began milestone {} where {} "
                                       "was due",
                                       marker.milestone_index(), due));
        open_ = true;
        begin_ = marker;
        batches_.emplace_back();
        return;
    }
    if (!open_)
        throw Protocol(fmt::format("the node's ledger updates ended milestone {}, which they "
                                   "had not begun",
                                   marker.milestone_index()));
    const LedgerUpdates &batch = batches_.back();
    if (marker.milestone_index() != begin_.milestone_index() ||
        marker.consumed_count() != batch.consumed.size() ||
        marker.created_count() != batch.created.size() ||
        begin_.consumed_count() != batch.consumed.size() ||
        begin_.created_count() != batch.created.size())
        throw Protocol(fmt::format("the node's ledger updates of milestone {} do not add up to "
                                   "their markers",
                                   begin_.milestone_index()));
    open_ = false;
    done_ = batches_.size() == to_ - from_ + 1;
}

std::vector<LedgerUpdates> LedgerUpdateReader::Take()
{
    if (!done_)
        throw NodeError(
            NodeError::Kind::kUnavailable,
            fmt::format("the node's ledger updates of milestones {}..{} ended early", from_, to_));
    return std::move(batches_);
}

} // namespace permanode::sync
