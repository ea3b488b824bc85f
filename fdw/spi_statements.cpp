/*
 * spi_statements.cpp
 *	  SQL statements run through SPI in the caller's transaction (archive's swap, restore's
 *	  recreation and drop, the ANALYZE before choosing dictionary columns).
 */
extern "C"
{
#include "postgres.h"

#include "executor/spi.h"
}

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

void ExecuteStatements(const std::vector<std::string> &statements)
{
    SPI_connect();
    for (const auto &sql : statements)
        if (SPI_execute(sql.c_str(), false, 0) < 0)
            elog(ERROR, "SPI_execute failed: %s", sql.c_str());
    SPI_finish();
}

} // namespace permanode::fdw
