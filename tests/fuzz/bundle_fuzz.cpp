// libFuzzer target for the milestone bundle line (client/cli/bundle.hpp), what `permanode ingest`
// reads: ParseBundle either refuses a line (BundleError) or gives a bundle, which the project's
// writers (FormatBundle, and WithNodeFields for the node fields ParseBundle keeps: the milestone
// payload and the protocol parameters) must render as a line that parses to the same bundle.
#include "fuzz_check.hpp"
#include "bundle.hpp"
#include "bundle_equal.hpp"
#include "generator_common.hpp"

#include <cstdint>
#include <string_view>

namespace
{

using namespace permanode::cli;

// The line the project writes for a bundle: FormatBundle's, with its node fields.
std::string Rendered(const MilestoneBundle &bundle)
{
    NodeFields fields;
    fields.milestone = bundle.milestone_payload;
    if (!bundle.protocol_parameters.empty())
        fields.protocol_parameters = bundle.protocol_parameters;
    return WithNodeFields(FormatBundle(bundle), fields);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    MilestoneBundle bundle;
    try
    {
        bundle = ParseBundle(std::string_view(reinterpret_cast<const char *>(data), size));
    }
    catch (const BundleError &)
    {
        return 0;
    }
    std::string line = Rendered(bundle);
    MilestoneBundle again = ParseBundle(line);
    FUZZ_CHECK(permanode::fuzz::SameBundle(bundle, again));
    FUZZ_CHECK(Rendered(again) == line);
    return 0;
}
