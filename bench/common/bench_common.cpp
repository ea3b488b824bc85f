// Helpers shared by the benchmark programs.
#include "bench_common.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace permanode::bench
{

void PrintBaseline(const std::string &metric, double value)
{
    fmt::print("{}\t-\t{:.6g}\t-\tbaseline\n", metric, value);
    std::fflush(stdout);
}

void PrintRatio(const std::string &metric, double value, double baseline, const std::string &target)
{
    fmt::print("{}\t{:.6g}\t{:.6g}\t{:.2f}\t{}\n", metric, value, baseline, value / baseline,
               target);
    std::fflush(stdout);
}

std::string BenchDsn()
{
    const char *dsn = std::getenv("PERMANODE_BENCH_DSN");
    if (dsn == nullptr || *dsn == '\0')
    {
        std::fprintf(stderr, "PERMANODE_BENCH_DSN is not set: run benchmarks through bench/run\n");
        std::exit(2);
    }
    return dsn;
}

} // namespace permanode::bench
