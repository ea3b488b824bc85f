// Timing of lookups: one prepared statement over many parameter values.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
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

// Mean microseconds of `run` as the first call on a new connection, for each of the first `n`
// keys: `connect` makes the connection (not timed), `run` looks the key up on it. What a BI tool,
// a script or a transaction-pooled client meets: no relcache entry, no plan, no open archive.
template <typename Connection>
double TimeFirstOnNewConnections(const std::vector<std::string> &keys, std::size_t n,
                                 const std::function<std::unique_ptr<Connection>()> &connect,
                                 const std::function<bool(Connection &, const std::string &)> &run)
{
    n = std::min(n, keys.size());
    double seconds = 0;
    for (std::size_t i = 0; i < n; i++)
    {
        std::unique_ptr<Connection> connection = connect();
        auto start = std::chrono::steady_clock::now();
        if (!run(*connection, keys[i]))
            throw std::runtime_error("a lookup found nothing: " + keys[i]);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return seconds / n * 1e6;
}

// PERMANODE_BENCH_SCALE (default 1): how much of each benchmark's full-size ledger to make.
double BenchScale();

} // namespace permanode::bench
