// JSON as the text of a response. Values of the request reach error messages and bodies as the
// client sent them (a path segment, an indexation index, a cut-off quote of a body); where one
// is not UTF-8, U+FFFD stands in its place: nlohmann's plain dump() throws there, and the
// response would be a 500.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace permanode::http
{

inline std::string JsonText(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace permanode::http
