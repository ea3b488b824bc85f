// codec_bench: decode throughput of the Stardust and Chrysalis codecs over real fixture blocks
// (messages) and over a generated mix (`permanode generate`'s ledgers, the share of transactions
// and milestones a busy network has), each against a floor of BLAKE2b over the same bytes that
// the decoding must hash anyway. Prints one tab-separated line per metric: metric, ours,
// baseline, ratio, target.
//
// Two Stardust floors, since decoding for ingest hashes more than the block:
//   - decode + block ID against BLAKE2b of the block (held to >= 0.8, issue #46);
//   - decode + every ID ingest needs (block, transaction payload, milestone essence: what
//     DecodeBlockWithIds returns) against BLAKE2b of those same spans, so a transaction block's
//     payload is hashed twice on both sides (held to >= 0.8).
//
// Legacy rows: Curl-P-81 transaction hashes per second, bitsliced (64 at once) against the plain
// one-at-a-time reference, on one core, over the 153 real legacy transactions.
#include "chrysalis_fixtures.hpp"
#include "chrysalis_generator.hpp"
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/ids.hpp"
#include "codec/legacy/curl.hpp"
#include "fixtures.hpp"
#include "generator.hpp"
#include "legacy_fixtures.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace
{

using namespace permanode::codec;
using Clock = std::chrono::steady_clock;

struct Rate
{
    double blocks_per_second = 0; // or messages
    double megabytes_per_second = 0;
};

// Runs `work` over all items until at least `min_seconds` have passed.
template <typename Work>
Rate Measure(const std::vector<Bytes> &items, std::size_t total_bytes, double min_seconds,
             Work work)
{
    std::size_t rounds = 0;
    auto start = Clock::now();
    double elapsed = 0;
    do
    {
        for (const auto &item : items)
            work(item);
        ++rounds;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < min_seconds);
    Rate rate;
    rate.blocks_per_second = static_cast<double>(rounds * items.size()) / elapsed;
    rate.megabytes_per_second = static_cast<double>(rounds * total_bytes) / elapsed / 1e6;
    return rate;
}

// Measures `decode_with_ids` against `hash_only` over `items`, alternating the two a few times
// and keeping each one's best to damp noise on a shared machine, and prints the two rows.
template <typename Decode, typename Hash>
void Compare(const char *metric, const char *unit, const char *target,
             const std::vector<Bytes> &items, Decode decode_with_ids, Hash hash_only)
{
    std::size_t total_bytes = 0;
    for (const auto &item : items)
        total_bytes += item.size();
    Rate best_codec;
    Rate best_floor;
    for (int trial = 0; trial < 3; ++trial)
    {
        Rate codec = Measure(items, total_bytes, 0.5, decode_with_ids);
        Rate floor = Measure(items, total_bytes, 0.5, hash_only);
        if (codec.megabytes_per_second > best_codec.megabytes_per_second)
            best_codec = codec;
        if (floor.megabytes_per_second > best_floor.megabytes_per_second)
            best_floor = floor;
    }
    std::printf("%s (MB/s)\t%.1f\t%.1f\t%.2f\t%s\n", metric, best_codec.megabytes_per_second,
                best_floor.megabytes_per_second,
                best_codec.megabytes_per_second / best_floor.megabytes_per_second, target);
    std::fprintf(stderr, "%s: %zu %s, %zu bytes, %.0f %s/s against %.0f\n", metric, items.size(),
                 unit, total_bytes, best_codec.blocks_per_second, unit,
                 best_floor.blocks_per_second);
}

// The blocks (messages) of `milestones` milestones of a generated ledger.
template <typename Generator>
std::vector<Bytes> GeneratedBlocks(Generator generator, std::uint32_t milestones)
{
    std::vector<Bytes> blocks;
    for (std::uint32_t i = 0; i < milestones; ++i)
        for (auto &block : generator.Next().blocks)
            blocks.push_back(std::move(block.bytes));
    return blocks;
}

// The spans of a Stardust block that ingest hashes: the block, and its transaction payload or
// its milestone's essence. Found from the decoded block's counts, outside the timed loop.
std::vector<ByteSpan> IdSpans(const Bytes &bytes)
{
    Block block = DecodeBlock(bytes);
    std::vector<ByteSpan> spans{ByteSpan(bytes.data(), bytes.size())};
    // version, parent count, parents, payload length; the nonce after the payload.
    std::size_t payload_begin = 1 + 1 + block.parents.size() * 32 + 4;
    std::size_t payload_end = bytes.size() - 8;
    if (TransactionOf(block))
        spans.emplace_back(bytes.data() + payload_begin, payload_end - payload_begin);
    else if (const MilestonePayload *milestone = MilestoneOf(block))
    {
        std::size_t begin = payload_begin + 4;
        std::size_t end = payload_end - 1 - milestone->signatures.size() * kEd25519SignatureSize;
        spans.emplace_back(bytes.data() + begin, end - begin);
    }
    return spans;
}

// The Stardust rows over one set of blocks.
void CompareStardust(const char *what, const std::vector<Bytes> &blocks, unsigned &checksum)
{
    std::string metric = std::string("stardust decode+block ID vs BLAKE2b of the block, ") + what;
    Compare(
        metric.c_str(), "blocks", ">=0.8", blocks,
        [&checksum](const Bytes &bytes)
        { checksum += ComputeBlockId(bytes)[0] + DecodeBlock(bytes).parents.size(); },
        [&checksum](const Bytes &bytes) { checksum += ComputeBlockId(bytes)[0]; });

    std::vector<std::vector<ByteSpan>> spans;
    for (const Bytes &bytes : blocks)
        spans.push_back(IdSpans(bytes));
    metric = std::string("stardust decode+all IDs vs BLAKE2b of the same spans, ") + what;
    // Measure runs over the blocks in order from the first, with its own copy of the floor's
    // lambda: the lambda's counter walks the spans beside the blocks, no lookup in the timing.
    Compare(
        metric.c_str(), "blocks", ">=0.8", blocks,
        [&checksum](const Bytes &bytes) { checksum += DecodeBlockWithIds(bytes).block_id[0]; },
        [&checksum, &spans, next = std::size_t{0}](const Bytes &bytes) mutable
        {
            const std::vector<ByteSpan> &block_spans = spans[next];
            next = next + 1 == spans.size() ? 0 : next + 1;
            if (block_spans.front().data != bytes.data())
                std::abort(); // out of step with the blocks
            for (const ByteSpan &span : block_spans)
                checksum += Blake2b256(span)[0];
        });
}

// Runs `work` (which hashes `per_call` transactions) until `min_seconds` have passed; hashes/s.
template <typename Work> double HashesPerSecond(std::size_t per_call, double min_seconds, Work work)
{
    std::size_t calls = 0;
    auto start = Clock::now();
    double elapsed = 0;
    do
    {
        work();
        ++calls;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < min_seconds);
    return static_cast<double>(calls * per_call) / elapsed;
}

// Bitsliced Curl-P-81 against the plain reference over the real legacy transactions, alternating
// the two and keeping each one's best; prints one row.
void CompareCurl(unsigned &checksum)
{
    std::vector<legacy::Trits> transactions;
    for (const auto &fixture : legacy::fixtures::AllTransactions())
        transactions.push_back(legacy::TransactionTrits(fixture.trytes));
    std::vector<const legacy::Trit *> inputs;
    for (const auto &trits : transactions)
        inputs.push_back(trits.data());
    double best_sliced = 0;
    double best_plain = 0;
    for (int trial = 0; trial < 3; ++trial)
    {
        best_sliced =
            std::max(best_sliced, HashesPerSecond(inputs.size(), 1.0,
                                                  [&]
                                                  {
                                                      auto hashes = legacy::CurlHashMany(
                                                          inputs, legacy::kTransactionTrits);
                                                      checksum += hashes.back()[0];
                                                  }));
        best_plain =
            std::max(best_plain, HashesPerSecond(inputs.size(), 1.0,
                                                 [&]
                                                 {
                                                     for (const auto *input : inputs)
                                                         checksum += legacy::CurlHash(
                                                             input, legacy::kTransactionTrits)[0];
                                                 }));
    }
    std::printf(
        "legacy Curl-P-81 bitsliced (tx hashes/s, 1 core) vs plain\t%.0f\t%.0f\t%.2f\t>=8\n",
        best_sliced, best_plain, best_sliced / best_plain);
    std::fprintf(stderr, "legacy Curl-P-81: %zu transactions of 8019 trits\n", inputs.size());
}

} // namespace

int main()
{
    std::vector<Bytes> blocks;
    for (auto &fixture : fixtures::AllBlocks())
        blocks.push_back(std::move(fixture.raw));
    std::vector<Bytes> messages;
    for (auto &record : chrysalis::fixtures::Messages())
        messages.push_back(std::move(record.bytes));
    permanode::cli::GeneratorOptions stardust_options;
    stardust_options.seed = 2024;
    permanode::cli::GeneratorOptions chrysalis_options =
        permanode::cli::ChrysalisGeneratorDefaults();
    chrysalis_options.seed = 2024;

    // The compiler must not drop the work: fold every ID into a checksum that is printed.
    unsigned checksum = 0;
    CompareStardust("real blocks", blocks, checksum);
    CompareStardust("generated mix",
                    GeneratedBlocks(permanode::cli::LedgerGenerator(stardust_options), 100),
                    checksum);
    auto decode_message = [&checksum](const Bytes &bytes)
    {
        chrysalis::Message message = chrysalis::DecodeMessage(bytes);
        checksum += chrysalis::ComputeMessageId(bytes)[0] + message.parents.size();
    };
    auto hash_message = [&checksum](const Bytes &bytes)
    { checksum += chrysalis::ComputeMessageId(bytes)[0]; };
    Compare("chrysalis decode+message ID vs BLAKE2b of the message, real messages", "messages",
            ">=0.5", messages, decode_message, hash_message);
    Compare("chrysalis decode+message ID vs BLAKE2b of the message, generated mix", "messages",
            ">=0.5",
            GeneratedBlocks(permanode::cli::ChrysalisLedgerGenerator(chrysalis_options), 20),
            decode_message, hash_message);
    CompareCurl(checksum);
    std::fprintf(stderr, "checksum %u\n", checksum);
    return 0;
}
