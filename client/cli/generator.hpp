// `permanode generate`: a synthetic Stardust ledger as milestone bundles. Deterministic for a
// seed. Blocks are well formed (they decode with our codec and with iota.js) and their IDs are
// the real hashes; signatures, merkle roots and inputs commitments are random bytes, since
// neither ingest nor the archive verifies them.
#pragma once

#include "bundle.hpp"

#include <cstdint>
#include <memory>

namespace permanode::cli
{

struct GeneratorOptions
{
    std::uint32_t milestones = 100;
    std::uint32_t start_index = 1;
    std::uint32_t start_timestamp = 1672531200; // 2023-01-01T00:00:00Z
    std::uint32_t min_blocks = 40;              // per milestone
    std::uint32_t max_blocks = 90;
    double transaction_share = 0.15;     // of the blocks that are not milestones
    std::uint32_t min_fresh_outputs = 1; // new outputs per transaction, besides chained ones
    std::uint32_t max_fresh_outputs = 3;
    std::uint64_t seed = 1;
    std::uint32_t genesis_addresses = 200; // funded by the genesis milestone's snapshot
};

class LedgerGenerator
{
  public:
    explicit LedgerGenerator(const GeneratorOptions &options);
    ~LedgerGenerator();
    LedgerGenerator(const LedgerGenerator &) = delete;
    LedgerGenerator &operator=(const LedgerGenerator &) = delete;

    // The next milestone; the first one is the genesis, with the snapshot outputs.
    MilestoneBundle Next();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace permanode::cli
