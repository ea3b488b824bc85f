#include "codec/error.hpp"

#include <utility>

namespace permanode::codec
{

DecodeError::DecodeError(std::string field, std::size_t offset, const std::string &reason,
                         const char *unit)
    : std::runtime_error(field + " at " + unit + " " + std::to_string(offset) + ": " + reason),
      field_(std::move(field)), offset_(offset)
{
}

JsonError::JsonError(std::string path, const std::string &reason)
    : std::runtime_error(path + ": " + reason), path_(std::move(path))
{
}

} // namespace permanode::codec
