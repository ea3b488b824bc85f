// Explorer extras: block children, ledger updates by address and milestone, balances, and
// analytics per milestone and per day.
#include <httplib.h>

#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "routes/render.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kExplorer = "/api/explorer/v2";
const std::string kAnalytics = "/api/analytics/v2";

nlohmann::json UpdatesJson(const client::Page<client::LedgerUpdate> &page)
{
    nlohmann::json items = nlohmann::json::array();
    for (const auto &u : page.items)
    {
        items.push_back({{"outputId", u.output_id},
                         {"isSpent", u.is_spent},
                         {"milestoneIndex", u.milestone_index},
                         {"milestoneTimestamp", u.milestone_timestamp},
                         {"amount", std::to_string(u.amount)}});
    }
    nlohmann::json body = {{"items", items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    return body;
}

Task<> Children(const httplib::Request &request, httplib::Response &response, Db &db,
                const PathParams &path)
{
    auto id = BlockIdParam(path[0], "blockId");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kBlockId);
    auto page = co_await db.Run(client::queries::BlockChildren(id, page_size, cursor));
    nlohmann::json body = {{"blockId", id}, {"pageSize", page_size}, {"children", page.items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    SendJson(response, body);
}

Task<> UpdatesByAddress(const httplib::Request &request, httplib::Response &response, Db &db,
                        const PathParams &path)
{
    auto address = AddressParam(path[0], "address");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kLedgerUpdate);
    auto body = UpdatesJson(
        co_await db.Run(client::queries::LedgerUpdatesByAddress(address, page_size, cursor)));
    body["address"] = address;
    SendJson(response, body);
}

Task<> UpdatesByMilestone(const httplib::Request &request, httplib::Response &response, Db &db,
                          const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kLedgerUpdate);
    auto body = UpdatesJson(
        co_await db.Run(client::queries::LedgerUpdatesByMilestone(index, page_size, cursor)));
    body["milestoneIndex"] = index;
    SendJson(response, body);
}

Task<> Balance(const httplib::Request &request, httplib::Response &response, Db &db,
               const PathParams &path)
{
    auto address = AddressParam(path[0], "address");
    auto at = co_await LedgerIndexParam(db, request);
    auto balance = co_await db.Run(client::queries::BalanceOf(address, at));
    nlohmann::json by_kind = nlohmann::json::object();
    for (const auto &[kind, amount] : balance.by_kind)
    {
        by_kind[kind] = std::to_string(amount);
    }
    SendJson(response, {{"address", address},
                        {"totalBalance", std::to_string(balance.total_balance)},
                        {"sigLockedBalance", std::to_string(balance.sig_locked_balance)},
                        {"balanceByKind", by_kind},
                        {"ledgerIndex", balance.ledger_index}});
}

Task<> HeldOutputs(const httplib::Request &request, httplib::Response &response, Db &db,
                   const PathParams &path)
{
    auto address = AddressParam(path[0], "address");
    auto at = co_await LedgerIndexParam(db, request);
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kOutputId);
    if (!at)
    {
        at = co_await db.Run(client::queries::LedgerIndex());
    }
    auto page = co_await db.Run(client::queries::OutputsAt(address, at, page_size, cursor));
    nlohmann::json items = nlohmann::json::array();
    for (const auto &o : page.items)
    {
        nlohmann::json item = {{"outputId", o.output_id},
                               {"kind", o.output_kind},
                               {"amount", std::to_string(o.amount)},
                               {"milestoneIndexBooked", o.milestone_index_booked}};
        if (o.milestone_index_spent)
        {
            item["milestoneIndexSpent"] = *o.milestone_index_spent;
        }
        items.push_back(std::move(item));
    }
    nlohmann::json body = {
        {"address", address}, {"ledgerIndex", *at}, {"pageSize", page_size}, {"items", items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    SendJson(response, body);
}

Task<> MilestoneAnalytics(const httplib::Request &, httplib::Response &response, Db &db,
                          const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    auto analytics = co_await db.Run(client::queries::AnalyticsAt(index));
    if (!analytics)
    {
        throw NotFound("analytics of milestone " + std::to_string(index));
    }
    SendJson(response, {{"milestoneIndex", analytics->milestone_index},
                        {"blockCount", analytics->block_count},
                        {"transactionCount", analytics->transaction_count},
                        {"transferredTokens", std::to_string(analytics->transferred_tokens)}});
}

Task<> DailyAnalytics(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &)
{
    auto from = QueryDate(request, "from");
    auto to = QueryDate(request, "to");
    if (!from || !to)
    {
        throw BadParameter(from ? "to" : "from", "required: a date YYYY-MM-DD");
    }
    nlohmann::json days = nlohmann::json::array();
    for (const auto &day : co_await db.Run(client::queries::DailyAnalyticsBetween(*from, *to)))
    {
        days.push_back({{"date", day.date},
                        {"totalAddresses", day.total_addresses},
                        {"sendAddresses", day.send_addresses},
                        {"receiveAddresses", day.recv_addresses}});
    }
    SendJson(response, {{"from", *from}, {"to", *to}, {"days", days}});
}

} // namespace

void RegisterExplorerRoutes(Router &router)
{
    router.Get({kExplorer + "/blocks/{blockId}/children", "explorer",
                "A block's children, newest first", kPagingParams},
               Children);
    router.Get({kExplorer + "/ledger/updates/by-address/{address}", "explorer",
                "Outputs an address received and spent, newest first", kPagingParams},
               UpdatesByAddress);
    router.Get({kExplorer + "/ledger/updates/by-milestone/{index}", "explorer",
                "Outputs a milestone created and spent", kPagingParams},
               UpdatesByMilestone);
    const QueryParam ledger_index = {
        "ledgerIndex", "integer",
        "a milestone held: answer as of its end (its era's outputs); default: the newest"};
    router.Get({kExplorer + "/balance/{address}",
                "explorer",
                "An address's balance over the unspent outputs it unlocks, in total and per "
                "output kind",
                {ledger_index}},
               Balance);
    router.Get({kExplorer + "/balance/{address}/outputs",
                "explorer",
                "The outputs an address holds, newest first",
                {ledger_index, kPagingParams[0], kPagingParams[1]}},
               HeldOutputs);
    router.Get({kAnalytics + "/milestones/{index}", "explorer",
                "Blocks, transactions and tokens moved in a milestone"},
               MilestoneAnalytics);
    router.Get(
        {kAnalytics + "/daily",
         "explorer",
         "Active addresses per day",
         {{"from", "string", "YYYY-MM-DD (required)"}, {"to", "string", "YYYY-MM-DD (required)"}}},
        DailyAnalytics);
}

} // namespace permanode::http
