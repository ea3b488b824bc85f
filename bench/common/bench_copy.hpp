// Binary COPY between databases for the benchmarks: rows out into memory, and back in.
#pragma once

#include <string>

namespace permanode::bench
{

// The rows of `query` in COPY's binary format.
std::string CopyOut(const std::string &dsn, const std::string &query);

// Loads rows in COPY's binary format into `table` (an already quoted name). Throws on error.
void CopyIn(const std::string &dsn, const std::string &table, const std::string &data);

// True when binary COPY data holds no row (header and trailer only).
bool CopyIsEmpty(const std::string &data);

} // namespace permanode::bench
