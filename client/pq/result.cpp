// Result: a libpq result read through client::Result.
#include "pq/result.hpp"

#include "permanode/client.hpp"

#include <libpq-fe.h>

#include <string>

namespace permanode::pq
{

Result::~Result()
{
    PQclear(result_);
}

int Result::Rows() const
{
    return PQntuples(result_);
}

bool Result::IsNull(int row, int column) const
{
    Check(row, column);
    return PQgetisnull(result_, row, column) != 0;
}

std::string_view Result::Text(int row, int column) const
{
    Check(row, column);
    return std::string_view(PQgetvalue(result_, row, column),
                            static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

void Result::Check(int row, int column) const
{
    if (row < 0 || row >= PQntuples(result_) || column < 0 || column >= PQnfields(result_))
        throw client::Error("result has no row " + std::to_string(row + 1) + ", column " +
                                std::to_string(column + 1),
                            "XX000");
}

} // namespace permanode::pq
