// The CLI's subcommands: cluster, status, demo.
#include "commands.hpp"

#include "embedded_cluster.hpp"

#include <iostream>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "permanode/client.hpp"

namespace permanode::cli
{
namespace
{

EmbeddedCluster ClusterFor(const CommonOptions &common)
{
    return EmbeddedCluster(common.dir.empty() ? EmbeddedCluster::DefaultRoot()
                                              : std::filesystem::path(common.dir));
}

// The DSN a command connects to: --dsn, else the embedded cluster's.
std::string DsnFor(const CommonOptions &common)
{
    return common.dsn.empty() ? ClusterFor(common).Dsn() : common.dsn;
}

void PrintBuildInfo(const std::string &dsn)
{
    client::Client client(dsn);
    auto info = client.GetBuildInfo();
    fmt::print("permanode {} / permanode_fdw {} on PostgreSQL {} with RocksDB {}\n",
               info.extension_version, info.fdw_version, info.pg_major, info.rocksdb_version);
}

} // namespace

void RegisterClusterCommands(CLI::App &app, CommonOptions &common)
{
    auto *cluster = app.add_subcommand("cluster", "Manage the embedded PostgreSQL cluster");
    cluster->require_subcommand(1);
    cluster->fallthrough(); // `cluster start --dir D` as well as `cluster --dir D start`
    cluster->add_option("--dir", common.dir,
                        "Cluster directory (default: $PERMANODE_HOME or ./.permanode)");

    static bool fast = false;
    auto *start = cluster->add_subcommand("start", "Create (if needed) and start the cluster, "
                                                   "with the permanode database and extensions");
    start->add_flag("--fast", fast, "Turn off fsync: for throwaway test clusters only");
    start->callback(
        [&]
        {
            auto c = ClusterFor(common);
            c.Start(fast);
            fmt::print("embedded cluster running: {}\n  log: {}\n", c.Dsn(), c.LogFile().string());
        });

    cluster->add_subcommand("stop", "Stop the cluster")
        ->callback([&] { ClusterFor(common).Stop(); });

    cluster->add_subcommand("status", "Say whether the cluster runs, and where")
        ->callback(
            [&]
            {
                auto c = ClusterFor(common);
                if (!c.IsRunning())
                {
                    fmt::print("embedded cluster at {} is not running\n", c.Root().string());
                    throw CLI::RuntimeError(kEnvironment);
                }
                fmt::print("embedded cluster running: {}\n", c.Dsn());
            });

    cluster->add_subcommand("env", "Print shell exports (PGHOST, PGPORT, ...) for the cluster")
        ->callback(
            [&]
            {
                auto c = ClusterFor(common);
                fmt::print("export PGHOST=127.0.0.1 PGPORT={} PGUSER=postgres PGDATABASE={}\n",
                           c.Port(), EmbeddedCluster::kDatabase);
            });

    cluster->add_subcommand("destroy", "Delete a stopped cluster's files")
        ->callback([&] { ClusterFor(common).Destroy(); });
}

void RegisterStatusCommand(CLI::App &app, CommonOptions &common)
{
    auto *status = app.add_subcommand("status", "Show what the database holds and where");
    status->add_option("--dsn", common.dsn, "libpq connection string (default: embedded cluster)");
    status->add_option("--dir", common.dir, "Embedded cluster directory");
    status->callback([&] { PrintBuildInfo(DsnFor(common)); });
}

void RegisterDemoCommand(CLI::App &app, CommonOptions &common)
{
    auto *demo = app.add_subcommand(
        "demo", "The main job on the embedded default: start the cluster, load, query");
    demo->add_option("--dir", common.dir, "Embedded cluster directory");
    demo->callback(
        [&]
        {
            auto c = ClusterFor(common);
            c.Start(false);
            fmt::print("embedded cluster running: {}\n", c.Dsn());
            PrintBuildInfo(c.Dsn());
        });
}

} // namespace permanode::cli
