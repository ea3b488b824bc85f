// The random draws both ledger generators share.
#include "generator_common.hpp"

#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <stdexcept>
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

namespace
{

// {"output_id","block_id","output"}, without the closing brace.
std::string BookedOutputFields(const SnapshotOutput &output)
{
    return "{\"output_id\":\"" + codec::ToHex(codec::ToBytes(output.output_id)) +
           "\",\"block_id\":\"" + codec::ToHex(output.block_id) + "\",\"output\":\"" +
           codec::ToHex(codec::ByteSpan(output.output)) + "\"";
}

std::string CreatedList(const std::vector<SnapshotOutput> &created)
{
    std::string out = "[";
    for (const SnapshotOutput &output : created)
        out += (out.size() > 1 ? "," : "") + BookedOutputFields(output) + "}";
    return out + "]";
}

std::string ConsumedList(const std::vector<ConsumedOutput> &consumed)
{
    std::string out = "[";
    for (const ConsumedOutput &spent : consumed)
        out +=
            (out.size() > 1 ? "," : "") + BookedOutputFields(spent.output) +
            ",\"milestone_index_booked\":" + std::to_string(spent.milestone_index_booked) +
            ",\"milestone_timestamp_booked\":" + std::to_string(spent.milestone_timestamp_booked) +
            ",\"transaction_id_spent\":\"" + codec::ToHex(spent.transaction_id_spent) + "\"}";
    return out + "]";
}

} // namespace

std::string WithNodeFields(std::string line, const NodeFields &fields)
{
    if (line.empty() || line.back() != '}')
        throw std::logic_error("WithNodeFields: not a bundle line");
    line.pop_back();
    if (fields.milestone_id)
        line += ",\"milestone_id\":\"" + codec::ToHex(*fields.milestone_id) + "\"";
    if (!fields.milestone.empty())
        line += ",\"milestone\":\"" + codec::ToHex(codec::ByteSpan(fields.milestone)) + "\"";
    if (fields.protocol_parameters)
        line +=
            ",\"protocol_parameters\":{\"protocol_version\":" + std::to_string(kStardustProtocol) +
            ",\"params\":\"" + codec::ToHex(codec::ByteSpan(*fields.protocol_parameters)) + "\"}";
    if (fields.ledger_known)
        line += ",\"created\":" + CreatedList(fields.created) +
                ",\"consumed\":" + ConsumedList(fields.consumed);
    return line + "}";
}

} // namespace permanode::cli
