// Parameter parsing.
#include "server/params.hpp"

#include <cctype>
#include <charconv>
#include <regex>

#include <httplib.h>

#include "codec/bech32.hpp"
#include "codec/hex.hpp"
#include "server/json_errors.hpp"

namespace permanode::http
{
namespace
{

template <typename Int> std::optional<Int> ParseDecimal(const std::string &text)
{
    Int value{};
    if (text.empty() || text.size() > 20)
    {
        return std::nullopt;
    }
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
    {
        return std::nullopt;
    }
    return value;
}

bool IsHex(const std::string &text, std::size_t from)
{
    for (std::size_t i = from; i < text.size(); i++)
    {
        if (!std::isxdigit(static_cast<unsigned char>(text[i])))
        {
            return false;
        }
    }
    return true;
}

std::string Lower(std::string text)
{
    for (char &c : text)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

} // namespace

std::string HexIdParam(const std::string &text, const std::string &name, std::size_t size)
{
    if (text.size() != 2 + 2 * size || text[0] != '0' || (text[1] != 'x' && text[1] != 'X') ||
        !IsHex(text, 2))
    {
        throw BadParameter(name,
                           "expected 0x followed by " + std::to_string(2 * size) + " hex digits");
    }
    return Lower(text);
}

std::string PlainHexIdParam(const std::string &text, const std::string &name, std::size_t size)
{
    std::size_t from = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0 ? 2 : 0;
    if (text.size() != from + 2 * size || !IsHex(text, from))
    {
        throw BadParameter(name, "expected " + std::to_string(2 * size) + " hex digits");
    }
    return "0x" + Lower(text.substr(from));
}

std::string ChrysalisAddressParam(const std::string &text, const std::string &name)
{
    codec::Address address;
    try
    {
        address = codec::AddressFromBech32(Lower(text));
    }
    catch (const std::exception &e)
    {
        throw BadParameter(name, std::string("not a bech32 address (") + e.what() + ")");
    }
    if (address.type != codec::AddressType::kEd25519)
        throw BadParameter(name, "not an Ed25519 address: Chrysalis has no other kind");
    return "0x00" + codec::ToHex(address.id).substr(2);
}

std::string AnyEraAddressParam(const std::string &text, const std::string &name)
{
    try
    {
        return codec::AddressHexOfAnyEra(text);
    }
    catch (const std::exception &e)
    {
        throw BadParameter(name, std::string("not an address: bech32 of either era, or the hex "
                                             "of an Ed25519 address (") +
                                     e.what() + ")");
    }
}

std::string Ed25519AddressParam(const std::string &text, const std::string &name)
{
    return "0x00" + PlainHexIdParam(text, name, 32).substr(2);
}

std::string IndexationIndexParam(const httplib::Request &request, const std::string &name)
{
    auto text = QueryText(request, name);
    if (!text || text->empty())
    {
        throw BadParameter(name, "required: the indexation index, as hex or as UTF-8 text");
    }
    std::size_t from = text->rfind("0x", 0) == 0 ? 2 : 0;
    std::string bytes_hex;
    if (text->size() > from && (text->size() - from) % 2 == 0 && IsHex(*text, from))
    {
        bytes_hex = Lower(text->substr(from));
    }
    else
    {
        bytes_hex =
            codec::ToHex(
                codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(text->data()), text->size()))
                .substr(2);
    }
    if (bytes_hex.size() > 2 * 64)
    {
        throw BadParameter(name, "an indexation index has at most 64 bytes, this one " +
                                     std::to_string(bytes_hex.size() / 2));
    }
    return "\\x" + bytes_hex;
}

std::string AddressParam(const std::string &text, const std::string &name)
{
    try
    {
        codec::AddressFromBech32(text);
    }
    catch (const std::exception &e)
    {
        throw BadParameter(name, std::string("not a bech32 address (") + e.what() + ")");
    }
    return text;
}

std::int32_t MilestoneIndexParam(const std::string &text, const std::string &name)
{
    auto value = ParseDecimal<std::int32_t>(text);
    if (!value || *value < 0)
    {
        throw BadParameter(name, "expected a milestone index (0 to 2147483647)");
    }
    return *value;
}

std::optional<std::string> QueryText(const httplib::Request &request, const std::string &name)
{
    if (!request.has_param(name.c_str()))
    {
        return std::nullopt;
    }
    return request.get_param_value(name.c_str());
}

std::optional<bool> QueryBool(const httplib::Request &request, const std::string &name)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    if (*text == "true")
    {
        return true;
    }
    if (*text == "false")
    {
        return false;
    }
    throw BadParameter(name, "expected true or false");
}

std::optional<std::int32_t> QueryCount(const httplib::Request &request, const std::string &name)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    auto value = ParseDecimal<std::int32_t>(*text);
    if (!value || *value < 0 || *value > 255)
    {
        throw BadParameter(name, "expected a count from 0 to 255");
    }
    return value;
}

std::optional<std::int64_t> QueryTime(const httplib::Request &request, const std::string &name)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    auto value = ParseDecimal<std::int64_t>(*text);
    if (!value || *value < 0 || *value > 253402300799) // 9999-12-31
    {
        throw BadParameter(name, "expected a Unix time in seconds");
    }
    return value;
}

std::optional<std::string> QueryAddress(const httplib::Request &request, const std::string &name)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    return AddressParam(*text, name);
}

std::optional<std::string> QueryHex(const httplib::Request &request, const std::string &name,
                                    std::size_t max_bytes)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    if (text->size() < 2 || (*text)[0] != '0' || ((*text)[1] != 'x' && (*text)[1] != 'X') ||
        text->size() % 2 != 0 || text->size() > 2 + 2 * max_bytes || !IsHex(*text, 2))
    {
        throw BadParameter(name,
                           "expected 0x-hex of at most " + std::to_string(max_bytes) + " bytes");
    }
    return Lower(*text);
}

std::optional<std::string> QueryDate(const httplib::Request &request, const std::string &name)
{
    static const std::regex date(R"(\d{4}-\d{2}-\d{2})");
    auto text = QueryText(request, name);
    if (text && !std::regex_match(*text, date))
    {
        throw BadParameter(name, "expected a date YYYY-MM-DD");
    }
    return text;
}

std::optional<int> QueryInt(const httplib::Request &request, const std::string &name, int min,
                            int max)
{
    auto text = QueryText(request, name);
    if (!text)
    {
        return std::nullopt;
    }
    auto value = ParseDecimal<int>(*text);
    if (!value || *value < min || *value > max)
    {
        throw BadParameter(name, "expected " + std::to_string(min) + " to " + std::to_string(max));
    }
    return value;
}

client::SortOrder SortParam(const httplib::Request &request)
{
    auto text = QueryText(request, "sort");
    if (!text || *text == "newest")
    {
        return client::SortOrder::kNewest;
    }
    if (*text == "oldest")
    {
        return client::SortOrder::kOldest;
    }
    throw BadParameter("sort", "expected newest or oldest");
}

int PageSize(const httplib::Request &request)
{
    auto text = QueryText(request, "pageSize");
    if (!text)
    {
        return kDefaultPageSize;
    }
    auto value = ParseDecimal<int>(*text);
    if (!value || *value < 1 || *value > kMaxPageSize)
    {
        throw BadParameter("pageSize", "expected 1 to " + std::to_string(kMaxPageSize));
    }
    return *value;
}

std::optional<client::Cursor> CursorParam(const httplib::Request &request, CursorKey key)
{
    auto text = QueryText(request, "cursor");
    if (!text)
    {
        return std::nullopt;
    }
    auto cursor = client::DecodeCursor(*text);
    if (!cursor)
    {
        throw BadParameter("cursor", "not a cursor this server returned");
    }
    const std::string &id = cursor->id;
    auto hex_id = [&id](std::size_t bytes, std::size_t tail)
    {
        return id.size() == 2 + 2 * bytes + tail && id[0] == '0' && id[1] == 'x' &&
               IsHex(id.substr(0, 2 + 2 * bytes), 2);
    };
    bool fits = false;
    switch (key)
    {
        case CursorKey::kBlockId:
            fits = hex_id(32, 0);
            break;
        case CursorKey::kOutputId:
            fits = hex_id(34, 0);
            break;
        case CursorKey::kWhiteFlagIndex:
            fits = !id.empty() && id.size() <= 10 &&
                   id.find_first_not_of("0123456789") == std::string::npos;
            break;
        case CursorKey::kLedgerUpdate:
            fits = hex_id(34, 1) && (id.back() == 'c' || id.back() == 's');
            break;
    }
    if (!fits)
    {
        throw BadParameter("cursor", "not a cursor of this list");
    }
    return cursor;
}

bool WantsRaw(const httplib::Request &request)
{
    return request.get_header_value("Accept").find("application/vnd.iota.serializer-v1") !=
           std::string::npos;
}

} // namespace permanode::http
