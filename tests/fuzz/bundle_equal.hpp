// Equality of milestone bundles (client/cli/bundle.hpp), field by field, for the fuzz targets'
// round trips.
#pragma once

#include "bundle.hpp"

#include <algorithm>

namespace permanode::fuzz
{

inline bool SameBlock(const cli::BundleBlock &a, const cli::BundleBlock &b)
{
    return a.bytes == b.bytes && a.inclusion_state == b.inclusion_state &&
           a.conflict_reason == b.conflict_reason;
}

inline bool SameSnapshotOutput(const cli::SnapshotOutput &a, const cli::SnapshotOutput &b)
{
    return a.output_id == b.output_id && a.block_id == b.block_id && a.output == b.output;
}

inline bool SameBundle(const cli::MilestoneBundle &a, const cli::MilestoneBundle &b)
{
    return a.protocol_version == b.protocol_version && a.milestone_index == b.milestone_index &&
           a.milestone_timestamp == b.milestone_timestamp && a.partial_cone == b.partial_cone &&
           a.milestone_payload == b.milestone_payload &&
           a.protocol_parameters == b.protocol_parameters &&
           std::equal(a.blocks.begin(), a.blocks.end(), b.blocks.begin(), b.blocks.end(),
                      SameBlock) &&
           std::equal(a.snapshot_outputs.begin(), a.snapshot_outputs.end(),
                      b.snapshot_outputs.begin(), b.snapshot_outputs.end(), SameSnapshotOutput);
}

} // namespace permanode::fuzz
