// `permanode`: the command-line interface to a permanode archive.
#include "commands.hpp"

#include <iostream>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "embedded_cluster.hpp"
#include "permanode/client.hpp"

using namespace permanode::cli;

int main(int argc, char **argv)
{
    CLI::App app{"permanode: an IOTA ledger archive inside PostgreSQL\n\n"
                 "Exit codes: 0 ok, 1 failure, 2 usage, 3 database error, 4 bad input,\n"
                 "            5 environment (cluster or program unavailable), 6 verify mismatch,\n"
                 "            7-10 sync refused (see permanode sync --help), 130 interrupted"};
    app.set_version_flag("--version", PERMANODE_VERSION_STRING);
    app.require_subcommand(1);
    CommonOptions common;
    RegisterClusterCommands(app, common);
    RegisterStatusCommand(app, common);
    RegisterVerifyCommand(app, common);
    RegisterExportCommand(app, common);
    RegisterAnalyticsCommand(app, common);
    RegisterFollowCommand(app, common);
    RegisterSyncCommand(app, common);
    RegisterInitCommand(app, common);
    RegisterImportChronicleCommand(app);
    RegisterImportDmpCommand(app, common);
    RegisterGenerateCommand(app);
    RegisterDecodeCommand(app);
    RegisterIngestCommand(app, common);
    RegisterArchiveCommands(app, common);
    RegisterDumpCommands(app, common);
    RegisterDemoCommand(app, common);
    RegisterServeCommand(app, common);

    try
    {
        app.parse(argc, argv);
        return kOk;
    }
    catch (const CLI::RuntimeError &e)
    {
        return e.get_exit_code();
    }
    catch (const CLI::ParseError &e)
    {
        int rc = app.exit(e);
        return rc == 0 ? kOk : kUsage;
    }
    catch (const permanode::client::Error &e)
    {
        if (e.sqlstate().rfind("08", 0) == 0)
        {
            fmt::print(stderr, "permanode: cannot connect: {}\n", e.what());
            return kEnvironment;
        }
        fmt::print(stderr, "permanode: database error{}: {}\n",
                   e.sqlstate().empty() ? "" : " " + e.sqlstate(), e.what());
        return kDatabase;
    }
    catch (const pqxx::sql_error &e)
    {
        fmt::print(stderr, "permanode: database error {}: {}\n", e.sqlstate(), e.what());
        return kDatabase;
    }
    catch (const pqxx::broken_connection &e)
    {
        fmt::print(stderr, "permanode: cannot connect: {}\n", e.what());
        return kEnvironment;
    }
    catch (const permanode::cli::EnvironmentError &e)
    {
        fmt::print(stderr, "permanode: {}\n", e.what());
        return kEnvironment;
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "permanode: {}\n", e.what());
        return kFailure;
    }
}
