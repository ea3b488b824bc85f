// `permanode generate`: a synthetic Stardust ledger as milestone bundles. Deterministic for a
// seed. Blocks are well formed (they decode with our codec and with iota.js) and their IDs are
// the real hashes, and so are the milestones' Merkle roots (TIP-4, which `permanode verify`
// checks); signatures and inputs commitments are random bytes, since nothing here verifies them.
#pragma once

#include "bundle.hpp"
#include "generator_common.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace permanode::cli
{

class LedgerGenerator
{
  public:
    explicit LedgerGenerator(const GeneratorOptions &options);
    ~LedgerGenerator();
    LedgerGenerator(const LedgerGenerator &) = delete;
    LedgerGenerator &operator=(const LedgerGenerator &) = delete;

    // The next milestone; the first one is the genesis, with the snapshot outputs.
    MilestoneBundle Next();
    // The generator's model: the outputs unspent at the end of the milestone last generated.
    std::vector<ModelOutput> Model() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace permanode::cli
