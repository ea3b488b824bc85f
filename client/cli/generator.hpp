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

    // The next milestone; the first one is the genesis, with the snapshot outputs. With
    // `node_fields`, also what a node knows of it: its own milestone payload (issued after it,
    // so in the next milestone's cone), the protocol parameters on the first milestone, and
    // the outputs it created (the snapshot's included) and consumed.
    MilestoneBundle Next(NodeFields *node_fields = nullptr);
    // The generator's model: the outputs unspent at the end of the milestone last generated.
    std::vector<ModelOutput> Model() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace permanode::cli
