// `permanode ingest`: loads milestone bundles (bundle.hpp) into a permanode database, one
// transaction per milestone, several milestones in flight (ingest_connection.hpp).
#pragma once

#include <cstdint>
#include <string>

namespace permanode::cli
{

// One connection per core, at least 2 and at most 8. More server processes than cores cost more
// than they overlap: each one faults in every shared-buffer page it touches (no huge pages),
// and milestones that share hint rows wait for each other's commit.
int DefaultJobs();

struct IngestOptions
{
    std::string input;        // a file, or "-" for stdin
    bool skip_bad = false;    // record bad milestones and go on, instead of stopping
    std::string rejects_path; // NDJSON file of rejected lines (with --skip-bad); empty: none
    int pipeline_depth = 8;   // milestones sent and not yet answered, per connection
    int jobs = DefaultJobs(); // connections ingesting different milestones at once
    // false: milestones commit with synchronous_commit = off and one flush before Ingest returns
    // makes them all durable; a server crash mid-run loses only commits a re-run redoes.
    bool synchronous_commit = false;
    bool precheck = true; // decode blocks here before sending (bundle_check.hpp)
    bool progress = true; // draw progress when stderr is a terminal
    bool summary = true;  // print the summary line on stdout
    bool measure = true;  // measure the milestones ingested (analytics.hpp MeasureIngested)
};

struct IngestSummary
{
    std::uint64_t ingested = 0;
    std::uint64_t already_present = 0;
    std::uint64_t skipped = 0;
    std::uint64_t blocks = 0;  // blocks of the ingested milestones
    std::uint64_t outputs = 0; // outputs they booked
    std::uint64_t spent = 0;   // outputs they spent
    std::int64_t lowest = -1;  // the lowest and highest milestone ingested (-1: none)
    std::int64_t highest = -1;
    double seconds = 0;
};

// Runs the ingest and returns the command's exit code (commands.hpp ExitCode): kOk,
// kBadInput (a bad line, reported as FILE:LINE on stderr; nothing of it committed),
// kInterrupted (Ctrl-C: stopped after the milestones in flight), or kDatabase.
int Ingest(const std::string &dsn, const IngestOptions &options, IngestSummary &summary);

} // namespace permanode::cli
