// The fuzz targets' assertion: a failed check names itself, then aborts (a crash to libFuzzer,
// which keeps the input).
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                      \
    ((condition) ? (void)0 : permanode::fuzz::CheckFailed(#condition, __FILE__, __LINE__))

namespace permanode::fuzz
{

[[noreturn]] inline void CheckFailed(const char *condition, const char *file, int line)
{
    std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, condition);
    std::abort();
}

} // namespace permanode::fuzz
