// What the Stardust and Chrysalis ledger generators share: their options and the random draws
// (a seeded stream that is the same on every platform, growing populations, text, splits).
#pragma once

#include "bundle.hpp"
#include "codec/types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace permanode::cli
{

// One output of a generator's own ledger model: the unspent set it draws inputs from, as it
// stands after the milestone last generated. Tests compute expected answers from it.
struct ModelOutput
{
    std::string output_id;      // 0x-hex
    std::string kind;           // basic, alias, nft (Stardust; foundries are not modelled), legacy
    codec::Hash32 owner_hash{}; // the Ed25519 address that unlocks it (alias: state controller)
    std::uint64_t amount = 0;
    std::string chain_id; // alias or NFT ID (0x-hex), resolved; empty for other kinds
};

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
    // Continuing an earlier era as IOTA's Stardust upgrade did (Stardust): the Chrysalis outputs
    // unspent at its end, which the genesis books again under their IDs, and the seed of the
    // Chrysalis generator whose addresses this ledger's are drawn from. Unset: a ledger of its
    // own.
    std::vector<ModelOutput> carried;
    std::optional<std::uint64_t> chrysalis_addresses_seed;
    // Chrysalis: the legacy tail transactions (t5b1 bytes) its receipts name first, in order, as
    // the migration's receipts named the legacy bundles they migrated; then random legacy hashes.
    std::vector<std::array<std::uint8_t, 49>> migration_tails;
};

// What a node knows of a milestone beyond its bundle line: the optional "node fields" of
// BUNDLE_FORMAT.md, which ingest ignores and a test INX node serves (tests/inx/inx_server.py).
// `generate --node-fields` and `import-chronicle --node-fields` write them, appended to the
// line FormatBundle renders; MilestoneBundle itself stays what ingest reads.
struct ConsumedOutput
{
    SnapshotOutput output; // as it was booked: ID, the block that carried it, its bytes
    std::uint32_t milestone_index_booked = 0;
    std::uint32_t milestone_timestamp_booked = 0;
    codec::TransactionId transaction_id_spent{};
};

struct NodeFields
{
    std::optional<codec::MilestoneId> milestone_id;  // of the milestone's own payload
    codec::Bytes milestone;                          // that payload (u32 type 7 first), or empty
    std::optional<codec::Bytes> protocol_parameters; // serialized, when they take effect here
    bool ledger_known = false;           // created and consumed are known (else neither is written)
    std::vector<SnapshotOutput> created; // every output booked here, snapshot ones included
    std::vector<ConsumedOutput> consumed;
};

// A bundle line (FormatBundle's) with the node fields added after its own fields.
std::string WithNodeFields(std::string line, const NodeFields &fields);

// xoshiro256** seeded through splitmix64: the same stream for a seed on every platform
// (std:: distributions are implementation-defined).
class Random
{
  public:
    explicit Random(std::uint64_t seed)
    {
        for (auto &word : state_)
        {
            seed += 0x9e3779b97f4a7c15ull;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            word = z ^ (z >> 31);
        }
    }

    std::uint64_t Next()
    {
        std::uint64_t result = Rotl(state_[1] * 5, 7) * 9;
        std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = Rotl(state_[3], 45);
        return result;
    }

    std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }
    std::uint64_t Between(std::uint64_t low, std::uint64_t high)
    {
        return low + Below(high - low + 1);
    }
    double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
    bool Chance(double p) { return Unit() < p; }

    // Rank in [0, n) with P(rank r) roughly proportional to 1/(r+1) (Zipf, s = 1).
    std::size_t ZipfRank(std::size_t n)
    {
        double rank = std::exp(Unit() * std::log(static_cast<double>(n) + 1.0)) - 1.0;
        return std::min(n - 1, static_cast<std::size_t>(rank));
    }

    template <std::size_t N> std::array<std::uint8_t, N> Array()
    {
        std::array<std::uint8_t, N> out;
        Fill(out.data(), N);
        return out;
    }
    codec::Bytes Vector(std::size_t n)
    {
        codec::Bytes out(n);
        Fill(out.data(), n);
        return out;
    }

  private:
    static std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    void Fill(std::uint8_t *out, std::size_t n)
    {
        for (std::size_t i = 0; i < n; i += 8)
        {
            std::uint64_t word = Next();
            for (std::size_t j = 0; j < 8 && i + j < n; ++j)
                out[i + j] = static_cast<std::uint8_t>(word >> (8 * j));
        }
    }

    std::uint64_t state_[4];
};

// A population that grows: each draw adds a new member with probability `growth`, else picks
// an existing one by Zipf rank (older members are the popular ones).
class Population
{
  public:
    explicit Population(double growth) : growth_(growth) {}
    std::size_t Draw(Random &random)
    {
        if (size_ == 0 || random.Chance(growth_))
            return size_++;
        return random.ZipfRank(size_);
    }
    std::size_t Size() const { return size_; }
    void Grow(std::size_t n) { size_ += n; }

  private:
    double growth_;
    std::size_t size_ = 0;
};

// Hash of a label, the seed and a number: stable, distinct identities.
codec::Hash32 DerivedId(const char *label, std::uint64_t seed, std::uint64_t n);

// min..max bytes of lowercase ASCII text, digits and punctuation.
codec::Bytes RandomText(Random &random, std::size_t min, std::size_t max);

// Splits `total` into `parts` amounts that sum to `total`, each at least half an even share.
std::vector<std::uint64_t> SplitAmount(Random &random, std::uint64_t total, std::size_t parts);

// The line of the `produced`-th milestone (0 for the first) without its cone: its index and
// timestamp, a milestone every `interval` seconds.
MilestoneBundle EmptyBundle(const GeneratorOptions &options, std::uint32_t produced,
                            std::uint32_t interval);

// How many blocks (messages) the next cone holds: min_blocks to max_blocks.
std::uint32_t DrawConeSize(Random &random, const GeneratorOptions &options);

} // namespace permanode::cli
