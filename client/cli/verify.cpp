#include "verify.hpp"

#include <chrono>

#include <fmt/format.h>

namespace permanode::cli
{
namespace
{

// Prints the mismatches of one call; returns how many.
long PrintMismatches(pqxx::nontransaction &tx, const std::string &sql, int from, int to,
                     const char *unit)
{
    long found = 0;
    for (auto row : tx.exec_params(sql, from, to))
    {
        fmt::print("{} {} {} {}: {}\n", row[0].c_str(), unit, row[1].as<int>(),
                   row[2].is_null() ? "-" : row[2].c_str(), row[3].c_str());
        found++;
    }
    return found;
}

} // namespace

long Verify(pqxx::connection &conn, const VerifyOptions &options)
{
    auto start = std::chrono::steady_clock::now();
    pqxx::nontransaction tx(conn);
    auto held = tx.exec1(
        "SELECT min(milestone_index) / (SELECT chunk_size FROM permanode.ledger_tables WHERE "
        "table_name = 'messages'), max(milestone_index) / (SELECT chunk_size FROM "
        "permanode.ledger_tables WHERE table_name = 'messages') FROM permanode.sync");
    long found = 0;
    int ranges = 0, months = 0;
    if (!held[0].is_null())
    {
        int from = options.from_range.value_or(held[0].as<int>());
        int to = options.to_range.value_or(held[1].as<int>() + 1);
        for (int r = from; r < to; r++, ranges++)
        {
            long here =
                PrintMismatches(tx, "SELECT * FROM permanode.verify($1, $2)", r, r + 1, "range");
            found += here;
            fmt::print(stderr, "verify: range {}: {} mismatches\n", r, here);
        }
    }
    bool legacy_held =
        options.legacy && tx.exec1("SELECT to_regnamespace('legacy') IS NOT NULL")[0].as<bool>();
    if (legacy_held)
        for (auto row : tx.exec("SELECT DISTINCT g.m FROM legacy.status s, generate_series("
                                "s.from_month, s.to_month - 1) g(m) WHERE s.table_name = "
                                "'legacy.transactions'::regclass ORDER BY 1"))
        {
            int m = row[0].as<int>();
            long here =
                PrintMismatches(tx, "SELECT * FROM legacy.verify($1, $2)", m, m + 1, "month");
            found += here;
            months++;
            fmt::print(stderr, "verify: legacy month {}: {} mismatches\n", m, here);
        }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(stderr, "verified {} ranges and {} legacy months in {:.1f} s: {}\n", ranges, months,
               seconds,
               found == 0 ? "every row is what its bytes say"
                          : fmt::format("{} mismatches", found));
    return found;
}

} // namespace permanode::cli
