// `permanode generate --protocol chrysalis`: a synthetic Chrysalis (protocol v1) ledger as
// milestone bundles, deterministic for a seed, shaped like the IOTA mainnet of May 2021 (mostly
// indexation spam, value transactions between Ed25519 addresses, dust allowances, a milestone
// every 10 s). Messages are well formed (they decode with our codec and with iota.js 1.8.6) and
// their IDs are the real hashes, and so are the milestones' inclusion Merkle proofs (TIP-4, which
// `permanode verify` checks); signatures, public keys and nonces are random bytes, since nothing
// here verifies them.
#pragma once

#include "bundle.hpp"
#include "generator_common.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace permanode::cli
{

// Chrysalis mainnet's network ID: the first 8 bytes of BLAKE2b-256("chrysalis-mainnet"), u64 LE.
constexpr std::uint64_t kChrysalisMainnetNetworkId = 1454675179895816119ull;

// The defaults of `generate --protocol chrysalis` where they differ from Stardust's.
GeneratorOptions ChrysalisGeneratorDefaults();

class ChrysalisLedgerGenerator
{
  public:
    explicit ChrysalisLedgerGenerator(const GeneratorOptions &options);
    ~ChrysalisLedgerGenerator();
    ChrysalisLedgerGenerator(const ChrysalisLedgerGenerator &) = delete;
    ChrysalisLedgerGenerator &operator=(const ChrysalisLedgerGenerator &) = delete;

    // The next milestone's cone, its own milestone message last; the first one books the
    // genesis outputs as snapshot outputs.
    MilestoneBundle Next();
    // The generator's model: the outputs unspent at the end of the milestone last generated.
    std::vector<ModelOutput> Model() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace permanode::cli
