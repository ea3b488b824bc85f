// What end-to-end tests need from tests/run: the DSN of its throwaway cluster, and the size of a
// stress test.
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace permanode::test
{

// The DSN of the test cluster; fails the test when tests/run did not provide one.
inline std::string TestDsn()
{
    const char *dsn = std::getenv("PERMANODE_TEST_DSN");
    if (dsn == nullptr || *dsn == '\0')
    {
        ADD_FAILURE() << "PERMANODE_TEST_DSN is not set: run the tests through tests/run";
        return "host=/nonexistent";
    }
    return dsn;
}

// The size of a stress test: `fallback` in CI (a smoke run), more when the environment variable
// `name` says so (a longer run by hand).
inline int StressSize(const char *name, int fallback)
{
    const char *value = std::getenv(name);
    return value && *value ? std::atoi(value) : fallback;
}

} // namespace permanode::test
