// The database the HTTP and client-library end-to-end tests read: the real fixtures loaded once
// per test program by http_load_fixtures.sh into a database of the test cluster.
#pragma once

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "test_env.hpp"

namespace permanode::test
{

constexpr const char *kReaderRole = "permanode_http_test";

// Runs tests/e2e/`script` (one of the http_load_*.sh) for database `db` of the test cluster,
// with `extra` arguments; a failure is the calling test's. Returns the database's DSN as the
// superuser the cluster gives tests.
inline std::string LoadDatabase(const std::string &script, const std::string &db,
                                const std::string &extra = "")
{
    std::string command = fmt::format("'{}/tests/e2e/{}' '{}' {} {}", PERMANODE_SOURCE_DIR, script,
                                      TestDsn(), db, extra);
    if (std::system(command.c_str()) != 0)
    {
        ADD_FAILURE() << "loading the fixtures failed: " << command;
    }
    return TestDsn() + " dbname=" + db;
}

// The DSN of the loaded database as the superuser the cluster gives tests.
inline std::string FixtureAdminDsn()
{
    static const std::string dsn = LoadDatabase("http_load_fixtures.sh", "permanode_http_e2e");
    return dsn;
}

// The same database as the read-only login.
inline std::string FixtureReaderDsn()
{
    return FixtureAdminDsn() + " user=" + kReaderRole;
}

// A fixtures directory of ../shared/fixtures (`name`: chrysalis, legacy): `own_env` when set,
// else the sibling `name` of PERMANODE_FIXTURES (the Shimmer ones), else the source tree's.
inline std::string SharedFixturesDir(const char *own_env, const std::string &name)
{
    if (const char *dir = std::getenv(own_env); dir && *dir)
    {
        return dir;
    }
    if (const char *dir = std::getenv("PERMANODE_FIXTURES"); dir && *dir)
    {
        return std::string(dir) + "/../" + name;
    }
    return std::string(PERMANODE_SOURCE_DIR) + "/../shared/fixtures/" + name;
}

} // namespace permanode::test
