// Helpers shared by the benchmark programs: timing and the row format bench/run collates.
#pragma once

#include <chrono>
#include <string>

namespace permanode::bench
{

// Seconds elapsed since start.
inline double SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Prints a baseline row: measured here, compared against by other rows.
void PrintBaseline(const std::string &metric, double value);

// Prints a comparison row; ratio = value / baseline. target is text such as "<=1.5" or ">=0.5".
void PrintRatio(const std::string &metric, double value, double baseline,
                const std::string &target);

// The DSN from PERMANODE_BENCH_DSN; exits with a message when it is not set.
std::string BenchDsn();

} // namespace permanode::bench
