// What end-to-end tests need from tests/run: the DSN of its throwaway cluster.
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

} // namespace permanode::test
