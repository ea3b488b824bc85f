// `permanode import-chronicle`: converts inx-chronicle's test data (MongoDB extended JSON) into
// milestone bundles. Two shapes are understood:
//   - an object keyed by milestone index, each with milestone_data, cone, created and consumed
//     (in_memory_data.json); created outputs that no included transaction of the cone creates
//     (the genesis snapshot's) become snapshot_outputs; with node fields, milestone_data and
//     the created and consumed records become the lines' node fields;
//   - an array of {_id, raw, metadata} blocks (blocks_ms_*.json), grouped into milestones by
//     metadata.referenced_by_milestone_index and ordered by white_flag_index.
#pragma once

#include "bundle.hpp"
#include "generator_common.hpp" // NodeFields

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::cli
{

// The input does not have one of the two shapes; the message names the offending part.
class ImportError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

struct ImportOptions
{
    // Timestamp for milestones whose own payload is not among the blocks (blocks form only).
    std::optional<std::uint32_t> milestone_timestamp;
    // Also what the node recorded of each milestone (object form only: the blocks form has no
    // node data): its own payload and ID, the protocol parameters, created and consumed.
    bool node_fields = false;
};

struct ChronicleMilestone
{
    MilestoneBundle bundle;
    std::optional<NodeFields> node_fields; // with ImportOptions::node_fields, when known
};

// The milestones of a Chronicle file, in ascending milestone index.
std::vector<ChronicleMilestone> ImportChronicleMilestones(const std::string &path,
                                                          const ImportOptions &options);
// The same from the file's text.
std::vector<ChronicleMilestone> ParseChronicleMilestones(const std::string &text,
                                                         const ImportOptions &options);
// The same, the bundles only.
std::vector<MilestoneBundle> ImportChronicle(const std::string &path, const ImportOptions &options);

} // namespace permanode::cli
