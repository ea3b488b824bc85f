#include "bench_query.hpp"

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

double BenchScale()
{
    const char *scale = std::getenv("PERMANODE_BENCH_SCALE");
    return scale && *scale ? std::atof(scale) : 1.0;
}

} // namespace permanode::bench
