// `permanode sync`: follow a node and archive each milestone it confirms, through the same
// ingest path as a bundle file (ingest_milestone, one transaction per milestone), checked first
// against the milestone payload and, in the same transaction, against the node's own ledger
// updates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace permanode::cli
{

struct SyncOptions
{
    std::string inx;                   // HOST:PORT of a Hornet node's INX server
    std::string api;                   // or the URL of a node's REST API
    bool gaps = false;                 // fill the gaps of permanode.sync_gaps() and stop
    std::optional<std::uint32_t> from; // the first milestone wanted
    std::optional<std::uint32_t> to;   // stop after this milestone
    bool until_synced = false;         // stop once the node's confirmed milestone is archived
    int ahead = 16;                    // milestones fetched ahead of the writer at most
    int requests = 8;                  // REST requests at once per milestone
    int pipeline_depth = 4;            // milestones sent to the server and not yet answered
    bool progress = true;
};

// Runs until stopped (Ctrl-C, SIGTERM, --to, --until-synced); returns the exit code
// (commands.hpp ExitCode).
int Sync(const std::string &dsn, const SyncOptions &options);

} // namespace permanode::cli
