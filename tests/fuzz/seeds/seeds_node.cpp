// Seeds of node_reply_fuzz: the replies a node's REST API gives `permanode sync`, recorded in the
// order the readers ask for them, and the messages of INX. A fixture node answers each path from
// one milestone: real Shimmer data (Chronicle's, with the node's records), and milestones of the
// Stardust and Chrysalis generators (whole cones, whose Merkle roots hold).
#include "seeds.hpp"

#include "bundle.hpp"
#include "chronicle_import.hpp"
#include "chrysalis_generator.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "generator.hpp"
#include "sync/cone_check.hpp"
#include "sync/http_getter.hpp"
#include "sync/rest_apis.hpp"

#include "inx.pb.h"

#include "../../unit/codec/fixtures.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>

namespace permanode::fuzz
{
namespace
{

using nlohmann::json;

// One milestone as a node holds it.
struct NodeData
{
    std::uint8_t protocol = cli::kStardustProtocol;
    std::uint32_t index = 0;
    std::uint32_t timestamp = 0;
    codec::Bytes payload; // Stardust: the milestone payload
    std::optional<codec::MilestoneId> milestone_id;
    std::vector<cli::BundleBlock> blocks; // the cone, in white-flag order
    std::vector<cli::SnapshotOutput> created;
    std::vector<cli::ConsumedOutput> consumed;
};

struct Reply
{
    int status = 200;
    std::string body;
};

std::string Text(const codec::Bytes &bytes)
{
    return std::string(bytes.begin(), bytes.end());
}

const char *StateName(cli::InclusionState state)
{
    switch (state)
    {
        case cli::InclusionState::kIncluded:
            return "included";
        case cli::InclusionState::kConflicting:
            return "conflicting";
        case cli::InclusionState::kNoTransaction:
            break;
    }
    return "noTransaction";
}

// A node that answers from a table of paths and records what it served, in order.
class FixtureNode final : public sync::RestGetter
{
  public:
    void Answer(const std::string &path, std::string body) { answers_[path] = {200, body}; }

    std::string Get(const std::string &path, const std::string &) override
    {
        auto found = answers_.find(path);
        Reply reply = found != answers_.end()
                          ? found->second
                          : Reply{404, R"({"error":{"code":"404","message":"not found"}})"};
        served_.push_back(reply);
        if (reply.status != 200)
            throw sync::ReplyError(reply.status, Where(path), reply.body);
        return reply.body;
    }
    std::string Where(const std::string &path) const override { return "http://fixture" + path; }

    // The script of what was served, after the target's first line.
    std::string Script(const std::string &first_line) const
    {
        std::string out = first_line;
        for (const Reply &reply : served_)
            out += "\n--- " + std::to_string(reply.status) + "\n" + reply.body;
        return out;
    }

  private:
    std::map<std::string, Reply> answers_;
    std::vector<Reply> served_;
};

// The core API v2 of a Stardust milestone.
void AnswerStardust(FixtureNode &node, const NodeData &data)
{
    const std::string core = "/api/core/v2";
    std::string milestone = core + "/milestones/by-index/" + std::to_string(data.index);
    node.Answer(milestone, Text(data.payload));
    for (std::size_t i = 0; i < data.blocks.size(); i++)
    {
        const cli::BundleBlock &block = data.blocks[i];
        std::string id = codec::ToHex(codec::ComputeBlockId(block.bytes));
        json metadata = {{"blockId", id},
                         {"isSolid", true},
                         {"referencedByMilestoneIndex", data.index},
                         {"ledgerInclusionState", StateName(block.inclusion_state)},
                         {"whiteFlagIndex", i}};
        if (block.inclusion_state == cli::InclusionState::kConflicting)
            metadata["conflictReason"] = block.conflict_reason;
        node.Answer(core + "/blocks/" + id, Text(block.bytes));
        node.Answer(core + "/blocks/" + id + "/metadata", metadata.dump());
    }
    json changes = {{"index", data.index},
                    {"createdOutputs", json::array()},
                    {"consumedOutputs", json::array()}};
    for (const cli::SnapshotOutput &output : data.created)
    {
        std::string id = codec::ToHex(codec::ToBytes(output.output_id));
        changes["createdOutputs"].push_back(id);
        node.Answer(core + "/outputs/" + id, Text(output.output));
        node.Answer(core + "/outputs/" + id + "/metadata",
                    json{{"blockId", codec::ToHex(output.block_id)}, {"outputId", id}}.dump());
    }
    for (const cli::ConsumedOutput &spent : data.consumed)
        changes["consumedOutputs"].push_back(codec::ToHex(codec::ToBytes(spent.output.output_id)));
    node.Answer(milestone + "/utxo-changes", changes.dump());
}

// The API v1 of a Chrysalis milestone: IDs in hex without 0x, replies inside {"data": ...}.
void AnswerChrysalis(FixtureNode &node, const NodeData &data)
{
    auto plain = [](const auto &bytes) { return codec::ToHex(bytes).substr(2); };
    const std::string v1 = "/api/v1";
    std::string milestone = v1 + "/milestones/" + std::to_string(data.index);
    std::string own = plain(codec::chrysalis::ComputeMessageId(data.blocks.back().bytes));
    node.Answer(
        milestone,
        json{{"data", {{"index", data.index}, {"messageId", own}, {"timestamp", data.timestamp}}}}
            .dump());
    for (const cli::BundleBlock &block : data.blocks)
    {
        std::string id = plain(codec::chrysalis::ComputeMessageId(block.bytes));
        node.Answer(v1 + "/messages/" + id + "/raw", Text(block.bytes));
        node.Answer(v1 + "/messages/" + id + "/metadata",
                    json{{"data",
                          {{"messageId", id},
                           {"referencedByMilestoneIndex", data.index},
                           {"ledgerInclusionState", StateName(block.inclusion_state)}}}}
                        .dump());
    }
    json changes = {{"index", data.index},
                    {"createdOutputs", json::array()},
                    {"consumedOutputs", json::array()}};
    for (const cli::SnapshotOutput &output : data.created)
        changes["createdOutputs"].push_back(plain(codec::ToBytes(output.output_id)));
    for (const cli::ConsumedOutput &spent : data.consumed)
        changes["consumedOutputs"].push_back(plain(codec::ToBytes(spent.output.output_id)));
    node.Answer(milestone + "/utxo-changes", json{{"data", changes}}.dump());
}

// A milestone read from a fixture node: its script, whatever the readers made of the replies.
std::string MilestoneScript(const NodeData &data)
{
    FixtureNode node;
    bool stardust = data.protocol == cli::kStardustProtocol;
    if (stardust)
        AnswerStardust(node, data);
    else
        AnswerChrysalis(node, data);
    try
    {
        if (stardust)
            sync::rest::StardustMilestone(node, data.index, 1);
        else
            sync::rest::ChrysalisMilestone(node, data.index, 1);
    }
    catch (const sync::NodeError &)
    {
    }
    return node.Script(std::string(stardust ? "S " : "C ") + std::to_string(data.index));
}

NodeData FromBundle(const cli::MilestoneBundle &bundle, const cli::NodeFields *fields)
{
    NodeData data;
    data.protocol = bundle.protocol_version;
    data.index = bundle.milestone_index;
    data.timestamp = bundle.milestone_timestamp;
    data.blocks = bundle.blocks;
    if (fields)
    {
        data.payload = fields->milestone;
        data.created = fields->created;
        data.milestone_id = fields->milestone_id;
        data.consumed = fields->consumed;
    }
    return data;
}

// A Chrysalis milestone's created outputs: those of its cone (sync's own reading of them).
void AddConeOutputs(NodeData &data)
{
    sync::NodeMilestone milestone;
    milestone.protocol_version = data.protocol;
    milestone.index = data.index;
    for (const cli::BundleBlock &block : data.blocks)
        milestone.blocks.push_back(
            {block.bytes, static_cast<std::uint8_t>(block.inclusion_state), block.conflict_reason});
    for (const auto &[id, bytes] : sync::OutputsOfCone(milestone))
        data.created.push_back({codec::OutputIdFromBytes(id), {}, bytes});
}

// INX: a script's reply of one message.
std::string InxReply(const google::protobuf::Message &message, int status = 200)
{
    return "\n--- " + std::to_string(status) + "\n" + message.SerializeAsString();
}

template <std::size_t N> std::string Text(const std::array<std::uint8_t, N> &bytes)
{
    return std::string(bytes.begin(), bytes.end());
}

inx::LedgerOutput InxOutput(const cli::SnapshotOutput &output, std::uint32_t index,
                            std::uint32_t timestamp)
{
    inx::LedgerOutput out;
    out.mutable_output_id()->set_id(Text(codec::ToBytes(output.output_id)));
    out.mutable_blockid()->set_id(Text(output.block_id));
    out.set_milestone_index_booked(index);
    out.set_milestone_timestamp_booked(timestamp);
    out.mutable_output()->set_data(Text(output.output));
    return out;
}

inx::LedgerUpdate Marker(const NodeData &data, inx::LedgerUpdate::Marker::MarkerType type)
{
    inx::LedgerUpdate update;
    auto *marker = update.mutable_batch_marker();
    marker->set_milestone_index(data.index);
    marker->set_marker_type(type);
    marker->set_consumed_count(static_cast<std::uint32_t>(data.consumed.size()));
    marker->set_created_count(static_cast<std::uint32_t>(data.created.size()));
    return update;
}

inx::BlockWithMetadata InxBlock(const cli::BundleBlock &block, std::uint32_t index,
                                std::uint32_t white_flag_index)
{
    inx::BlockWithMetadata message;
    auto *metadata = message.mutable_metadata();
    metadata->mutable_block_id()->set_id(Text(codec::ComputeBlockId(block.bytes)));
    metadata->set_referenced_by_milestone_index(index);
    metadata->set_ledger_inclusion_state(
        static_cast<inx::BlockMetadata::LedgerInclusionState>(block.inclusion_state));
    metadata->set_conflict_reason(
        static_cast<inx::BlockMetadata::ConflictReason>(block.conflict_reason));
    metadata->set_white_flag_index(white_flag_index);
    message.mutable_block()->set_data(Text(block.bytes));
    return message;
}

// What InxNode reads of a Stardust milestone: its Milestone, the cone stream, a reply that ends
// it, the ledger update stream.
std::string InxMilestoneScript(const NodeData &data)
{
    inx::Milestone milestone;
    auto *info = milestone.mutable_milestone_info();
    info->set_milestone_index(data.index);
    info->set_milestone_timestamp(data.timestamp);
    if (data.milestone_id)
        info->mutable_milestone_id()->set_id(Text(*data.milestone_id));
    milestone.mutable_milestone()->set_data(Text(data.payload));
    std::string script = "N " + std::to_string(data.index) + InxReply(milestone);
    for (std::size_t i = 0; i < data.blocks.size(); i++)
        script += InxReply(InxBlock(data.blocks[i], data.index, static_cast<std::uint32_t>(i)));
    script += InxReply(inx::LedgerUpdate(), 0); // the cone stream's end
    script += InxReply(Marker(data, inx::LedgerUpdate::Marker::BEGIN));
    for (const cli::ConsumedOutput &spent : data.consumed)
    {
        inx::LedgerUpdate update;
        auto *consumed = update.mutable_consumed();
        *consumed->mutable_output() =
            InxOutput(spent.output, spent.milestone_index_booked, spent.milestone_timestamp_booked);
        consumed->mutable_transaction_id_spent()->set_id(Text(spent.transaction_id_spent));
        consumed->set_milestone_index_spent(data.index);
        consumed->set_milestone_timestamp_spent(data.timestamp);
        script += InxReply(update);
    }
    for (const cli::SnapshotOutput &output : data.created)
    {
        inx::LedgerUpdate update;
        *update.mutable_created() = InxOutput(output, data.index, data.timestamp);
        script += InxReply(update);
    }
    return script + InxReply(Marker(data, inx::LedgerUpdate::Marker::END));
}

std::string InxStatusScript(std::uint32_t confirmed, const codec::Bytes &protocol_parameters)
{
    inx::NodeStatus status;
    status.set_is_healthy(true);
    status.set_is_synced(true);
    auto *info = status.mutable_confirmed_milestone()->mutable_milestone_info();
    info->set_milestone_index(confirmed);
    info->set_milestone_timestamp(1664346000);
    status.mutable_current_protocol_parameters()->set_protocol_version(2);
    status.mutable_current_protocol_parameters()->set_params(Text(protocol_parameters));
    status.set_ledger_index(confirmed);
    return "n 0" + InxReply(status);
}

std::string StardustInfo(std::uint32_t confirmed)
{
    return json{{"name", "HORNET"},
                {"status",
                 {{"isHealthy", true},
                  {"confirmedMilestone", {{"index", confirmed}, {"timestamp", 1664346000}}},
                  {"pruningIndex", 0}}},
                {"protocol", {{"version", 2}, {"networkName", "shimmer"}, {"bech32Hrp", "smr"}}}}
        .dump();
}

std::string ChrysalisInfo(std::uint32_t confirmed)
{
    return json{{"data",
                 {{"name", "HORNET"},
                  {"isHealthy", true},
                  {"networkId", "chrysalis-mainnet"},
                  {"bech32HRP", "iota"},
                  {"confirmedMilestoneIndex", confirmed},
                  {"latestMilestoneTimestamp", 1619870400},
                  {"pruningIndex", 0}}}}
        .dump();
}

} // namespace

void WriteNodeReplySeeds(const SeedDir &dir)
{
    const Samples &samples = FixtureSamples();
    dir.Write("status-stardust",
              "s 0\n--- 200\n" + StardustInfo(samples.milestone_index) + "\n--- 200\n{}");
    dir.Write("status-stardust-newest-missing",
              "s 0\n--- 200\n" + StardustInfo(samples.milestone_index) + "\n--- 404\n{}");
    dir.Write("status-chrysalis", "c 0\n--- 200\n" + ChrysalisInfo(1333966));

    // Real Shimmer milestones, with what the node recorded of them.
    cli::ImportOptions options;
    options.node_fields = true;
    for (const auto &milestone : cli::ImportChronicleMilestones(
             codec::fixtures::Directory() + "/in_memory_data.json", options))
        if (milestone.node_fields && !milestone.node_fields->milestone.empty())
        {
            NodeData data = FromBundle(milestone.bundle, &*milestone.node_fields);
            std::string index = std::to_string(data.index);
            dir.Write("shimmer-" + index, MilestoneScript(data));
            dir.Write("inx-shimmer-" + index, InxMilestoneScript(data));
            if (milestone.node_fields->protocol_parameters)
                dir.Write("inx-status-" + index,
                          InxStatusScript(data.index, *milestone.node_fields->protocol_parameters));
        }

    // Generated ones: the genesis (its outputs booked from outside the cone) and the next.
    cli::GeneratorOptions stardust_options;
    stardust_options.min_blocks = 3;
    stardust_options.max_blocks = 6;
    stardust_options.genesis_addresses = 3;
    cli::LedgerGenerator stardust(stardust_options);
    cli::GeneratorOptions chrysalis_options = cli::ChrysalisGeneratorDefaults();
    chrysalis_options.min_blocks = 3;
    chrysalis_options.max_blocks = 6;
    chrysalis_options.genesis_addresses = 3;
    cli::ChrysalisLedgerGenerator chrysalis(chrysalis_options);
    for (int i = 1; i <= 2; i++)
    {
        cli::NodeFields fields;
        cli::MilestoneBundle bundle = stardust.Next(&fields);
        NodeData generated = FromBundle(bundle, &fields);
        dir.Write("stardust-" + std::to_string(i), MilestoneScript(generated));
        dir.Write("inx-stardust-" + std::to_string(i), InxMilestoneScript(generated));
        NodeData data = FromBundle(chrysalis.Next(), nullptr);
        AddConeOutputs(data);
        dir.Write("chrysalis-" + std::to_string(i), MilestoneScript(data));
    }
}

} // namespace permanode::fuzz
