// Choosing where to start following a node (see start_point.hpp).
#include "sync/start_point.hpp"

#include "codec/ids.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace permanode::sync
{

void CheckNetwork(const Node &node, const NodeStatus &status, const ArchiveState &archive)
{
    if (!status.bech32_hrp.empty() && !archive.bech32_hrp.empty() &&
        status.bech32_hrp != archive.bech32_hrp)
        throw StartError(
            StartError::Kind::kNetworkMismatch,
            fmt::format("{} follows network \"{}\" (addresses {}1…), this archive "
                        "holds network \"{}1…\" addresses: refusing to mix them. Point "
                        "sync at a node of this archive's network, or use another "
                        "database (`permanode init --network …` sets an empty one's)",
                        node.Name(), status.network_name, status.bech32_hrp, archive.bech32_hrp));
    if (!status.network_name.empty() && !archive.network_name.empty() &&
        status.network_name != archive.network_name)
        throw StartError(StartError::Kind::kNetworkMismatch,
                         fmt::format("{} follows network \"{}\", this archive followed \"{}\": "
                                     "refusing to mix them. Point sync at a node of \"{}\", or "
                                     "use another database",
                                     node.Name(), status.network_name, archive.network_name,
                                     archive.network_name));
}

StartPoint ChooseStart(Node &node, const NodeStatus &status, const ArchiveState &archive,
                       std::optional<std::uint32_t> from)
{
    CheckNetwork(node, status, archive);
    std::uint32_t oldest = status.pruning_index + 1;
    StartPoint point;
    if (archive.newest && !from)
    {
        point.start = *archive.newest + 1;
        if (status.confirmed_index < *archive.newest)
            throw StartError(StartError::Kind::kBehind,
                             fmt::format("{} has confirmed milestone {}, behind this archive's "
                                         "newest, {}: it is still syncing, or follows another "
                                         "network. Wait for it, or point sync at another node",
                                         node.Name(), status.confirmed_index, *archive.newest));
        if (point.start < oldest)
            throw StartError(
                StartError::Kind::kPruned,
                fmt::format("{} has pruned milestones {} to {}, which this archive still needs "
                            "(it holds up to {}). Fill them from a node or archive that has them "
                            "(`permanode sync --api URL --from {} --to {}`), then sync again",
                            node.Name(), point.start, status.pruning_index, *archive.newest,
                            point.start, status.pruning_index));
        return point;
    }
    point.start = std::max(from.value_or(oldest), oldest);
    if (archive.empty && point.start > 1 && node.ReadsLedger())
        point.outputs_before = OutputsBefore(node, point.start);
    return point;
}

std::vector<LedgerOutput> OutputsBefore(Node &node, std::uint32_t start)
{
    std::uint32_t ledger_index = 0;
    std::vector<LedgerOutput> unspent = node.UnspentOutputs(&ledger_index);
    if (ledger_index + 1 < start)
        throw NodeError(NodeError::Kind::kNotFound,
                        fmt::format("{}'s ledger is at milestone {}, before the start {}",
                                    node.Name(), ledger_index, start));
    std::map<codec::OutputIdBytes, LedgerOutput> alive;
    for (LedgerOutput &output : unspent)
        alive.emplace(codec::ToBytes(output.output_id), std::move(output));
    if (ledger_index >= start)
        for (LedgerUpdates &batch : node.Updates(start, ledger_index))
        {
            for (const LedgerOutput &created : batch.created)
                alive.erase(codec::ToBytes(created.output_id));
            for (LedgerSpent &consumed : batch.consumed)
                if (consumed.output.booked_index < start)
                    alive.emplace(codec::ToBytes(consumed.output.output_id),
                                  std::move(consumed.output));
        }
    std::vector<LedgerOutput> before;
    before.reserve(alive.size());
    for (auto &[id, output] : alive)
        before.push_back(std::move(output));
    return before;
}

} // namespace permanode::sync
