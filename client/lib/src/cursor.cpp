// Cursor text form.
#include "permanode/cursor.hpp"

#include <charconv>

namespace permanode::client
{
namespace
{

// Parses one decimal (optionally negative) integer field; false when it is not exactly one.
template <typename Int> bool ParseField(std::string_view text, Int &value)
{
    if (text.empty())
    {
        return false;
    }
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

// Letters, digits and the few URL-safe marks an ID or key may use.
bool IsKeyText(std::string_view text)
{
    if (text.empty() || text.size() > 200)
    {
        return false;
    }
    for (char c : text)
    {
        bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  c == '-' || c == '_';
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

} // namespace

std::string EncodeCursor(const Cursor &cursor)
{
    return std::to_string(cursor.ms_range_id) + "." + std::to_string(cursor.ms_timestamp_us) + "." +
           std::to_string(cursor.milestone_index) + "." + cursor.id;
}

std::optional<Cursor> DecodeCursor(std::string_view text)
{
    Cursor cursor;
    std::string_view parts[4];
    for (int i = 0; i < 3; i++)
    {
        auto dot = text.find('.');
        if (dot == std::string_view::npos)
        {
            return std::nullopt;
        }
        parts[i] = text.substr(0, dot);
        text.remove_prefix(dot + 1);
    }
    parts[3] = text;
    if (!ParseField(parts[0], cursor.ms_range_id) ||
        !ParseField(parts[1], cursor.ms_timestamp_us) ||
        !ParseField(parts[2], cursor.milestone_index) || !IsKeyText(parts[3]))
    {
        return std::nullopt;
    }
    cursor.id = std::string(parts[3]);
    return cursor;
}

} // namespace permanode::client
