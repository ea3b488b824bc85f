#include "ledger/named_sql.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace permanode::ledger
{
namespace
{

bool IsNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

std::string NumberPlaceholders(std::string_view sql, const std::vector<std::string_view> &names)
{
    std::vector<bool> used(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i)
            throw std::invalid_argument("parameter :" + std::string(names[i]) + " listed twice");
    std::string out;
    out.reserve(sql.size());
    for (std::size_t i = 0; i < sql.size();)
    {
        char c = sql[i];
        if (c == '\'' || c == '"')
        {
            // Quoted text or identifier; a doubled quote stays inside.
            std::size_t end = i + 1;
            while (end < sql.size() &&
                   !(sql[end] == c && (end + 1 >= sql.size() || sql[end + 1] != c)))
                end += sql[end] == c ? 2 : 1;
            out.append(sql.substr(i, end + 1 - i));
            i = end + 1;
            continue;
        }
        if (c == ':' && i + 1 < sql.size() && sql[i + 1] == ':')
        {
            out.append("::");
            i += 2;
            continue;
        }
        if (c == ':' && i + 1 < sql.size() && IsNameChar(sql[i + 1]))
        {
            std::size_t end = i + 1;
            while (end < sql.size() && IsNameChar(sql[end]))
                ++end;
            std::string_view name = sql.substr(i + 1, end - i - 1);
            auto found = std::find(names.begin(), names.end(), name);
            if (found == names.end())
                throw std::invalid_argument("placeholder :" + std::string(name) +
                                            " is not a parameter of the statement");
            std::size_t index = static_cast<std::size_t>(found - names.begin());
            used[index] = true;
            out += '$';
            out += std::to_string(index + 1);
            i = end;
            continue;
        }
        if (c == '$' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1])))
            throw std::invalid_argument("positional parameter in SQL with named placeholders");
        out += c;
        ++i;
    }
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!used[i])
            throw std::invalid_argument("parameter :" + std::string(names[i]) +
                                        " is not used by the statement");
    return out;
}

} // namespace permanode::ledger
