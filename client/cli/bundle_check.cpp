// Codec checks of a bundle.
#include "bundle_check.hpp"

#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/output.hpp"

namespace permanode::cli
{
namespace
{

std::string BlockName(const MilestoneBundle &bundle, std::size_t index)
{
    return "block " + std::to_string(index) + " (" +
           codec::ToHex(codec::ComputeBlockId(bundle.blocks[index].bytes)) + ")";
}

} // namespace

void CheckBundle(const MilestoneBundle &bundle)
{
    for (std::size_t i = 0; i < bundle.blocks.size(); ++i)
    {
        const BundleBlock &input = bundle.blocks[i];
        codec::Block block;
        try
        {
            block = codec::DecodeBlock(input.bytes);
        }
        catch (const codec::DecodeError &e)
        {
            throw BundleError(BlockName(bundle, i) + ": does not decode: " + e.what());
        }
        bool is_transaction = codec::TransactionOf(block) != nullptr;
        bool no_transaction = input.inclusion_state == InclusionState::kNoTransaction;
        if (is_transaction == no_transaction)
            throw BundleError(BlockName(bundle, i) + ": inclusion_state " +
                              InclusionStateName(input.inclusion_state) +
                              (is_transaction ? " does not fit its transaction payload"
                                              : " needs a transaction payload"));
        if (const codec::MilestonePayload *milestone = codec::MilestoneOf(block))
        {
            const auto &essence = milestone->essence;
            if (essence.index > bundle.milestone_index)
                throw BundleError(BlockName(bundle, i) + ": milestone index mismatch: carries " +
                                  "the payload of milestone " + std::to_string(essence.index) +
                                  ", later than milestone_index " +
                                  std::to_string(bundle.milestone_index));
            if (essence.index == bundle.milestone_index &&
                essence.timestamp != bundle.milestone_timestamp)
                throw BundleError(BlockName(bundle, i) +
                                  ": milestone timestamp mismatch: " + "its payload says " +
                                  std::to_string(essence.timestamp) + ", milestone_timestamp is " +
                                  std::to_string(bundle.milestone_timestamp));
        }
    }
    for (std::size_t i = 0; i < bundle.snapshot_outputs.size(); ++i)
    {
        const codec::Bytes &bytes = bundle.snapshot_outputs[i].output;
        try
        {
            codec::ByteReader reader{codec::ByteSpan(bytes)};
            codec::DecodeOutput(reader, codec::kTransactionOutputTypes);
            if (reader.Remaining() != 0)
                throw BundleError("snapshot output " + std::to_string(i) + ": " +
                                  std::to_string(reader.Remaining()) +
                                  " trailing bytes after the output");
        }
        catch (const codec::DecodeError &e)
        {
            throw BundleError("snapshot output " + std::to_string(i) +
                              ": does not decode: " + e.what());
        }
    }
}

} // namespace permanode::cli
