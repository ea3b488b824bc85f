// Legacy node API request fields, checked as IRI checked them.
#include "routes/legacy_request.hpp"

#include "codec/error.hpp"
#include "codec/legacy/address.hpp"
#include "codec/legacy/trinary.hpp"
#include "server/json_errors.hpp"
#include "server/json_text.hpp"

namespace permanode::http::iri
{
namespace
{

namespace legacy = codec::legacy;

constexpr std::size_t kTagTrytes = 27;

HttpError Invalid(const std::string &what)
{
    return HttpError(400, what);
}

// A value as error messages quote it: JSON-quoted, long ones cut (within a UTF-8 sequence too).
std::string Quoted(const std::string &value)
{
    constexpr std::size_t kShown = 100;
    if (value.size() <= kShown)
    {
        return JsonText(value);
    }
    return JsonText(value.substr(0, kShown)) + "... (" + std::to_string(value.size()) +
           " characters)";
}

// A field's value as a message names it: a scalar as it is, an array or object by its kind (its
// text may be as long as the body, and nested deeper than writing it out could recurse).
std::string Described(const nlohmann::json &value)
{
    if (value.is_string())
    {
        return Quoted(value.get<std::string>());
    }
    if (value.is_array() || value.is_object())
    {
        return value.is_array() ? "an array" : "an object";
    }
    return JsonText(value);
}

// "Invalid hashes input: element 3, "ABC": why".
HttpError InvalidElement(const char *name, std::size_t index, const std::string &value,
                         const std::string &why)
{
    return Invalid(std::string("Invalid ") + name + " input: element " + std::to_string(index) +
                   ", " + Quoted(value) + ": " + why);
}

// Each element of a list field through `parse` (which returns why an element is bad, or "").
template <typename Parse>
std::vector<std::string> EachElement(const nlohmann::json &list, const char *name, Parse parse)
{
    std::vector<std::string> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); i++)
    {
        std::string value = list[i].get<std::string>();
        std::string why = parse(value);
        if (!why.empty())
        {
            throw InvalidElement(name, i, value, why);
        }
        out.push_back(std::move(value));
    }
    return out;
}

} // namespace

// Why `text` is not `size` trytes, or "" when it is.
std::string NotTrytes(const std::string &text, std::size_t size)
{
    for (std::size_t i = 0; i < text.size(); i++)
    {
        if (!legacy::IsTryte(text[i]))
        {
            return "character " + std::to_string(i) + " is not a tryte (A-Z or 9)";
        }
    }
    if (text.size() != size)
    {
        return "it has " + std::to_string(text.size()) + " trytes, not " + std::to_string(size);
    }
    return "";
}

nlohmann::json ParseBody(const std::string &body)
{
    nlohmann::json request = nlohmann::json::parse(body, nullptr, false);
    if (request.is_discarded())
    {
        throw Invalid("Invalid JSON syntax: the request body is not JSON");
    }
    if (!request.is_object())
    {
        throw Invalid("Invalid request payload: " + Quoted(body) + " is not a JSON object");
    }
    return request;
}

std::string Command(const nlohmann::json &request)
{
    auto command = request.find("command");
    if (command == request.end() || !command->is_string())
    {
        throw Invalid("COMMAND parameter has not been specified in the request.");
    }
    return command->get<std::string>();
}

const nlohmann::json *OptionalList(const nlohmann::json &request, const char *name)
{
    auto field = request.find(name);
    if (field == request.end())
    {
        return nullptr;
    }
    if (!field->is_array())
    {
        throw Invalid(std::string("Invalid parameters: ") + name + " must be an array of strings");
    }
    if (field->size() > kMaxRequestList)
    {
        throw Invalid("Could not complete request: " + std::string(name) + " has " +
                      std::to_string(field->size()) + " elements, more than " +
                      std::to_string(kMaxRequestList) + " (maxRequestsList)");
    }
    for (std::size_t i = 0; i < field->size(); i++)
    {
        if (!(*field)[i].is_string())
        {
            throw Invalid(std::string("Invalid ") + name + " input: element " + std::to_string(i) +
                          " is not a string");
        }
    }
    return &*field;
}

const nlohmann::json &RequiredList(const nlohmann::json &request, const char *name)
{
    const nlohmann::json *list = OptionalList(request, name);
    if (list == nullptr)
    {
        throw Invalid(std::string("Invalid parameters: ") + name + " is missing");
    }
    return *list;
}

std::vector<std::string> Hashes(const nlohmann::json &list, const char *name)
{
    return EachElement(
        list, name, [](const std::string &value) { return NotTrytes(value, legacy::kHashTrytes); });
}

std::vector<std::string> Addresses(const nlohmann::json &list, const char *name)
{
    std::vector<std::string> addresses;
    addresses.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); i++)
    {
        std::string value = list[i].get<std::string>();
        try
        {
            addresses.push_back(legacy::ParseAddress(value, name));
        }
        catch (const codec::DecodeError &e)
        {
            throw InvalidElement(name, i, value, e.what());
        }
    }
    return addresses;
}

std::vector<std::string> Tags(const nlohmann::json &list, const char *name)
{
    auto tags = EachElement(list, name,
                            [](const std::string &value) -> std::string
                            {
                                if (value.empty() || value.size() > kTagTrytes)
                                {
                                    return "a tag has 1 to 27 trytes";
                                }
                                if (value.find_first_not_of('9') == std::string::npos)
                                {
                                    return "a tag of nines only is no tag";
                                }
                                return NotTrytes(value, value.size());
                            });
    for (auto &tag : tags)
    {
        tag.resize(kTagTrytes, '9');
    }
    return tags;
}

std::string LegacyAddressParam(const std::string &text, const std::string &name)
{
    std::size_t size = text.size() == 90 ? 90 : 81;
    if (std::string why = NotTrytes(text, size); !why.empty())
    {
        throw BadParameter(name, "not a legacy address: " + why);
    }
    return text;
}

std::string TransactionHashParam(const std::string &text, const std::string &name)
{
    if (std::string why = NotTrytes(text, legacy::kHashTrytes); !why.empty())
    {
        throw BadParameter(name, "not a transaction hash: " + why);
    }
    return text;
}

std::optional<std::int64_t> OptionalInteger(const nlohmann::json &request, const char *name,
                                            std::int64_t min, std::int64_t max)
{
    auto field = request.find(name);
    if (field == request.end())
    {
        return std::nullopt;
    }
    if (!field->is_number_integer() || field->get<std::int64_t>() < min ||
        field->get<std::int64_t>() > max)
    {
        throw Invalid(std::string("Invalid ") + name + " input: " + Described(*field) +
                      " is not an integer from " + std::to_string(min) + " to " +
                      std::to_string(max));
    }
    return field->get<std::int64_t>();
}

} // namespace permanode::http::iri
