// The position in a milestone's cone of the block an ingest error is about, as the server puts it
// in the error's CONTEXT field and the CLI reads it back (to name the block by its ID too): one
// format, defined here for both.
#pragma once

#include <cstddef>
#include <optional>
#include <sstream>
#include <string>

namespace permanode::codec
{

inline constexpr const char *kConeBlockContext = "cone block ";

inline std::string ConeBlockContext(std::size_t block)
{
    return kConeBlockContext + std::to_string(block);
}

// The block named by a line of an error's CONTEXT field, if one names a block.
inline std::optional<std::size_t> ConeBlockOf(const std::string &context)
{
    std::istringstream lines(context);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(kConeBlockContext, 0) == 0)
        {
            std::string digits = line.substr(std::string(kConeBlockContext).size());
            if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
                digits.size() < 10)
                return static_cast<std::size_t>(std::stoul(digits));
        }
    return std::nullopt;
}

} // namespace permanode::codec
