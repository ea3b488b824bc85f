// Seeds of the ledger formats' targets: the codecs' bytes, bundle lines, .dmp lines and pieces
// of Chronicle's JSON, from the fixtures and the generators.
#include "seeds.hpp"

#include "bundle.hpp"
#include "chronicle_import.hpp"
#include "chrysalis_generator.hpp"
#include "cli/legacy_fixtures.hpp"
#include "codec/legacy/transaction.hpp"
#include "dmp_line.hpp"
#include "generator.hpp"
#include "legacy_generator.hpp"

// The codec tests' loaders of the fixtures (some named as the CLI's own loaders are).
#include "../../unit/codec/chrysalis_fixtures.hpp"
#include "../../unit/codec/fixtures.hpp"
#include "../../unit/codec/legacy_fixtures.hpp"

#include <algorithm>

namespace permanode::fuzz
{
namespace
{

using nlohmann::json;

// Small ledgers: a few blocks per milestone, a few genesis outputs.
cli::GeneratorOptions Small(cli::GeneratorOptions options)
{
    options.milestones = 3;
    options.min_blocks = 2;
    options.max_blocks = 5;
    options.genesis_addresses = 3;
    return options;
}

// A milestone of real data cut to its first blocks and snapshot outputs.
cli::MilestoneBundle Cut(cli::MilestoneBundle bundle)
{
    constexpr std::size_t kKept = 3;
    bundle.blocks.resize(std::min(bundle.blocks.size(), kKept));
    bundle.snapshot_outputs.resize(std::min(bundle.snapshot_outputs.size(), kKept));
    bundle.partial_cone = true;
    return bundle;
}

// The first entries of an array, or of an object keyed "0", "1", ... (a Chronicle cone).
json FirstOf(const json &list, std::size_t count)
{
    if (list.is_array())
        return json(std::vector<json>(list.begin(), list.begin() + std::min(count, list.size())));
    json out = json::object();
    for (std::size_t i = 0; i < count && list.contains(std::to_string(i)); i++)
        out[std::to_string(i)] = list.at(std::to_string(i));
    return out;
}

} // namespace

void WriteCodecSeeds(const SeedDir &dir)
{
    auto blocks = codec::fixtures::AllBlocks();
    for (std::size_t i = 0; i < blocks.size(); ++i)
        dir.Write("fixture-" + std::to_string(i), blocks[i].raw);
    auto messages = codec::chrysalis::fixtures::Messages();
    for (std::size_t i = 0; i < messages.size(); ++i)
        dir.Write("chrysalis-" + std::to_string(i), messages[i].bytes);
    auto transactions = codec::legacy::fixtures::AllTransactions();
    for (std::size_t i = 0; i < transactions.size(); ++i)
    {
        const std::string &trytes = transactions[i].trytes;
        dir.Write("legacy-t5b1-" + std::to_string(i), codec::legacy::TransactionToBytes(trytes));
        dir.Write("legacy-trytes-" + std::to_string(i), trytes);
    }
}

void WriteBundleSeeds(const SeedDir &dir)
{
    cli::LedgerGenerator stardust(Small({}));
    cli::LedgerGenerator with_fields(Small({}));
    cli::ChrysalisLedgerGenerator chrysalis(Small(cli::ChrysalisGeneratorDefaults()));
    for (int i = 0; i < 3; i++)
    {
        dir.Write("stardust-" + std::to_string(i), cli::FormatBundle(stardust.Next()));
        cli::NodeFields fields;
        cli::MilestoneBundle bundle = with_fields.Next(&fields);
        dir.Write("node-fields-" + std::to_string(i),
                  cli::WithNodeFields(cli::FormatBundle(bundle), fields));
        dir.Write("chrysalis-" + std::to_string(i), cli::FormatBundle(chrysalis.Next()));
    }
    int n = 0;
    for (const char *file : {"in_memory_data.json", "blocks_ms_2418187.json"})
    {
        cli::ImportOptions options;
        options.node_fields = true;
        for (const auto &milestone :
             cli::ImportChronicleMilestones(codec::fixtures::Directory() + "/" + file, options))
        {
            std::string line = cli::FormatBundle(Cut(milestone.bundle));
            if (milestone.node_fields)
            {
                cli::NodeFields fields = *milestone.node_fields;
                fields.ledger_known = false; // the outputs are many: the payload suffices
                line = cli::WithNodeFields(line, fields);
            }
            dir.Write("chronicle-" + std::to_string(n++), line);
        }
    }
}

void WriteDmpLineSeeds(const SeedDir &dir)
{
    auto lines = cli::LegacyFixtureLines(codec::legacy::fixtures::Directory());
    for (std::size_t i = 0; i < lines.size(); i++)
        dir.Write("fixture-" + std::to_string(i), cli::FormatDmpLine(lines[i]));
    cli::LegacyLedgerGenerator generator(Small(cli::LegacyGeneratorDefaults()));
    std::size_t i = 0;
    for (const cli::DmpLine &line : generator.Next())
        dir.Write("generated-" + std::to_string(i++), cli::FormatDmpLine(line));
}

void WriteChronicleSeeds(const SeedDir &dir)
{
    // The object form: each milestone alone, then all three, each cut to its first blocks and
    // outputs (the outputs of the cut cone's transactions then mostly count as snapshot ones).
    json in_memory = codec::fixtures::LoadJson("in_memory_data.json");
    json all = json::object();
    for (auto &[key, data] : in_memory.items())
    {
        json cut = data;
        cut["cone"] = FirstOf(data.at("cone"), 3);
        cut["created"] = FirstOf(data.at("created"), 3);
        cut["consumed"] = FirstOf(data.at("consumed"), 3);
        all[key] = cut;
        dir.Write("in-memory-" + key, json{{key, cut}}.dump());
    }
    dir.Write("in-memory-all", all.dump());
    // The blocks form: the first blocks of the cone, and the milestone's block alone (white-flag
    // index 0: the index is the node's metadata, not part of the block's bytes).
    json blocks = codec::fixtures::LoadJson("blocks_ms_2418187.json");
    json first = json::array();
    for (const json &block : blocks)
        if (block.at("metadata").at("white_flag_index").get<int>() < 3)
            first.push_back(block);
    dir.Write("blocks-first", first.dump());
    for (const json &block : blocks)
        if (codec::DecodeBlockWithIds(codec::fixtures::Binary(block.at("raw"))).milestone_id)
        {
            json alone = block;
            alone["metadata"]["white_flag_index"] = 0;
            dir.Write("blocks-milestone", json::array({alone}).dump());
        }
}

} // namespace permanode::fuzz
