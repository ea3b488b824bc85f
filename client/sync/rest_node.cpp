// RestNode (rest_node.hpp) and the JSON reading both REST APIs share (rest_apis.hpp).
#include "sync/rest_node.hpp"

#include "sync/cone_check.hpp"
#include "sync/cone_walk.hpp"
#include "sync/rest_apis.hpp"

#include "codec/block_metadata.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <chrono>
#include <thread>

#include <fmt/format.h>

namespace permanode::sync
{
namespace rest
{

nlohmann::json GetJson(RestGetter &http, const std::string &path)
{
    std::string body = http.Get(path);
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded())
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("GET {}: the reply is not JSON", http.Where(path)));
    return json;
}

const nlohmann::json &Field(const nlohmann::json &object, const char *key, const std::string &what)
{
    if (!object.is_object() || !object.contains(key))
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("{}: the node's reply has no \"{}\"", what, key));
    return object.at(key);
}

std::uint32_t U32Field(const nlohmann::json &object, const char *key, const std::string &what)
{
    const nlohmann::json &value = Field(object, key, what);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() > UINT32_MAX)
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("{}: \"{}\" is not a u32: {}", what, key, value.dump()));
    return value.get<std::uint32_t>();
}

std::string StringField(const nlohmann::json &object, const char *key, const std::string &what)
{
    const nlohmann::json &value = Field(object, key, what);
    if (!value.is_string())
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("{}: \"{}\" is not a string: {}", what, key, value.dump()));
    return value.get<std::string>();
}

bool FlagField(const nlohmann::json &object, const char *key)
{
    return object.is_object() && object.contains(key) && object.at(key) == true;
}

codec::Bytes HexBytes(const nlohmann::json &value, std::size_t size, const std::string &what)
{
    std::optional<codec::Bytes> bytes;
    if (value.is_string())
    {
        std::string text = value.get<std::string>();
        bytes = codec::FromHex(text.rfind("0x", 0) == 0 ? text : "0x" + text);
    }
    if (!bytes || (size != 0 && bytes->size() != size))
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("{}: {} is not {} bytes of hex", what, value.dump(),
                                    size == 0 ? std::string("some") : std::to_string(size)));
    return *bytes;
}

codec::OutputId OutputIdOf(const nlohmann::json &value, const std::string &what)
{
    codec::Bytes bytes = HexBytes(value, 34, what);
    codec::OutputIdBytes id{};
    std::copy(bytes.begin(), bytes.end(), id.begin());
    return codec::OutputIdFromBytes(id);
}

namespace
{

// Checks that bytes hash to the ID they were asked by (BLAKE2b-256 in both eras).
void CheckHashesTo(const codec::Bytes &bytes, const codec::BlockId &id)
{
    if (codec::Blake2b256(bytes) != id)
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("the bytes the node sent for {} hash to {}", codec::ToHex(id),
                                    codec::ToHex(codec::Blake2b256(bytes))));
}

} // namespace

WalkedBlock ConeBlockOf(const nlohmann::json &metadata, std::uint32_t index,
                        const codec::BlockId &id, const std::string &what,
                        const std::function<std::string()> &get_bytes)
{
    WalkedBlock out;
    if (metadata.contains("referencedByMilestoneIndex"))
        out.referenced_by = U32Field(metadata, "referencedByMilestoneIndex", what);
    if (out.referenced_by != index)
        return out;
    if (metadata.contains("whiteFlagIndex"))
        out.white_flag_index = U32Field(metadata, "whiteFlagIndex", what);
    std::string bytes = get_bytes();
    out.block.bytes.assign(bytes.begin(), bytes.end());
    CheckHashesTo(out.block.bytes, id);
    std::string state_name = StringField(metadata, "ledgerInclusionState", what);
    auto state = codec::ParseLedgerInclusionState(state_name);
    if (!state)
        throw NodeError(NodeError::Kind::kProtocol,
                        what + ": unknown ledgerInclusionState \"" + state_name + "\"");
    out.block.inclusion_state = static_cast<std::uint8_t>(*state);
    if (metadata.contains("conflictReason"))
    {
        std::uint32_t reason = U32Field(metadata, "conflictReason", what);
        if (reason > 255) // a TIP-25 code is a byte: 256 must not pass as 0
            throw NodeError(
                NodeError::Kind::kProtocol,
                fmt::format("{}: conflictReason {} is not a TIP-25 code", what, reason));
        out.block.conflict_reason = static_cast<std::uint8_t>(reason);
    }
    return out;
}

LedgerUpdates UpdatesOf(const nlohmann::json &changes, const std::string &what)
{
    LedgerUpdates updates;
    for (const nlohmann::json &id : Field(changes, "createdOutputs", what))
        updates.created.push_back(LedgerOutput{OutputIdOf(id, what), {}, {}, 0, 0});
    for (const nlohmann::json &id : Field(changes, "consumedOutputs", what))
        updates.consumed.push_back(LedgerSpent{{OutputIdOf(id, what), {}, {}, 0, 0}, {}, 0, 0});
    return updates;
}

void FillOutside(NodeMilestone &milestone, int parallel,
                 const std::function<void(LedgerOutput &)> &fetch)
{
    std::map<codec::OutputIdBytes, codec::Bytes> of_cone;
    try
    {
        of_cone = OutputsOfCone(milestone);
    }
    catch (const std::exception &e)
    {
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("milestone {}: a block of the cone does not decode: {}",
                                    milestone.index, e.what()));
    }
    std::vector<LedgerOutput *> outside;
    for (LedgerOutput &output : milestone.updates.created)
        if (!of_cone.count(codec::ToBytes(output.output_id)))
            outside.push_back(&output);
    ParallelFor(outside.size(), parallel, [&](std::size_t i) { fetch(*outside[i]); });
}

} // namespace rest

namespace
{

constexpr int kPollMs = 500;

const std::string kCoreV2Path = "/api/core/v2";
const std::string kV1Path = "/api/v1";

std::string WithoutSlashes(std::string url)
{
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    return url;
}

bool EndsWith(const std::string &text, const std::string &tail)
{
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// The URL without the API's own path, if it names one.
std::string WithoutApiPath(const std::string &url)
{
    std::string base = WithoutSlashes(url);
    for (const std::string &tail : {kCoreV2Path, kV1Path})
        if (EndsWith(base, tail))
            return base.substr(0, base.size() - tail.size());
    return base;
}

} // namespace

RestNode::RestNode(const std::string &url, int parallel)
    : url_(WithoutSlashes(url)), http_(ParseNodeUrl(WithoutApiPath(url))), parallel_(parallel)
{
    if (EndsWith(url_, kCoreV2Path))
        api_ = Api::kCoreV2;
    else if (EndsWith(url_, kV1Path))
        api_ = Api::kV1;
}

RestNode::Api RestNode::Detect()
{
    if (api_ != Api::kUnknown)
        return api_;
    try
    {
        http_.Get("/api/core/v2/info");
        api_ = Api::kCoreV2;
    }
    catch (const NodeError &e)
    {
        if (e.kind() != NodeError::Kind::kNotFound)
            throw;
        http_.Get("/api/v1/info");
        api_ = Api::kV1;
    }
    return api_;
}

NodeStatus RestNode::Status()
{
    return Detect() == Api::kCoreV2 ? rest::StardustStatus(http_) : rest::ChrysalisStatus(http_);
}

NodeMilestone RestNode::Milestone(std::uint32_t index)
{
    return Detect() == Api::kCoreV2 ? rest::StardustMilestone(http_, index, parallel_)
                                    : rest::ChrysalisMilestone(http_, index, parallel_);
}

std::vector<LedgerUpdates> RestNode::Updates(std::uint32_t, std::uint32_t)
{
    throw NodeError(NodeError::Kind::kProtocol, "a REST API gives no ledger updates in bulk");
}

std::vector<LedgerOutput> RestNode::UnspentOutputs(std::uint32_t *)
{
    throw NodeError(NodeError::Kind::kProtocol, "a REST API gives no unspent outputs in bulk");
}

std::uint32_t RestNode::WaitForConfirmation(std::uint32_t after, int timeout_ms)
{
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true)
    {
        std::uint32_t confirmed = Status().confirmed_index;
        if (confirmed > after || std::chrono::steady_clock::now() >= until)
            return confirmed;
        std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    }
}

} // namespace permanode::sync
