// `permanode generate --protocol legacy`: a synthetic legacy (ternary) ledger, deterministic for
// a seed, written as IRI's `.dmp` export: one `hash,trytes,snapshot_index` line per transaction.
// Transactions are in the current layout; hashes are Curl-P-81, bundle hashes Kerl, and value
// bundles carry valid Winternitz signatures spending addresses the generator funded earlier.
// Not real: proof of work (nonces are random, hashes do not end in zeros) and the Coordinator's
// milestone signatures and Merkle siblings (random trytes: the codec has no Curl-P-27 signing
// nor Merkle tree).
#pragma once

#include "dmp_line.hpp"
#include "generator_common.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace permanode::cli
{

// An address the genesis snapshot funds: IRI's Snapshot.txt line "ADDRESS;BALANCE".
struct SnapshotBalance
{
    std::string address;
    std::int64_t balance = 0;
};

// The defaults of `generate --protocol legacy` where they differ from Stardust's.
GeneratorOptions LegacyGeneratorDefaults();

// The first Unix time the generator accepts: it writes the current layout only.
std::int64_t LegacyEarliestStart();

class LegacyLedgerGenerator
{
  public:
    explicit LegacyLedgerGenerator(const GeneratorOptions &options);
    ~LegacyLedgerGenerator();
    LegacyLedgerGenerator(const LegacyLedgerGenerator &) = delete;
    LegacyLedgerGenerator &operator=(const LegacyLedgerGenerator &) = delete;

    // The genesis balances, summing to the IOTA supply.
    const std::vector<SnapshotBalance> &Snapshot() const;
    // The Coordinator's address: its bundles are the milestones.
    const std::string &Coordinator() const;

    // The next milestone's transactions in the order they were attached (every trunk and branch
    // refers to an earlier line or to the null hash, 81 nines), its milestone bundle last.
    std::vector<DmpLine> Next();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace permanode::cli
