// Typed values read out of JSON that came from outside (node replies, Chronicle files). Each check
// comes before the conversion: nlohmann's get<T>() of a float or of a too-large number into an
// integer is undefined or wraps. Every failure is a JsonError naming the value's JSON path.
#pragma once

#include "codec/error.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace permanode::codec
{

inline std::string JsonJoin(const std::string &path, const std::string &key)
{
    return path + "." + key;
}

inline const nlohmann::json &JsonField(const nlohmann::json &object, const std::string &path,
                                       const std::string &key)
{
    if (!object.is_object())
        throw JsonError(path, "expected an object");
    auto it = object.find(key);
    if (it == object.end())
        throw JsonError(JsonJoin(path, key), "missing");
    return *it;
}

template <typename T> T JsonUnsigned(const nlohmann::json &value, const std::string &path)
{
    static_assert(std::is_unsigned_v<T>, "JsonUnsigned reads unsigned integers");
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
        throw JsonError(path, "expected a non-negative integer");
    std::uint64_t number = value.get<std::uint64_t>();
    if (number > std::numeric_limits<T>::max())
        throw JsonError(path, "out of range");
    return static_cast<T>(number);
}

template <typename T>
T JsonUnsignedField(const nlohmann::json &object, const std::string &path, const std::string &key)
{
    return JsonUnsigned<T>(JsonField(object, path, key), JsonJoin(path, key));
}

// Amounts, nonces and network IDs are decimal strings: they exceed JavaScript's safe integers.
inline std::uint64_t JsonDecimal(const nlohmann::json &value, const std::string &path)
{
    const std::string *text = value.is_string() ? &value.get_ref<const std::string &>() : nullptr;
    if (!text || text->empty() || text->size() > 20 ||
        text->find_first_not_of("0123456789") != std::string::npos)
        throw JsonError(path, "expected a decimal string");
    std::uint64_t number = 0;
    for (char digit : *text)
    {
        unsigned d = static_cast<unsigned>(digit - '0');
        if (number > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
            throw JsonError(path, "exceeds 64 bits");
        number = number * 10 + d;
    }
    return number;
}

inline std::uint64_t JsonDecimalField(const nlohmann::json &object, const std::string &path,
                                      const std::string &key)
{
    return JsonDecimal(JsonField(object, path, key), JsonJoin(path, key));
}

} // namespace permanode::codec
