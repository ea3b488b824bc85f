/*
 * node_updates.cpp
 *	  A node's ledger updates against the derived rows, as sorted sets compared in memory: the
 *	  check costs no table access, whatever the size of the milestone's range.
 */
#include "ledger/node_updates.hpp"

extern "C"
{
#include "postgres.h"

#include "utils/elog.h"
}

#include "codec/hex.hpp"
#include "pgcpp/guard.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace permanode::ledger
{
namespace
{

struct Difference
{
    codec::OutputIdBytes output_id{};
    const char *kind = "";
    const char *why = "";
};

// Adds what one sorted list has and the other does not; returns how many.
std::size_t Differences(const std::vector<codec::OutputIdBytes> &node,
                        const std::vector<codec::OutputIdBytes> &cone, const char *kind,
                        std::optional<Difference> &first)
{
    std::vector<codec::OutputIdBytes> only_node, only_cone;
    std::set_difference(node.begin(), node.end(), cone.begin(), cone.end(),
                        std::back_inserter(only_node));
    std::set_difference(cone.begin(), cone.end(), node.begin(), node.end(),
                        std::back_inserter(only_cone));
    auto Consider = [&](const std::vector<codec::OutputIdBytes> &ids, const char *why)
    {
        if (!ids.empty() && (!first || ids.front() < first->output_id ||
                             (ids.front() == first->output_id && std::string(kind) < first->kind)))
            first = Difference{ids.front(), kind, why};
    };
    bool created = std::string(kind) == "created";
    Consider(only_node, created ? "the node created it and the cone does not"
                                : "the node consumed it and the cone does not");
    Consider(only_cone, created ? "the cone created it and the node did not"
                                : "the cone consumed it and the node did not");
    return only_node.size() + only_cone.size();
}

void SortUnique(std::vector<codec::OutputIdBytes> &ids)
{
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

} // namespace

void CheckNodeUpdates(const MilestoneRows &rows, NodeUpdates node)
{
    std::size_t reported_created = node.created.size();
    std::size_t reported_consumed = node.consumed.size();
    std::vector<codec::OutputIdBytes> created, consumed;
    for (const OutputRow &output : rows.outputs)
        created.push_back(codec::ToBytes(output.output_id));
    for (const SpendRow &spend : rows.spends)
        consumed.push_back(codec::ToBytes(spend.output_id));
    SortUnique(created);
    SortUnique(consumed);
    SortUnique(node.created);
    SortUnique(node.consumed);

    std::optional<Difference> first;
    std::size_t count = Differences(node.created, created, "created", first) +
                        Differences(node.consumed, consumed, "consumed", first);
    if (!first)
        return;
    throw pg::PgError(
        ERRCODE_DATA_EXCEPTION,
        "milestone " + std::to_string(rows.milestone_index) +
            ": the node's ledger updates differ from its cone: " + first->kind + " output " +
            codec::ToHex(first->output_id) + ": " + first->why,
        std::to_string(count) + " outputs differ; the node reported " +
            std::to_string(reported_created) + " created and " + std::to_string(reported_consumed) +
            " consumed.",
        "Nothing of this milestone was archived. The node or this archive's derivation is wrong: "
        "compare with another node.");
}

} // namespace permanode::ledger
