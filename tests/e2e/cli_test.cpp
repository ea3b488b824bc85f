// The `permanode` CLI as a user runs it: exit codes and output.
#include <array>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "run_cli.hpp"
#include "test_env.hpp"

namespace
{

using permanode::test::RunCli;
using Result = permanode::test::CliResult;

} // namespace

TEST(CliTest, HelpListsSubcommandsAndExitCodes)
{
    auto r = RunCli("--help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.output.find("cluster"), std::string::npos);
    EXPECT_NE(r.output.find("status"), std::string::npos);
    EXPECT_NE(r.output.find("Exit codes"), std::string::npos);
}

TEST(CliTest, UnknownSubcommandIsUsageError)
{
    auto r = RunCli("frobnicate");
    EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(CliTest, StatusReportsVersions)
{
    auto r = RunCli(fmt::format("status --dsn '{}'", permanode::test::TestDsn()));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(fmt::format("permanode {}", PERMANODE_EXPECTED_VERSION)),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("PostgreSQL 15"), std::string::npos) << r.output;
}

TEST(CliTest, StatusAgainstUnreachableServerIsEnvironmentError)
{
    auto r = RunCli("status --dsn 'host=127.0.0.1 port=1 connect_timeout=2'");
    EXPECT_EQ(r.exit_code, 5) << r.output;
    EXPECT_NE(r.output.find("cannot connect"), std::string::npos) << r.output;
}

TEST(CliTest, SqlErrorIsDatabaseErrorWithSqlstate)
{
    auto r =
        RunCli(fmt::format("status --dsn '{} dbname=no_such_db_xyz'", permanode::test::TestDsn()));
    // A missing database is reported by the server at connect time (SQLSTATE 3D000), but libpq
    // surfaces it as a connection failure: the CLI must say which database.
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.output.find("no_such_db_xyz"), std::string::npos) << r.output;
}
