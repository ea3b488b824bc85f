// Timing of lookups: one prepared statement over many parameter values.
#pragma once

#include <functional>
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

// The first column of `sql` as text, shuffled the same way in every run (popular keys come up as
// often as users ask for them).
std::vector<std::string> SampleKeys(pqxx::connection &conn, const std::string &sql);

// Mean microseconds of `run` over the second half of `keys`, after one untimed pass over the
// first half (other keys: plans cached, pages warm, no answer cached); throws when a timed
// call returns false (a lookup that found nothing).
double TimeEach(const std::vector<std::string> &keys,
                const std::function<bool(const std::string &)> &run);

// PERMANODE_BENCH_SCALE (default 1): how much of each benchmark's full-size ledger to make.
double BenchScale();

} // namespace permanode::bench
