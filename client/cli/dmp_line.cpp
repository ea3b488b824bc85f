#include "dmp_line.hpp"

#include "codec/legacy/transaction.hpp"
#include "codec/legacy/trinary.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace permanode::cli
{

namespace legacy = codec::legacy;

std::string FormatDmpLine(const DmpLine &line)
{
    return fmt::format("{},{},{}", line.hash, line.trytes, line.snapshot_index);
}

namespace
{

std::string_view Trytes(std::string_view field, std::size_t size, const char *name)
{
    if (field.size() != size)
        throw DmpLineError(fmt::format("{} has {} characters, not {}", name, field.size(), size));
    auto bad = std::find_if(field.begin(), field.end(), [](char c) { return !legacy::IsTryte(c); });
    if (bad != field.end())
        throw DmpLineError(fmt::format("{} has '{}' at position {}, not a tryte (9, A-Z)", name,
                                       *bad, bad - field.begin()));
    return field;
}

} // namespace

DmpLine ParseDmpLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    std::size_t first = line.find(',');
    std::size_t second = first == std::string_view::npos ? first : line.find(',', first + 1);
    if (second == std::string_view::npos || line.find(',', second + 1) != std::string_view::npos)
        throw DmpLineError("a .dmp line is hash,trytes,snapshot_index");
    DmpLine out;
    out.hash = Trytes(line.substr(0, first), legacy::kHashTrytes, "the hash");
    out.trytes = Trytes(line.substr(first + 1, second - first - 1), legacy::kTransactionTrytes,
                        "the trytes");
    std::string_view index = line.substr(second + 1);
    auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), out.snapshot_index);
    if (ec != std::errc() || end != index.data() + index.size() || index.empty())
        throw DmpLineError(fmt::format("the snapshot index \"{}\" is not a milestone index (0 to "
                                       "4294967295)",
                                       index));
    return out;
}

} // namespace permanode::cli
