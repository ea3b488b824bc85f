// The core API v2 (Stardust, Hornet 2.x; TIP-25) as a RestNode reads it: the milestone payload by
// index as bytes, its cone from the payload's parents, the block bytes as
// application/vnd.iota.serializer-v1 and their metadata, the milestone's UTXO changes, and the
// outputs it booked from outside the cone by ID.
#include "sync/cone_walk.hpp"
#include "sync/rest_apis.hpp"

#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/milestone.hpp"
#include "codec/reader.hpp"

#include <fmt/format.h>

namespace permanode::sync::rest
{
namespace
{

const std::string kCore = "/api/core/v2";
const std::string kRaw = "application/vnd.iota.serializer-v1";

codec::MilestonePayload DecodePayload(const codec::Bytes &bytes, std::uint32_t index)
{
    try
    {
        codec::ByteReader reader(bytes);
        if (reader.ReadU32("payload type") != codec::kMilestonePayloadType)
            throw codec::DecodeError("payload type", 0, "not a milestone payload");
        return codec::DecodeMilestoneBody(reader);
    }
    catch (const codec::DecodeError &e)
    {
        throw NodeError(
            NodeError::Kind::kProtocol,
            fmt::format("milestone {}: the node's payload does not decode: {}", index, e.what()));
    }
}

WalkedBlock FetchBlock(RestGetter &http, const codec::BlockId &id, std::uint32_t index)
{
    std::string path = kCore + "/blocks/" + codec::ToHex(id);
    std::string what = "block " + codec::ToHex(id);
    nlohmann::json metadata = GetJson(http, path + "/metadata");
    return ConeBlockOf(metadata, index, id, what, [&] { return http.Get(path, kRaw); });
}

// An output booked from outside the cone: its bytes and the block its metadata names.
void FetchStardustOutput(RestGetter &http, LedgerOutput &output)
{
    std::string path = kCore + "/outputs/" + codec::ToHex(codec::ToBytes(output.output_id));
    std::string bytes = http.Get(path, kRaw);
    output.output.assign(bytes.begin(), bytes.end());
    nlohmann::json metadata = GetJson(http, path + "/metadata");
    codec::Bytes block = HexBytes(Field(metadata, "blockId", path), 32, path + " blockId");
    std::copy(block.begin(), block.end(), output.block_id.begin());
}

// The newest milestone the node serves. A milestone's payload travels in the next milestone's
// cone, so an archive (a permanode's `permanode serve`) holds its newest milestone's cone
// without the payload until the next one comes: for a sync, that milestone is not there yet.
std::uint32_t NewestServed(RestGetter &http, std::uint32_t confirmed)
{
    if (confirmed == 0)
        return 0;
    try
    {
        http.Get(kCore + "/milestones/by-index/" + std::to_string(confirmed));
        return confirmed;
    }
    catch (const NodeError &e)
    {
        if (e.kind() != NodeError::Kind::kNotFound)
            throw;
        return confirmed - 1;
    }
}

} // namespace

NodeStatus StardustStatus(RestGetter &http)
{
    const std::string what = "GET " + kCore + "/info";
    nlohmann::json info = GetJson(http, kCore + "/info");
    const nlohmann::json &status = Field(info, "status", what);
    const nlohmann::json &confirmed = Field(status, "confirmedMilestone", what);
    const nlohmann::json &protocol = Field(info, "protocol", what);
    NodeStatus out;
    out.healthy = FlagField(status, "isHealthy");
    out.confirmed_index = U32Field(confirmed, "index", what);
    if (confirmed.contains("timestamp"))
        out.confirmed_timestamp = U32Field(confirmed, "timestamp", what);
    out.pruning_index =
        status.contains("pruningIndex") ? U32Field(status, "pruningIndex", what) : 0;
    out.ledger_index = out.confirmed_index;
    out.network_name = StringField(protocol, "networkName", what);
    out.bech32_hrp = StringField(protocol, "bech32Hrp", what);
    out.confirmed_index = NewestServed(http, out.confirmed_index);
    return out;
}

NodeMilestone StardustMilestone(RestGetter &http, std::uint32_t index, int parallel)
{
    std::string path = kCore + "/milestones/by-index/" + std::to_string(index);
    std::string raw = http.Get(path, kRaw);
    NodeMilestone out;
    out.protocol_version = 2;
    out.index = index;
    out.payload.assign(raw.begin(), raw.end());
    codec::MilestonePayload payload = DecodePayload(out.payload, index);
    out.timestamp = payload.essence.timestamp;
    out.milestone_id = codec::ComputeMilestoneId(payload.essence);
    out.blocks = WalkCone(
        payload.essence.parents, index, 2,
        [&](const codec::BlockId &id) { return FetchBlock(http, id, index); }, parallel);
    out.updates = UpdatesOf(GetJson(http, path + "/utxo-changes"), "GET " + path + "/utxo-changes");
    FillOutside(out, parallel, [&](LedgerOutput &output) { FetchStardustOutput(http, output); });
    return out;
}

} // namespace permanode::sync::rest
