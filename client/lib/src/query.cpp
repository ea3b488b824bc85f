// Params, Field and the row helpers shared by the library's queries.
#include "permanode/query.hpp"

#include "internal.hpp"

namespace permanode::client
{

void Params::Add(const std::optional<Cursor> &cursor)
{
    if (cursor)
    {
        Add(std::to_string(cursor->ms_range_id));
        Add(std::to_string(cursor->ms_timestamp_us));
        Add(std::to_string(cursor->milestone_index));
        Add(cursor->id);
    }
    else
    {
        for (int i = 0; i < 4; i++)
        {
            AddNull();
        }
    }
}

void Field::Unreadable(const char *type) const
{
    throw Error("result column " + std::to_string(column_ + 1) + " is not " + type + ": \"" +
                    std::string(text().substr(0, 40)) + "\"",
                "22P02");
}

template <> bool Field::as<bool>() const
{
    auto value = text();
    if (value == "t")
    {
        return true;
    }
    if (value == "f")
    {
        return false;
    }
    Unreadable("a boolean");
}

template <> double Field::as<double>() const
{
    auto value = text();
    double out = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (error != std::errc() || end != value.data() + value.size())
    {
        Unreadable("a number");
    }
    return out;
}

std::string Field::Bytes() const
{
    // bytea's text output: \x followed by two hex digits per byte.
    auto value = text();
    if (value.size() < 2 || value[0] != '\\' || value[1] != 'x' || value.size() % 2 != 0)
    {
        Unreadable("bytea in hex form");
    }
    auto nibble = [](char c) -> int
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string bytes;
    bytes.reserve((value.size() - 2) / 2);
    for (std::size_t i = 2; i < value.size(); i += 2)
    {
        int high = nibble(value[i]);
        int low = nibble(value[i + 1]);
        if (high < 0 || low < 0)
        {
            Unreadable("bytea in hex form");
        }
        bytes.push_back(static_cast<char>(high << 4 | low));
    }
    return bytes;
}

namespace internal
{

std::string Micros(const std::string &column)
{
    return "(extract(epoch FROM " + column + ") * 1000000)::bigint";
}

std::string KeysetCondition(int n, const std::string &range, const std::string &timestamp,
                            const std::string &milestone_index, const std::string &id,
                            const std::string &id_cast, SortOrder order)
{
    auto p = [n](int i) { return "$" + std::to_string(n + i); };
    const char *after = order == SortOrder::kNewest ? ") < (" : ") > (";
    return "(" + p(0) + "::int IS NULL OR (" + range + ", " + timestamp + ", " + milestone_index +
           ", " + id + after + p(0) + "::int, timestamptz 'epoch' + " + p(1) +
           "::bigint * interval '1 microsecond', " + p(2) + "::int, " + p(3) + "::" + id_cast +
           "))";
}

std::string RetiredNewestFirst(const std::string &columns, const std::string &where,
                               const std::string &point, const std::string &key,
                               const std::string &at, const std::string &upto,
                               const std::string &limit)
{
    const std::string alive = " WHERE o.milestone_index <= " + at +
                              " AND o.spent_milestone_index > " + at + where + " AND " + point +
                              " <@ permanode.span_box(" + key + ", " + at + ", ";
    return "(WITH k AS MATERIALIZED (SELECT " + columns + " FROM permanode.retired_outputs o" +
           alive + "0, " + upto + ") ORDER BY " + point + " <-> permanode.span_newest(" + key +
           ", " + upto + ") LIMIT " + limit + ") SELECT * FROM k UNION SELECT " + columns +
           " FROM (SELECT min(k.milestone_index) AS oldest, count(*) AS n FROM k) t, "
           "permanode.retired_outputs o" +
           alive + "t.oldest, t.oldest) AND t.n = " + limit + ")";
}

Cursor CursorOf(const Row &row, int first, int id_column)
{
    Cursor cursor;
    cursor.ms_range_id = row[first].as<std::int32_t>();
    cursor.ms_timestamp_us = row[first + 1].as<std::int64_t>();
    cursor.milestone_index = row[first + 2].as<std::int32_t>();
    cursor.id = row[id_column].as<std::string>();
    return cursor;
}

Page<std::string> IdPage(const Result &result, int page_size)
{
    return MakePage<std::string>(
        result, page_size, [](const Row &row) { return row[0].as<std::string>(); },
        [](const Row &row) { return CursorOf(row, 1, 0); });
}

std::optional<std::string> FirstText(const Result &result)
{
    return FirstRow(result, [](const Row &row) { return row[0].as<std::string>(); });
}

std::string ArrayLiteral(const std::vector<std::string> &elements)
{
    std::string out = "{";
    for (const auto &element : elements)
    {
        if (out.size() > 1)
        {
            out += ',';
        }
        out += '"';
        for (char c : element)
        {
            if (c == '"' || c == '\\')
            {
                out += '\\';
            }
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

} // namespace internal
} // namespace permanode::client
