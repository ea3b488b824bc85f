// JSON rendering of blocks, outputs and milestones.
#include "routes/render.hpp"

#include <httplib.h>

#include "codec/block.hpp"
#include "codec/block_metadata.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/json.hpp"
#include "codec/output.hpp"
#include "codec/payload.hpp"
#include "server/json_errors.hpp"
#include "server/json_text.hpp"

namespace permanode::http
{
namespace
{

codec::Bytes BytesOf(const std::string &raw)
{
    return codec::Bytes(raw.begin(), raw.end());
}

// Stored bytes that do not decode mean a damaged archive, not a bad request.
template <typename Fn> auto Decode(const char *what, Fn &&fn) -> decltype(fn())
{
    try
    {
        return fn();
    }
    catch (const codec::DecodeError &e)
    {
        throw HttpError(500, std::string("stored ") + what + " does not decode: " + e.what());
    }
}

codec::Hash32 HashOf(const std::string &hex)
{
    auto bytes = codec::FromHexFixed<32>(hex);
    return bytes ? *bytes : codec::Hash32{};
}

} // namespace

nlohmann::json BlockJson(const client::BlockRow &block)
{
    return Decode("block", [&] { return codec::ToJson(codec::DecodeBlock(BytesOf(block.raw))); });
}

nlohmann::json BlockMetadataJson(const client::BlockRow &row)
{
    codec::Block block = Decode("block", [&] { return codec::DecodeBlock(BytesOf(row.raw)); });
    codec::BlockMetadata metadata;
    metadata.block_id = HashOf(row.block_id);
    metadata.parents = block.parents;
    metadata.is_solid = row.is_solid;
    if (row.milestone_index)
    {
        // Referenced: Hornet reports the referencing milestone, the inclusion state and the
        // white-flag index, and no promote/reattach advice.
        metadata.referenced_by_milestone_index = static_cast<std::uint32_t>(*row.milestone_index);
        if (const auto *milestone = codec::MilestoneOf(block))
        {
            metadata.milestone_index = milestone->essence.index;
        }
        if (row.inclusion_state)
        {
            metadata.ledger_inclusion_state =
                static_cast<codec::LedgerInclusionState>(*row.inclusion_state);
        }
        if (row.conflict_reason && *row.conflict_reason != 0)
        {
            metadata.conflict_reason = static_cast<std::uint8_t>(*row.conflict_reason);
        }
        if (row.white_flag_index)
        {
            metadata.white_flag_index = static_cast<std::uint32_t>(*row.white_flag_index);
        }
    }
    else
    {
        metadata.should_promote = row.should_promote.value_or(false);
        metadata.should_reattach = row.should_reattach.value_or(false);
    }
    return codec::ToJson(metadata);
}

nlohmann::json OutputMetadataJson(const client::OutputRow &output)
{
    // The output ID is the transaction ID followed by the index, u16 little endian.
    std::string transaction_id = output.output_id.substr(0, 66);
    auto index_bytes = codec::FromHex("0x" + output.output_id.substr(66));
    int index =
        index_bytes && index_bytes->size() == 2 ? (*index_bytes)[0] | ((*index_bytes)[1] << 8) : 0;
    nlohmann::json metadata = {{"blockId", output.block_id},
                               {"transactionId", transaction_id},
                               {"outputIndex", index},
                               {"isSpent", output.is_spent},
                               {"milestoneIndexBooked", output.milestone_index_booked},
                               {"milestoneTimestampBooked", output.milestone_timestamp_booked},
                               {"ledgerIndex", output.ledger_index}};
    if (output.is_spent)
    {
        metadata["milestoneIndexSpent"] = output.milestone_index_spent;
        metadata["milestoneTimestampSpent"] = output.milestone_timestamp_spent;
        metadata["transactionIdSpent"] = output.transaction_id_spent;
    }
    return metadata;
}

nlohmann::json OutputJson(const client::OutputRow &output)
{
    auto bytes = BytesOf(output.raw);
    auto decoded = Decode("output",
                          [&]
                          {
                              codec::ByteReader reader{codec::ByteSpan(bytes)};
                              return codec::DecodeOutput(reader, codec::kTransactionOutputTypes);
                          });
    return {{"metadata", OutputMetadataJson(output)}, {"output", codec::ToJson(decoded)}};
}

nlohmann::json MilestoneJson(const client::MilestoneRow &milestone)
{
    auto bytes = BytesOf(milestone.payload);
    return codec::ToJson(Decode("milestone payload",
                                [&]
                                {
                                    codec::ByteReader reader{codec::ByteSpan(bytes)};
                                    return codec::DecodeBlockPayload(reader);
                                }));
}

nlohmann::json UtxoChangesJson(const client::UtxoChanges &changes)
{
    return {{"index", changes.milestone_index},
            {"createdOutputs", changes.created_outputs},
            {"consumedOutputs", changes.consumed_outputs}};
}

nlohmann::json OutputIdPageJson(const client::OutputIdPage &page, int page_size)
{
    nlohmann::json body = {
        {"ledgerIndex", page.ledger_index}, {"pageSize", page_size}, {"items", page.items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    return body;
}

void SendJson(httplib::Response &response, const nlohmann::json &body)
{
    response.status = 200;
    response.set_content(JsonText(body), "application/json");
}

void SendRaw(httplib::Response &response, const std::string &bytes)
{
    response.status = 200;
    response.set_content(bytes, "application/vnd.iota.serializer-v1");
}

} // namespace permanode::http
