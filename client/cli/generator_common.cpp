// The random draws both ledger generators share.
#include "generator_common.hpp"

#include "codec/ids.hpp"

#include <string>

namespace permanode::cli
{

codec::Hash32 DerivedId(const char *label, std::uint64_t seed, std::uint64_t n)
{
    codec::Bytes bytes(label, label + std::char_traits<char>::length(label));
    for (std::uint64_t v : {seed, n})
        for (int i = 0; i < 8; ++i)
            bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return codec::Blake2b256(bytes);
}

codec::Bytes RandomText(Random &random, std::size_t min, std::size_t max)
{
    static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789 .,:-";
    std::size_t n = random.Between(min, max);
    codec::Bytes out(n);
    for (auto &c : out)
        c = static_cast<std::uint8_t>(kAlphabet[random.Below(sizeof kAlphabet - 1)]);
    return out;
}

std::vector<std::uint64_t> SplitAmount(Random &random, std::uint64_t total, std::size_t parts)
{
    std::vector<std::uint64_t> amounts(parts, total / parts);
    amounts.back() += total % parts;
    for (std::size_t i = 0; i + 1 < parts; ++i)
    {
        std::uint64_t shift = random.Below(amounts[i] / 2 + 1);
        amounts[i] -= shift;
        amounts.back() += shift;
    }
    return amounts;
}

MilestoneBundle EmptyBundle(const GeneratorOptions &options, std::uint32_t produced,
                            std::uint32_t interval)
{
    MilestoneBundle bundle;
    bundle.milestone_index = options.start_index + produced;
    bundle.milestone_timestamp = options.start_timestamp + interval * produced;
    return bundle;
}

std::uint32_t DrawConeSize(Random &random, const GeneratorOptions &options)
{
    return static_cast<std::uint32_t>(
        random.Between(options.min_blocks, std::max(options.min_blocks, options.max_blocks)));
}

} // namespace permanode::cli
