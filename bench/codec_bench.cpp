// codec_bench: decode+ID throughput over the real fixture blocks (Stardust) and messages
// (Chrysalis), each against the floor of hashing the same bytes with BLAKE2b alone (every block
// or message ID needs that hash, so decode+ID cannot beat it). Prints one tab-separated line per
// metric: metric, ours, baseline, ratio, target.
//
// usage: codec_bench [BUNDLES]: with a file of Chrysalis bundles (permanode generate --protocol
// chrysalis), its messages are measured too, a larger mix than the 11 real ones.
//
// Legacy rows: Curl-P-81 transaction hashes per second, bitsliced (64 at once) against the plain
// one-at-a-time reference, on one core, over the 153 real legacy transactions.
#include "chrysalis_fixtures.hpp"
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/ids.hpp"
#include "codec/legacy/curl.hpp"
#include "fixtures.hpp"
#include "legacy_fixtures.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
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
void Compare(const char *metric, const char *unit, const std::vector<Bytes> &items,
             Decode decode_with_ids, Hash hash_only)
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
    std::printf("%s (MB/s) vs BLAKE2b floor\t%.1f\t%.1f\t%.2f\t>=0.5\n", metric,
                best_codec.megabytes_per_second, best_floor.megabytes_per_second,
                best_codec.megabytes_per_second / best_floor.megabytes_per_second);
    std::printf("%s (%s/s) vs BLAKE2b floor\t%.0f\t%.0f\t%.2f\t>=0.5\n", metric, unit,
                best_codec.blocks_per_second, best_floor.blocks_per_second,
                best_codec.blocks_per_second / best_floor.blocks_per_second);
    std::fprintf(stderr, "%s: %zu %s, %zu bytes\n", metric, items.size(), unit, total_bytes);
}

// The messages of every line of a Chrysalis bundle file.
std::vector<Bytes> BundleMessages(const char *path)
{
    std::vector<Bytes> messages;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        nlohmann::json bundle = nlohmann::json::parse(line);
        for (const auto &block : bundle.at("blocks"))
            messages.push_back(chrysalis::fixtures::HexBytes(block.at("block")));
    }
    return messages;
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

int main(int argc, char **argv)
{
    std::vector<Bytes> blocks;
    for (auto &fixture : fixtures::AllBlocks())
        blocks.push_back(std::move(fixture.raw));
    std::vector<Bytes> messages;
    for (auto &record : chrysalis::fixtures::Messages())
        messages.push_back(std::move(record.bytes));

    // The compiler must not drop the work: fold every ID into a checksum that is printed.
    unsigned checksum = 0;
    Compare(
        "codec decode+ID", "blocks", blocks,
        [&checksum](const Bytes &bytes) { checksum += DecodeBlockWithIds(bytes).block_id[0]; },
        [&checksum](const Bytes &bytes) { checksum += ComputeBlockId(bytes)[0]; });
    auto decode_message = [&checksum](const Bytes &bytes)
    {
        chrysalis::Message message = chrysalis::DecodeMessage(bytes);
        checksum += chrysalis::ComputeMessageId(bytes)[0] + message.parents.size();
    };
    auto hash_message = [&checksum](const Bytes &bytes)
    { checksum += chrysalis::ComputeMessageId(bytes)[0]; };
    Compare("chrysalis decode+message ID", "messages", messages, decode_message, hash_message);
    if (argc > 1)
        Compare("chrysalis decode+message ID, generated", "messages", BundleMessages(argv[1]),
                decode_message, hash_message);
    CompareCurl(checksum);
    std::fprintf(stderr, "checksum %u\n", checksum);
    return 0;
}
