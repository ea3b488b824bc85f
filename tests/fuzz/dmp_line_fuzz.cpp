// libFuzzer target for IRI's .dmp export line (client/cli/dmp_line.hpp), what `permanode
// import-dmp` reads: ParseDmpLine either refuses a line (DmpLineError) or gives its hash, trytes
// and snapshot index, which FormatDmpLine writes as a line that parses to the same fields; and
// the line written is the line read, but for what a line may carry that FormatDmpLine does not
// write (a trailing carriage return, zeros before the index).
#include "fuzz_check.hpp"
#include "dmp_line.hpp"

#include <cstdint>
#include <string>
#include <string_view>

using permanode::cli::DmpLine;

namespace
{

bool SameLine(const DmpLine &a, const DmpLine &b)
{
    return a.hash == b.hash && a.trytes == b.trytes && a.snapshot_index == b.snapshot_index;
}

// The input without what FormatDmpLine leaves out: a trailing '\r', leading zeros of the index.
std::string Canonical(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    std::size_t comma = line.rfind(',');
    std::string_view index = line.substr(comma + 1);
    while (index.size() > 1 && index.front() == '0')
        index.remove_prefix(1);
    return std::string(line.substr(0, comma + 1)) + std::string(index);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    DmpLine line;
    try
    {
        line = permanode::cli::ParseDmpLine(text);
    }
    catch (const permanode::cli::DmpLineError &)
    {
        return 0;
    }
    std::string written = permanode::cli::FormatDmpLine(line);
    FUZZ_CHECK(SameLine(permanode::cli::ParseDmpLine(written), line));
    FUZZ_CHECK(written == Canonical(text));
    return 0;
}
