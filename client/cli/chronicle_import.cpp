// Conversion of inx-chronicle's MongoDB extended JSON into milestone bundles.
#include "chronicle_import.hpp"

#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/output.hpp"
#include "codec/protocol_parameters.hpp"

// The Chronicle output model -> codec model mapping shared with the codec's ledger tests.
#include "chronicle_model.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

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
    if (value.is_number())
        return codec::JsonUnsigned<std::uint8_t>(value, where + ": conflict_reason");
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

struct ConeTransaction
{
    codec::BlockId block_id;
    codec::TransactionPayload payload;
};

// The transactions the cone includes, by ID: their outputs come from the blocks themselves.
std::map<codec::TransactionId, ConeTransaction> IncludedTransactions(const MilestoneBundle &bundle)
{
    std::map<codec::TransactionId, ConeTransaction> transactions;
    for (const BundleBlock &block : bundle.blocks)
    {
        if (block.inclusion_state != InclusionState::kIncluded)
            continue;
        codec::DecodedBlock decoded = codec::DecodeBlockWithIds(block.bytes);
        if (decoded.transaction_id)
            transactions.emplace(*decoded.transaction_id,
                                 ConeTransaction{decoded.block_id, *TransactionOf(decoded.block)});
    }
    return transactions;
}

MilestoneBundle InMemoryMilestone(const std::string &key, const json &data)
{
    std::string where = "milestone " + key;
    MilestoneBundle bundle;
    const json &at = data.at("milestone_data").at("at");
    bundle.milestone_index =
        codec::JsonUnsignedField<std::uint32_t>(at, "milestone_data.at", "milestone_index");
    bundle.milestone_timestamp =
        codec::JsonUnsignedField<std::uint32_t>(at, "milestone_data.at", "milestone_timestamp");
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

    auto included = IncludedTransactions(bundle);
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

// Milestone payloads among the blocks, by index.
std::map<std::uint32_t, codec::MilestonePayload>
MilestonePayloads(const std::vector<BundleBlock> &blocks)
{
    std::map<std::uint32_t, codec::MilestonePayload> payloads;
    for (const BundleBlock &block : blocks)
    {
        // Held here: MilestoneOf points into the block, which must outlive the copy.
        codec::Block decoded = codec::DecodeBlock(block.bytes);
        if (const auto *milestone = codec::MilestoneOf(decoded))
            payloads[milestone->essence.index] = *milestone;
    }
    return payloads;
}

// --- node fields (object form) ---------------------------------------------------------

// Milestone N's own payload, from milestone_data.payload; it must equal the copy a cone of the
// file carries (N+1's) when there is one. Chronicle's model of milestone options is not mapped,
// so with options only that copy can give it.
std::optional<codec::MilestonePayload>
OwnPayload(const json &milestone_data,
           const std::map<std::uint32_t, codec::MilestonePayload> &in_cones, std::uint32_t index,
           const std::string &where)
{
    auto copy = in_cones.find(index);
    const json &payload = milestone_data.at("payload");
    if (!payload.at("essence").at("options").empty())
        return copy == in_cones.end() ? std::nullopt : std::optional(copy->second);
    codec::MilestonePayload decoded = chronicle::ChronicleMilestonePayload(payload);
    if (copy != in_cones.end() && !(copy->second == decoded))
        throw ImportError(where + ": milestone_data.payload differs from its block's payload");
    return decoded;
}

// milestone_id and milestone: the payload's index, timestamp and ID must be the line's.
void AddMilestone(NodeFields &fields, const MilestoneBundle &bundle, const json &milestone_data,
                  const std::map<std::uint32_t, codec::MilestonePayload> &in_cones,
                  const std::string &where)
{
    if (milestone_data.contains("milestone_id"))
        fields.milestone_id = chronicle::Binary32(milestone_data.at("milestone_id"));
    auto payload = OwnPayload(milestone_data, in_cones, bundle.milestone_index, where);
    if (!payload)
        return;
    codec::MilestoneId id = codec::ComputeMilestoneId(payload->essence);
    if (payload->essence.index != bundle.milestone_index ||
        payload->essence.timestamp != bundle.milestone_timestamp ||
        id != fields.milestone_id.value_or(id))
        throw ImportError(where + ": milestone_data.payload is not the milestone's (index, "
                                  "timestamp or milestone_id differ)");
    fields.milestone_id = id;
    codec::ByteWriter writer(fields.milestone);
    codec::EncodeMilestone(writer, *payload);
}

// An output record of created or consumed, encoded.
SnapshotOutput BookedOutput(const json &record)
{
    return SnapshotOutput{chronicle::ChronicleOutputId(record.at("output_id")),
                          chronicle::Binary32(record.at("block_id")),
                          codec::EncodeOutput(chronicle::ChronicleOutput(record.at("output")))};
}

// A created output of a transaction in the cone must be that transaction's output, byte for
// byte, in that block: the encoding of Chronicle's decoded model is checked against the wire.
void CheckCreated(const SnapshotOutput &output,
                  const std::map<codec::TransactionId, ConeTransaction> &included,
                  const std::string &where)
{
    auto transaction = included.find(output.output_id.transaction_id);
    if (transaction == included.end())
        return; // a snapshot output
    const auto &outputs = transaction->second.payload.essence.outputs;
    if (output.output_id.index >= outputs.size() ||
        codec::EncodeOutput(outputs[output.output_id.index]) != output.output ||
        transaction->second.block_id != output.block_id)
        throw ImportError(where + ": created output " +
                          codec::ToHex(codec::ToBytes(output.output_id)) +
                          " is not that output of its transaction in the cone");
}

ConsumedOutput Consumed(const json &record, std::uint32_t index,
                        const std::map<codec::TransactionId, ConeTransaction> &included,
                        const std::string &where)
{
    const json &output = record.at("output");
    const json &spent = record.at("spent_metadata");
    ConsumedOutput consumed{BookedOutput(output),
                            codec::JsonUnsignedField<std::uint32_t>(
                                output.at("booked"), "output.booked", "milestone_index"),
                            codec::JsonUnsignedField<std::uint32_t>(
                                output.at("booked"), "output.booked", "milestone_timestamp"),
                            chronicle::Binary32(spent.at("transaction_id"))};
    auto spender = included.find(consumed.transaction_id_spent);
    const auto *inputs =
        spender == included.end() ? nullptr : &spender->second.payload.essence.inputs;
    if (codec::JsonUnsignedField<std::uint32_t>(spent.at("spent"), "output.spent",
                                                "milestone_index") != index ||
        (inputs &&
         std::find(inputs->begin(), inputs->end(), consumed.output.output_id) == inputs->end()))
        throw ImportError(where + ": consumed output " +
                          codec::ToHex(codec::ToBytes(consumed.output.output_id)) +
                          " is not spent by this milestone's transaction");
    return consumed;
}

NodeFields InMemoryNodeFields(const MilestoneBundle &bundle, const json &data,
                              const std::map<std::uint32_t, codec::MilestonePayload> &in_cones)
{
    std::string where = "milestone " + std::to_string(bundle.milestone_index);
    const json &milestone_data = data.at("milestone_data");
    NodeFields fields;
    AddMilestone(fields, bundle, milestone_data, in_cones, where);
    if (milestone_data.contains("protocol_params"))
        fields.protocol_parameters = codec::EncodeProtocolParameters(
            chronicle::ChronicleProtocolParameters(milestone_data.at("protocol_params")));
    auto included = IncludedTransactions(bundle);
    fields.ledger_known = true;
    for (const json &record : data.value("created", json::array()))
    {
        fields.created.push_back(BookedOutput(record));
        CheckCreated(fields.created.back(), included, where);
    }
    for (const json &record : data.value("consumed", json::array()))
        fields.consumed.push_back(Consumed(record, bundle.milestone_index, included, where));
    return fields;
}

// Node fields for every milestone; protocol parameters only where they take effect (the first
// line, then where they change), as a node announces them.
void AddNodeFields(const json &document, std::vector<ChronicleMilestone> &milestones)
{
    std::map<std::uint32_t, codec::MilestonePayload> in_cones;
    for (const ChronicleMilestone &milestone : milestones)
        in_cones.merge(MilestonePayloads(milestone.bundle.blocks));
    std::optional<codec::Bytes> in_force;
    for (ChronicleMilestone &milestone : milestones)
    {
        const MilestoneBundle &bundle = milestone.bundle;
        NodeFields fields = InMemoryNodeFields(
            bundle, document.at(std::to_string(bundle.milestone_index)), in_cones);
        if (fields.protocol_parameters && fields.protocol_parameters == in_force)
            fields.protocol_parameters.reset();
        else if (fields.protocol_parameters)
            in_force = fields.protocol_parameters;
        milestone.node_fields = std::move(fields);
    }
}

std::vector<ChronicleMilestone> InMemoryForm(const json &document, const ImportOptions &options)
{
    if (!document.is_object())
        throw ImportError("expected an object keyed by milestone index or an array of blocks");
    std::vector<ChronicleMilestone> milestones;
    for (const auto &[key, data] : document.items())
        milestones.push_back({InMemoryMilestone(key, data), std::nullopt});
    std::sort(milestones.begin(), milestones.end(),
              [](const ChronicleMilestone &a, const ChronicleMilestone &b)
              { return a.bundle.milestone_index < b.bundle.milestone_index; });
    if (options.node_fields)
        AddNodeFields(document, milestones);
    return milestones;
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
        auto referenced = codec::JsonUnsignedField<std::uint32_t>(metadata, "metadata",
                                                                  "referenced_by_milestone_index");
        auto white_flag =
            codec::JsonUnsignedField<std::uint32_t>(metadata, "metadata", "white_flag_index");
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
            bundle.milestone_timestamp = own->second.essence.timestamp;
        else if (!payloads.empty() && payloads.rbegin()->first < index)
            bundle.milestone_timestamp = payloads.rbegin()->second.essence.timestamp;
        else
            throw ImportError("no milestone payload among the blocks of milestone " +
                              std::to_string(index) + ": give --milestone-timestamp");
        bundles.push_back(std::move(bundle));
    }
    return bundles;
}

} // namespace

std::vector<ChronicleMilestone> ImportChronicleMilestones(const std::string &path,
                                                          const ImportOptions &options)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw std::runtime_error("cannot read " + path);
    return ParseChronicleMilestones(text.str(), options);
}

std::vector<ChronicleMilestone> ParseChronicleMilestones(const std::string &text,
                                                         const ImportOptions &options)
{
    json document;
    try
    {
        document = json::parse(text);
        if (!document.is_array())
            return InMemoryForm(document, options);
        std::vector<ChronicleMilestone> milestones;
        for (MilestoneBundle &bundle : BlocksForm(document, options))
            milestones.push_back({std::move(bundle), std::nullopt});
        return milestones;
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

std::vector<MilestoneBundle> ImportChronicle(const std::string &path, const ImportOptions &options)
{
    std::vector<MilestoneBundle> bundles;
    for (ChronicleMilestone &milestone : ImportChronicleMilestones(path, options))
        bundles.push_back(std::move(milestone.bundle));
    return bundles;
}

} // namespace permanode::cli
