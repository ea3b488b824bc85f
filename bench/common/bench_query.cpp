#include "bench_query.hpp"

#include <stdexcept>

#include "bench_common.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>

namespace permanode::bench
{

double TimePrepared(pqxx::connection &conn, const std::string &sql,
                    const std::vector<std::string> &values)
{
    conn.prepare("q", sql);
    pqxx::nontransaction tx(conn);
    for (const auto &v : values)
        tx.exec_prepared("q", v);
    auto start = std::chrono::steady_clock::now();
    for (const auto &v : values)
        tx.exec_prepared("q", v);
    double us = SecondsSince(start) / values.size() * 1e6;
    conn.unprepare("q");
    return us;
}

std::vector<std::string> SampleKeys(pqxx::connection &conn, const std::string &sql)
{
    pqxx::nontransaction tx(conn);
    std::vector<std::string> values;
    for (auto row : tx.exec(sql))
        values.push_back(row[0].as<std::string>());
    std::shuffle(values.begin(), values.end(), std::mt19937(7));
    return values;
}

double TimeEach(const std::vector<std::string> &keys,
                const std::function<bool(const std::string &)> &run)
{
    size_t half = keys.size() / 2;
    for (size_t i = 0; i < half; i++)
        run(keys[i]);
    auto start = std::chrono::steady_clock::now();
    for (size_t i = half; i < keys.size(); i++)
        if (!run(keys[i]))
            throw std::runtime_error("a lookup found nothing: " + keys[i]);
    return SecondsSince(start) / (keys.size() - half) * 1e6;
}

double BenchScale()
{
    const char *scale = std::getenv("PERMANODE_BENCH_SCALE");
    return scale && *scale ? std::atof(scale) : 1.0;
}

} // namespace permanode::bench
