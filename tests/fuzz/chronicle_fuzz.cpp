// libFuzzer target for the Chronicle JSON reader (client/cli/chronicle_import.hpp), what
// `permanode import-chronicle` reads: ParseChronicleMilestones either refuses the text
// (ImportError) or gives its milestones in ascending index, each a bundle that the project's
// writer renders as a line that parses to the same bundle. Each input is read twice: with no
// options (the node's timestamps from the blocks), and with a timestamp given and node fields.
#include "fuzz_check.hpp"
#include "bundle.hpp"
#include "bundle_equal.hpp"
#include "chronicle_import.hpp"

#include <cstdint>
#include <string>

namespace
{

using namespace permanode::cli;

void Import(const std::string &text, const ImportOptions &options)
{
    std::vector<ChronicleMilestone> milestones;
    try
    {
        milestones = ParseChronicleMilestones(text, options);
    }
    catch (const ImportError &)
    {
        return;
    }
    for (std::size_t i = 0; i < milestones.size(); i++)
    {
        const MilestoneBundle &bundle = milestones[i].bundle;
        FUZZ_CHECK(i == 0 || milestones[i - 1].bundle.milestone_index <= bundle.milestone_index);
        FUZZ_CHECK(!milestones[i].node_fields || options.node_fields);
        // The node fields stay out of it: FormatBundle writes the bundle itself.
        MilestoneBundle plain = bundle;
        plain.milestone_payload.clear();
        plain.protocol_parameters.clear();
        FUZZ_CHECK(permanode::fuzz::SameBundle(ParseBundle(FormatBundle(plain)), plain));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string text(reinterpret_cast<const char *>(data), size);
    Import(text, ImportOptions{});
    ImportOptions given;
    given.milestone_timestamp = 1664346000;
    given.node_fields = true;
    Import(text, given);
    return 0;
}
