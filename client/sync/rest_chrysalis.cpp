// The API v1 (Chrysalis, Hornet 1.x and inx-api-core-v1; TIP-13) as a RestNode reads it: the
// milestone's message ID by index, its cone from that message (which the cone ends with), the
// messages' bytes (/raw) and metadata, the milestone's UTXO changes, and the outputs it booked
// from outside the cone by ID. IDs are hex without 0x; every reply is inside {"data": …}.
#include "sync/cone_walk.hpp"
#include "sync/rest_apis.hpp"

#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <fmt/format.h>

namespace permanode::sync::rest
{
namespace
{

const std::string kV1 = "/api/v1";

template <std::size_t N> std::string PlainHex(const std::array<std::uint8_t, N> &bytes)
{
    return codec::ToHex(bytes).substr(2);
}

const nlohmann::json &DataOf(const nlohmann::json &reply, const std::string &what)
{
    return Field(reply, "data", what);
}

WalkedBlock FetchMessage(RestGetter &http, const codec::BlockId &id, std::uint32_t index)
{
    std::string path = kV1 + "/messages/" + PlainHex(id);
    std::string what = "message " + PlainHex(id);
    nlohmann::json metadata = DataOf(GetJson(http, path + "/metadata"), what);
    return ConeBlockOf(metadata, index, id, what,
                       [&] { return http.Get(path + "/raw", "application/octet-stream"); });
}

// An output booked from outside the cone (the genesis or a snapshot): its bytes (TIP-7) from
// the JSON, and the message the node names for it.
void FetchChrysalisOutput(RestGetter &http, LedgerOutput &output)
{
    std::string path = kV1 + "/outputs/" + PlainHex(codec::ToBytes(output.output_id));
    const nlohmann::json data = DataOf(GetJson(http, path), "GET " + path);
    try
    {
        output.output = codec::chrysalis::EncodeOutputBytes(
            codec::chrysalis::OutputFromJson(Field(data, "output", path)));
    }
    catch (const codec::JsonError &e)
    {
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("GET {}: the output is not one: {}", path, e.what()));
    }
    codec::Bytes block = HexBytes(Field(data, "messageId", path), 32, path + " messageId");
    std::copy(block.begin(), block.end(), output.block_id.begin());
}

} // namespace

NodeStatus ChrysalisStatus(RestGetter &http)
{
    const std::string what = "GET " + kV1 + "/info";
    const nlohmann::json info = DataOf(GetJson(http, kV1 + "/info"), what);
    NodeStatus out;
    out.protocol_version = 1;
    out.healthy = FlagField(info, "isHealthy");
    out.confirmed_index = U32Field(info, "confirmedMilestoneIndex", what);
    if (info.contains("latestMilestoneTimestamp"))
        out.confirmed_timestamp = U32Field(info, "latestMilestoneTimestamp", what);
    out.pruning_index = info.contains("pruningIndex") ? U32Field(info, "pruningIndex", what) : 0;
    out.ledger_index = out.confirmed_index;
    out.network_name = StringField(info, "networkId", what);
    out.bech32_hrp = StringField(info, "bech32HRP", what);
    return out;
}

NodeMilestone ChrysalisMilestone(RestGetter &http, std::uint32_t index, int parallel)
{
    std::string path = kV1 + "/milestones/" + std::to_string(index);
    const nlohmann::json milestone = DataOf(GetJson(http, path), "GET " + path);
    NodeMilestone out;
    out.protocol_version = 1;
    out.index = index;
    out.timestamp = U32Field(milestone, "timestamp", "GET " + path);
    codec::Bytes message = HexBytes(Field(milestone, "messageId", path), 32, path + " messageId");
    codec::BlockId root{};
    std::copy(message.begin(), message.end(), root.begin());
    out.blocks = WalkCone(
        {root}, index, 1, [&](const codec::BlockId &id) { return FetchMessage(http, id, index); },
        parallel);
    out.updates = UpdatesOf(DataOf(GetJson(http, path + "/utxo-changes"), path),
                            "GET " + path + "/utxo-changes");
    FillOutside(out, parallel, [&](LedgerOutput &output) { FetchChrysalisOutput(http, output); });
    return out;
}

} // namespace permanode::sync::rest
