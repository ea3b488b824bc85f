// Timing of lookups: one prepared statement over many parameter values.
#pragma once

#include <string>
#include <vector>

#include <pqxx/pqxx>

namespace permanode::bench
{

// Average microseconds of `sql` (one parameter) over `values`, after one untimed pass: the
// steady state of a long-lived backend, with every partition's relcache entry built and the
// pages cached, on both sides of each comparison.
double TimePrepared(pqxx::connection &conn, const std::string &sql,
                    const std::vector<std::string> &values);

} // namespace permanode::bench
