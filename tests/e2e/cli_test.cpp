// The `permanode` CLI as a user runs it: exit codes and output.
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
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

// Without --dsn a command uses the embedded cluster, whatever libpq's variables say; the CLI
// names the ones it leaves unused, so a user whose PGHOST points elsewhere learns where the
// command went.
TEST(CliTest, WithoutDsnTheUnusedPgVariablesAreNamed)
{
    const std::array<const char *, 3> names = {"PGHOST", "PGPORT", "PGDATABASE"};
    std::array<std::optional<std::string>, 3> saved;
    for (std::size_t i = 0; i < names.size(); i++)
    {
        if (const char *value = std::getenv(names[i]))
            saved[i] = value;
        unsetenv(names[i]);
    }
    auto dir = std::filesystem::temp_directory_path() /
               fmt::format("permanode-cli-no-cluster-{}", getpid());
    auto status = fmt::format("status --dir '{}'", dir.string());

    auto quiet = RunCli(status);
    EXPECT_EQ(quiet.exit_code, 5) << quiet.output; // no cluster there
    EXPECT_EQ(quiet.output.find("no --dsn"), std::string::npos) << quiet.output;

    setenv("PGHOST", "db.example", 1);
    setenv("PGDATABASE", "ledger", 1);
    auto noted = RunCli(status);
    EXPECT_EQ(noted.exit_code, 5) << noted.output;
    EXPECT_NE(noted.output.find(fmt::format("no --dsn: using the embedded cluster in {} "
                                            "(PGHOST, PGDATABASE not used; pass --dsn to "
                                            "connect elsewhere)",
                                            dir.string())),
              std::string::npos)
        << noted.output;

    for (std::size_t i = 0; i < names.size(); i++)
    {
        if (saved[i])
            setenv(names[i], saved[i]->c_str(), 1);
        else
            unsetenv(names[i]);
    }
    EXPECT_FALSE(std::filesystem::exists(dir)) << "status created a cluster";
}
