// The ledger the ledger benches share: a fresh database with the extension, and a generated
// Stardust or Chrysalis ledger ingested into it through the CLI.
#pragma once

#include <string>

namespace permanode::bench
{

// A fresh database `name` with the extension, every ledger table at `chunk_size` milestones per
// range; returns its DSN.
std::string CreateLedgerDatabase(const std::string &dsn, const std::string &name, int chunk_size);

// Generates milestones 1..`milestones` (transactions in 9 of 10 blocks, 8-16 outputs each, 80-90
// blocks per milestone, seed 5) of `protocol` (stardust or chrysalis) and ingests them with `cli`.
void GenerateAndIngest(const std::string &cli, const std::string &db_dsn, int milestones,
                       const std::string &protocol = "stardust");

} // namespace permanode::bench
