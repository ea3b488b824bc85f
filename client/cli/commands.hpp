// The CLI's subcommands. Each returns a process exit code (see ExitCode).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "embedded_cluster.hpp"

namespace permanode::cli
{

// Documented exit codes of the `permanode` command.
enum ExitCode : int
{
    kOk = 0,
    kFailure = 1,         // anything not covered below
    kUsage = 2,           // bad command line
    kDatabase = 3,        // the database reported an error (message carries the SQLSTATE)
    kBadInput = 4,        // an input file is malformed (message names file:line)
    kEnvironment = 5,     // the embedded cluster or a program it needs is unavailable
    kMismatch = 6,        // verify found stored rows that differ from what the stored bytes say
    kNodePruned = 7,      // sync: the node no longer has milestones the archive needs
    kNodeBehind = 8,      // sync: the node is behind the archive
    kNetworkMismatch = 9, // sync: the node follows another network than the archive's
    kNodeDisagrees = 10,  // sync: a milestone's cone, payload and ledger updates disagree
    kInterrupted = 130,
};

// Options every subcommand shares.
struct CommonOptions
{
    std::string dsn; // empty: the embedded cluster
    std::string dir; // the embedded cluster's directory; empty: the default
};

// The embedded cluster of --dir (or the default), started (created the first time); says on
// stderr which PG variables it leaves unused.
EmbeddedCluster StartedEmbeddedCluster(const CommonOptions &common);

void RegisterClusterCommands(CLI::App &app, CommonOptions &common);
void RegisterStatusCommand(CLI::App &app, CommonOptions &common);
void RegisterVerifyCommand(CLI::App &app, CommonOptions &common);
void RegisterFollowCommand(CLI::App &app, CommonOptions &common);
void RegisterSyncCommand(CLI::App &app, CommonOptions &common);
void RegisterDumpCommands(CLI::App &app, CommonOptions &common);
void RegisterDecodeCommand(CLI::App &app);
void RegisterDemoCommand(CLI::App &app, CommonOptions &common);
void RegisterInitCommand(CLI::App &app, CommonOptions &common);
void RegisterIngestCommand(CLI::App &app, CommonOptions &common);
void RegisterImportChronicleCommand(CLI::App &app);
void RegisterImportDmpCommand(CLI::App &app, CommonOptions &common);
void RegisterGenerateCommand(CLI::App &app);
void RegisterServeCommand(CLI::App &app, CommonOptions &common);
void RegisterExportCommand(CLI::App &app, CommonOptions &common);
void RegisterAnalyticsCommand(CLI::App &app, CommonOptions &common);
void RegisterArchiveCommands(CLI::App &app, CommonOptions &common);

} // namespace permanode::cli
