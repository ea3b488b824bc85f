// Prints a query result as an aligned text table, as psql does.
#pragma once

#include <pqxx/pqxx>

namespace permanode::cli
{

// Prints the column names, a rule, the rows and "(N rows)".
void PrintTable(const pqxx::result &rows);

} // namespace permanode::cli
