// Explorer milestone lists, in inx-chronicle's shapes: the milestones by index (newest or oldest
// first, within a time window), and a milestone's blocks in white-flag order with their payload
// types.
#include <httplib.h>

#include "codec/milestone.hpp"
#include "codec/tagged_data.hpp"
#include "codec/transaction.hpp"
#include "codec/treasury.hpp"
#include "routes/render.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kMilestones = "/api/explorer/v2/milestones";

// A payload kind (messages.variant) of an era, and its type number: TIP-24's for Stardust,
// Chrysalis's (TIP-7 transaction, TIP-8 milestone, TIP-6 indexation, TIP-17 receipt) for it.
struct PayloadTypeOf
{
    std::int16_t protocol_version;
    const char *variant;
    std::uint32_t type;
};
const PayloadTypeOf kPayloadTypes[] = {
    {client::kStardust, "treasury_transaction", codec::kTreasuryTransactionPayloadType},
    {client::kStardust, "tagged_data", codec::kTaggedDataPayloadType},
    {client::kStardust, "transaction", codec::kTransactionPayloadType},
    {client::kStardust, "milestone", codec::kMilestonePayloadType},
    {client::kChrysalis, "transaction", 0},
    {client::kChrysalis, "milestone", 1},
    {client::kChrysalis, "indexation", 2},
    {client::kChrysalis, "receipt", 3},
    {client::kChrysalis, "treasury_transaction", 4},
};

// inx-chronicle's payloadType: the type number, null for a block without a payload.
nlohmann::json PayloadType(const client::MilestoneBlock &block)
{
    for (const auto &known : kPayloadTypes)
    {
        if (known.protocol_version == block.protocol_version && block.variant == known.variant)
        {
            return known.type;
        }
    }
    return nullptr;
}

Task<> Milestones(const httplib::Request &request, httplib::Response &response, Db &db,
                  const PathParams &)
{
    client::MilestoneFilter filter;
    filter.start_timestamp = QueryTime(request, "startTimestamp");
    filter.end_timestamp = QueryTime(request, "endTimestamp");
    if (filter.start_timestamp && filter.end_timestamp &&
        *filter.start_timestamp > *filter.end_timestamp)
    {
        throw BadParameter("endTimestamp", "must not be before startTimestamp");
    }
    filter.sort = SortParam(request);
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kBlockId);
    auto page = co_await db.Run(client::queries::Milestones(filter, page_size, cursor));
    nlohmann::json items = nlohmann::json::array();
    for (const auto &m : page.items)
    {
        items.push_back({{"milestoneId", m.milestone_id},
                         {"index", m.milestone_index},
                         {"timestamp", m.timestamp}});
    }
    nlohmann::json body = {{"items", items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    SendJson(response, body);
}

// The blocks of milestone `index`, paged as the request asks.
Task<> SendMilestoneBlocks(const httplib::Request &request, httplib::Response &response, Db &db,
                           std::int32_t index)
{
    auto sort = QueryText(request, "sort") ? SortParam(request) : client::SortOrder::kOldest;
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kWhiteFlagIndex);
    auto page =
        co_await db.Run(client::queries::MilestoneBlocksWithKind(index, sort, page_size, cursor));
    nlohmann::json blocks = nlohmann::json::array();
    for (const auto &block : page.items)
    {
        blocks.push_back({{"blockId", block.block_id},
                          {"payloadType", PayloadType(block)},
                          {"payloadKind", block.variant.empty() ? nlohmann::json(nullptr)
                                                                : nlohmann::json(block.variant)},
                          {"whiteFlagIndex", block.white_flag_index}});
    }
    nlohmann::json body = {{"milestoneIndex", index}, {"blocks", blocks}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    SendJson(response, body);
}

Task<> BlocksByMilestoneId(const httplib::Request &request, httplib::Response &response, Db &db,
                           const PathParams &path)
{
    auto id = HexIdParam(path[0], "milestoneId", 32);
    auto milestone = co_await db.Run(client::queries::MilestoneById(id));
    if (!milestone)
    {
        throw NotFound("milestone " + id);
    }
    co_await SendMilestoneBlocks(request, response, db, milestone->milestone_index);
}

Task<> BlocksByMilestoneIndex(const httplib::Request &request, httplib::Response &response, Db &db,
                              const PathParams &path)
{
    co_await SendMilestoneBlocks(request, response, db, MilestoneIndexParam(path[0], "index"));
}

} // namespace

void RegisterExplorerMilestoneRoutes(Router &router)
{
    std::vector<QueryParam> list = {
        {"startTimestamp", "integer", "unix seconds: milestones from this time on"},
        {"endTimestamp", "integer", "unix seconds: milestones up to this time"},
        {"sort", "string", "newest (default) or oldest first, by index"}};
    list.insert(list.end(), kPagingParams.begin(), kPagingParams.end());
    RouteInfo milestones(kMilestones, "explorer", "Milestones by index, of both eras", list);
    milestones.response = "{\"items\": [{\"milestoneId\", \"index\", \"timestamp\" (unix "
                          "seconds)}], \"cursor\"} (cursor: while more follow)";
    router.Get(std::move(milestones), Milestones);

    std::vector<QueryParam> blocks = {
        {"sort", "string", "oldest (default: white-flag order) or newest first"}};
    blocks.insert(blocks.end(), kPagingParams.begin(), kPagingParams.end());
    const std::string blocks_response =
        "{\"milestoneIndex\", \"blocks\": [{\"blockId\", \"payloadType\" (the payload's type "
        "number of its era, null without a payload), \"payloadKind\" (its name), "
        "\"whiteFlagIndex\"}], \"cursor\"}";
    // by-index before {milestoneId}, which would take "by-index" as an ID
    RouteInfo by_index(kMilestones + "/by-index/{index}/blocks", "explorer",
                       "The blocks a milestone references, in white-flag order", blocks);
    by_index.response = blocks_response;
    router.Get(std::move(by_index), BlocksByMilestoneIndex);
    RouteInfo by_id(kMilestones + "/{milestoneId}/blocks", "explorer",
                    "The blocks a milestone (0x + 64 hex digits) references, in white-flag order; "
                    "404 for a milestone not held",
                    blocks);
    by_id.response = blocks_response;
    router.Get(std::move(by_id), BlocksByMilestoneId);
}

} // namespace permanode::http
