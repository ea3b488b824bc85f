// Prints a query result as an aligned text table.
#include "print_table.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

namespace permanode::cli
{

void PrintTable(const pqxx::result &rows)
{
    std::vector<std::size_t> widths(rows.columns());
    for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
        widths[c] = std::string(rows.column_name(c)).size();
    for (const auto &row : rows)
        for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
            widths[c] = std::max(widths[c], std::string(row[c].c_str()).size());
    auto line = [&](auto cell)
    {
        std::string text;
        for (pqxx::row::size_type c = 0; c < rows.columns(); ++c)
            text += fmt::format("{}{:<{}}", c ? " | " : " ", cell(c), widths[c]);
        fmt::print("{}\n", text);
    };
    line([&](pqxx::row::size_type c) { return std::string(rows.column_name(c)); });
    std::size_t total = 0;
    for (std::size_t width : widths)
        total += width + 3;
    fmt::print("{}\n", std::string(total, '-'));
    for (const auto &row : rows)
        line([&](pqxx::row::size_type c) { return std::string(row[c].c_str()); });
    fmt::print("({} rows)\n", rows.size());
}

} // namespace permanode::cli
