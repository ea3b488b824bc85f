// `permanode demo`: the README's first command. Starts the embedded cluster, ingests both eras
// (a generated Chrysalis ledger and the real Chrysalis messages, then the real Shimmer fixtures
// and a generated Stardust ledger; in chunks of 1000 milestones when the database is new),
// archives every range below the newest one into RocksDB, and prints the status and a few
// example queries that span both eras and both tiers. Idempotent: a second run finds everything
// present and archived, and prints the same answers.
#pragma once

#include <cstdint>
#include <string>

namespace permanode::cli
{

struct DemoOptions
{
    std::string dir;      // the embedded cluster's directory; empty: the default
    std::string fixtures; // the Shimmer fixtures; empty: $PERMANODE_FIXTURES, else the default
    std::uint32_t milestones = 2000; // of the generated ledger
};

// Returns the exit code.
int RunDemo(const DemoOptions &options);

// --fixtures, else $PERMANODE_FIXTURES, else ../shared/fixtures/shimmer next to the sources.
std::string FixturesDirectory(const std::string &option);

} // namespace permanode::cli
