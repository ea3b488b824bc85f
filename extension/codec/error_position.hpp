// The position of the item an error is about (a block in a milestone's cone, a transaction in a
// batch), as the server puts it in the error's CONTEXT field and a client reads it back, to name
// the item in its own terms (a block by its ID, a transaction by its file and line): one format,
// "<kind> <index>" on a line of its own, defined here for both sides.
#pragma once

#include <cstddef>
#include <optional>
#include <sstream>
#include <string>

namespace permanode::codec
{

// The kinds of item: a block of a cone (0-based), a transaction of a batch (1-based).
inline constexpr const char *kConeBlock = "cone block";
inline constexpr const char *kBatchTransaction = "batch transaction";

inline std::string PositionContext(const char *kind, std::size_t index)
{
    return std::string(kind) + " " + std::to_string(index);
}

// The index a line of an error's CONTEXT field gives for `kind`, if one does.
inline std::optional<std::size_t> PositionOf(const std::string &context, const char *kind)
{
    const std::string prefix = std::string(kind) + " ";
    std::istringstream lines(context);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(prefix, 0) == 0)
        {
            std::string digits = line.substr(prefix.size());
            if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
                digits.size() < 10)
                return static_cast<std::size_t>(std::stoul(digits));
        }
    return std::nullopt;
}

} // namespace permanode::codec
