#include "bench_query.hpp"

#include "bench_common.hpp"

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

} // namespace permanode::bench
