// Codec checks of a bundle.
#include "bundle_check.hpp"

#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/output.hpp"

#include "sync/cone_check.hpp"

#include <optional>
#include <utility>

namespace permanode::cli
{
namespace
{

namespace chrysalis = codec::chrysalis;

// A Chrysalis message ID is the same hash of its bytes as a Stardust block ID.
std::string BlockName(const MilestoneBundle &bundle, std::size_t index)
{
    return "block " + std::to_string(index) + " (" +
           codec::ToHex(codec::ComputeBlockId(bundle.blocks[index].bytes)) + ")";
}

// What the checks need of a block or message: whether it carries a transaction, and the index
// and timestamp of the milestone payload it carries, if any.
struct Carried
{
    bool is_transaction = false;
    std::optional<std::pair<std::uint32_t, std::uint64_t>> milestone;
};

Carried DecodeCarried(std::uint8_t protocol_version, codec::ByteSpan bytes)
{
    Carried carried;
    if (protocol_version == kChrysalisProtocol)
    {
        chrysalis::Message message = chrysalis::DecodeMessage(bytes);
        if (!message.payload)
            return carried;
        carried.is_transaction =
            std::holds_alternative<chrysalis::TransactionPayload>(*message.payload);
        if (const auto *milestone = std::get_if<chrysalis::MilestonePayload>(&*message.payload))
            carried.milestone = {milestone->essence.index, milestone->essence.timestamp};
        return carried;
    }
    codec::Block block = codec::DecodeBlock(bytes);
    carried.is_transaction = codec::TransactionOf(block) != nullptr;
    if (const codec::MilestonePayload *milestone = codec::MilestoneOf(block))
        carried.milestone = {milestone->essence.index, milestone->essence.timestamp};
    return carried;
}

void CheckSnapshotOutput(std::uint8_t protocol_version, const codec::Bytes &bytes)
{
    if (protocol_version == kChrysalisProtocol)
    {
        chrysalis::DecodeTransactionOutputBytes(codec::ByteSpan(bytes));
        return;
    }
    codec::ByteReader reader{codec::ByteSpan(bytes)};
    codec::DecodeOutput(reader, codec::kTransactionOutputTypes);
    if (reader.Remaining() != 0)
        reader.Fail("output", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the output");
}

} // namespace

void CheckBundle(const MilestoneBundle &bundle)
{
    for (std::size_t i = 0; i < bundle.blocks.size(); ++i)
    {
        const BundleBlock &input = bundle.blocks[i];
        Carried carried;
        try
        {
            carried = DecodeCarried(bundle.protocol_version, input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            throw BundleError(BlockName(bundle, i) + ": does not decode" +
                              (bundle.protocol_version == kChrysalisProtocol
                                   ? " as a Chrysalis message: "
                                   : ": ") +
                              e.what());
        }
        bool no_transaction = input.inclusion_state == InclusionState::kNoTransaction;
        if (carried.is_transaction == no_transaction)
            throw BundleError(BlockName(bundle, i) + ": inclusion_state " +
                              InclusionStateName(input.inclusion_state) +
                              (carried.is_transaction ? " does not fit its transaction payload"
                                                      : " needs a transaction payload"));
        if (carried.milestone)
        {
            auto [index, timestamp] = *carried.milestone;
            if (index > bundle.milestone_index)
                throw BundleError(BlockName(bundle, i) + ": milestone index mismatch: carries " +
                                  "the payload of milestone " + std::to_string(index) +
                                  ", later than milestone_index " +
                                  std::to_string(bundle.milestone_index));
            if (index == bundle.milestone_index && timestamp != bundle.milestone_timestamp)
                throw BundleError(BlockName(bundle, i) +
                                  ": milestone timestamp mismatch: " + "its payload says " +
                                  std::to_string(timestamp) + ", milestone_timestamp is " +
                                  std::to_string(bundle.milestone_timestamp));
        }
    }
    for (std::size_t i = 0; i < bundle.snapshot_outputs.size(); ++i)
    {
        try
        {
            CheckSnapshotOutput(bundle.protocol_version, bundle.snapshot_outputs[i].output);
        }
        catch (const codec::DecodeError &e)
        {
            throw BundleError("snapshot output " + std::to_string(i) +
                              ": does not decode: " + e.what());
        }
    }
    if (bundle.partial_cone)
        return;
    if (auto problem = MerkleProblem(bundle))
        throw BundleError(*problem +
                          " (a cone known to be recorded in part may say \"partial_cone\": true)");
}

std::optional<std::string> MerkleProblem(const MilestoneBundle &bundle)
{
    if (bundle.protocol_version != kChrysalisProtocol && bundle.milestone_payload.empty())
        return std::nullopt;
    sync::NodeMilestone milestone;
    milestone.protocol_version = bundle.protocol_version;
    milestone.index = bundle.milestone_index;
    milestone.timestamp = bundle.milestone_timestamp;
    milestone.payload = bundle.milestone_payload;
    for (const BundleBlock &block : bundle.blocks)
        milestone.blocks.push_back(
            {block.bytes, static_cast<std::uint8_t>(block.inclusion_state), block.conflict_reason});
    try
    {
        sync::CheckCone(milestone);
        return std::nullopt;
    }
    catch (const sync::ConeError &e)
    {
        // the caller names the milestone already
        std::string what = e.what();
        std::string named = "milestone " + std::to_string(bundle.milestone_index) + ": ";
        return what.rfind(named, 0) == 0 ? what.substr(named.size()) : what;
    }
}

} // namespace permanode::cli
