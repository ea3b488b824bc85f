// Conversion of inx-chronicle's MongoDB extended JSON into milestone bundles.
#include "chronicle_import.hpp"

#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/ids.hpp"
#include "codec/output.hpp"

// The Chronicle output model -> codec model mapping shared with the codec's ledger tests.
#include "chronicle_model.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace permanode::cli
{
namespace
{

using nlohmann::json;

// Chronicle spells TIP-25 conflict reasons in snake_case (ConflictReason in inx-chronicle).
std::uint8_t ConflictReasonCode(const json &value, const std::string &where)
{
    if (value.is_null())
        return 0;
    if (value.is_number_unsigned() && value.get<unsigned>() <= 255)
        return static_cast<std::uint8_t>(value.get<unsigned>());
    static const std::map<std::string, std::uint8_t> kCodes = {
        {"none", 0},
        {"input_utxo_already_spent", 1},
        {"input_utxo_already_spent_in_this_milestone", 2},
        {"input_utxo_not_found", 3},
        {"created_consumed_amount_mismatch", 4},
        {"invalid_signature", 5},
        {"timelock_not_expired", 6},
        {"invalid_native_tokens", 7},
        {"storage_deposit_return_unfulfilled", 8},
        {"invalid_unlock", 9},
        {"inputs_commitments_mismatch", 10},
        {"unverified_sender", 11},
        {"invalid_chain_state_transition", 12},
        {"semantic_validation_failed", 255},
    };
    if (value.is_string())
        if (auto it = kCodes.find(value.get<std::string>()); it != kCodes.end())
            return it->second;
    throw ImportError(where + ": unknown conflict_reason " + value.dump());
}

InclusionState InclusionStateOf(const json &metadata, const std::string &where)
{
    const std::string state = metadata.value("inclusion_state", "");
    if (state == "included")
        return InclusionState::kIncluded;
    if (state == "conflicting")
        return InclusionState::kConflicting;
    if (state == "no_transaction")
        return InclusionState::kNoTransaction;
    throw ImportError(where + ": unknown inclusion_state \"" + state + "\"");
}

// A block of the cone, with its ID checked against its bytes.
BundleBlock ConeBlock(const json &raw, const json &id, const json &metadata,
                      const std::string &where)
{
    BundleBlock block;
    block.bytes = chronicle::Binary(raw);
    if (codec::ComputeBlockId(block.bytes) != chronicle::Binary32(id))
        throw ImportError(where + ": the block ID is not the BLAKE2b-256 of the raw bytes");
    block.inclusion_state = InclusionStateOf(metadata, where);
    block.conflict_reason = ConflictReasonCode(metadata.value("conflict_reason", json()), where);
    return block;
}

// IDs of the transactions the cone includes: their outputs come from the blocks themselves.
std::set<codec::TransactionId> IncludedTransactions(const MilestoneBundle &bundle)
{
    std::set<codec::TransactionId> ids;
    for (const BundleBlock &block : bundle.blocks)
    {
        if (block.inclusion_state != InclusionState::kIncluded)
            continue;
        codec::DecodedBlock decoded = codec::DecodeBlockWithIds(block.bytes);
        if (decoded.transaction_id)
            ids.insert(*decoded.transaction_id);
    }
    return ids;
}

MilestoneBundle InMemoryMilestone(const std::string &key, const json &data)
{
    std::string where = "milestone " + key;
    MilestoneBundle bundle;
    const json &at = data.at("milestone_data").at("at");
    bundle.milestone_index = at.at("milestone_index").get<std::uint32_t>();
    bundle.milestone_timestamp = at.at("milestone_timestamp").get<std::uint32_t>();
    if (std::to_string(bundle.milestone_index) != key)
        throw ImportError(where + ": milestone_data.at.milestone_index is " +
                          std::to_string(bundle.milestone_index));

    // The cone is keyed by white-flag index: "0", "1", ...
    const json &cone = data.at("cone");
    for (std::size_t i = 0; i < cone.size(); ++i)
    {
        std::string index = std::to_string(i);
        if (!cone.contains(index))
            throw ImportError(where + ": cone has no white-flag index " + index);
        const json &entry = cone.at(index);
        bundle.blocks.push_back(ConeBlock(entry.at("raw"), entry.at("block_id"),
                                          entry.at("metadata"), where + " cone " + index));
    }

    std::set<codec::TransactionId> included = IncludedTransactions(bundle);
    for (const json &created : data.value("created", json::array()))
    {
        codec::OutputId output_id = chronicle::ChronicleOutputId(created.at("output_id"));
        if (included.count(output_id.transaction_id))
            continue;
        SnapshotOutput output;
        output.output_id = output_id;
        output.block_id = chronicle::Binary32(created.at("block_id"));
        output.output = codec::EncodeOutput(chronicle::ChronicleOutput(created.at("output")));
        bundle.snapshot_outputs.push_back(std::move(output));
    }
    return bundle;
}

// Milestone payloads among the blocks, by index, with their timestamps.
std::map<std::uint32_t, std::uint32_t> MilestonePayloads(const std::vector<BundleBlock> &blocks)
{
    std::map<std::uint32_t, std::uint32_t> payloads;
    for (const BundleBlock &block : blocks)
        if (const auto *milestone = codec::MilestoneOf(codec::DecodeBlock(block.bytes)))
            payloads[milestone->essence.index] = milestone->essence.timestamp;
    return payloads;
}

std::vector<MilestoneBundle> BlocksForm(const json &blocks, const ImportOptions &options)
{
    // referenced_by_milestone_index -> white_flag_index -> block
    std::map<std::uint32_t, std::map<std::uint32_t, BundleBlock>> cones;
    for (std::size_t i = 0; i < blocks.size(); ++i)
    {
        std::string where = "block " + std::to_string(i);
        const json &entry = blocks[i];
        const json &metadata = entry.at("metadata");
        auto referenced = metadata.at("referenced_by_milestone_index").get<std::uint32_t>();
        auto white_flag = metadata.at("white_flag_index").get<std::uint32_t>();
        auto &cone = cones[referenced];
        if (cone.count(white_flag))
            throw ImportError(where + ": white_flag_index " + std::to_string(white_flag) +
                              " appears twice in the cone of milestone " +
                              std::to_string(referenced));
        cone[white_flag] = ConeBlock(entry.at("raw"), entry.at("_id"), metadata, where);
    }

    std::vector<MilestoneBundle> bundles;
    for (auto &[index, cone] : cones)
    {
        MilestoneBundle bundle;
        bundle.milestone_index = index;
        std::uint32_t expected = 0;
        for (auto &[white_flag, block] : cone)
        {
            if (white_flag != expected++)
                throw ImportError("the cone of milestone " + std::to_string(index) +
                                  " lacks white_flag_index " + std::to_string(expected - 1));
            bundle.blocks.push_back(std::move(block));
        }
        // A milestone's own payload is issued after it, so these blocks usually carry the
        // previous milestone's: its timestamp is the best lower bound the file offers.
        auto payloads = MilestonePayloads(bundle.blocks);
        if (options.milestone_timestamp)
            bundle.milestone_timestamp = *options.milestone_timestamp;
        else if (auto own = payloads.find(index); own != payloads.end())
            bundle.milestone_timestamp = own->second;
        else if (!payloads.empty() && payloads.rbegin()->first < index)
            bundle.milestone_timestamp = payloads.rbegin()->second;
        else
            throw ImportError("no milestone payload among the blocks of milestone " +
                              std::to_string(index) + ": give --milestone-timestamp");
        bundles.push_back(std::move(bundle));
    }
    return bundles;
}

} // namespace

std::vector<MilestoneBundle> ImportChronicle(const std::string &path, const ImportOptions &options)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    json document;
    try
    {
        document = json::parse(in);
        std::vector<MilestoneBundle> bundles;
        if (document.is_array())
            return BlocksForm(document, options);
        if (!document.is_object())
            throw ImportError("expected an object keyed by milestone index or an array of blocks");
        for (const auto &[key, data] : document.items())
            bundles.push_back(InMemoryMilestone(key, data));
        std::sort(bundles.begin(), bundles.end(),
                  [](const MilestoneBundle &a, const MilestoneBundle &b)
                  { return a.milestone_index < b.milestone_index; });
        return bundles;
    }
    catch (const json::exception &e)
    {
        throw ImportError(e.what());
    }
    catch (const codec::DecodeError &e)
    {
        throw ImportError(std::string("a block does not decode: ") + e.what());
    }
    catch (const ImportError &)
    {
        throw;
    }
    catch (const std::runtime_error &e) // the Chronicle model's own complaints
    {
        throw ImportError(e.what());
    }
}

} // namespace permanode::cli
