// Explorer figures over the whole ledger, in inx-chronicle's shapes: the richest addresses and
// the token distribution, now or at the end of a past milestone (?ledgerIndex=N, its era's
// outputs).
#include <httplib.h>

#include "routes/render.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kLedger = "/api/explorer/v2/ledger";
constexpr int kDefaultTop = 100; // inx-chronicle's
constexpr int kMaxTop = 1000;

Task<> RichestAddresses(const httplib::Request &request, httplib::Response &response, Db &db,
                        const PathParams &)
{
    int top = QueryInt(request, "top", 1, kMaxTop).value_or(kDefaultTop);
    auto at = co_await LedgerIndexParam(db, request);
    auto richest = co_await db.Run(client::queries::RichestAddressesAt(at, top));
    nlohmann::json items = nlohmann::json::array();
    for (const auto &address : richest.top)
    {
        items.push_back(
            {{"address", address.address}, {"balance", std::to_string(address.balance)}});
    }
    SendJson(response, {{"top", items}, {"ledgerIndex", richest.ledger_index}});
}

Task<> TokenDistribution(const httplib::Request &request, httplib::Response &response, Db &db,
                         const PathParams &)
{
    auto at = co_await LedgerIndexParam(db, request);
    auto distribution = co_await db.Run(client::queries::TokenDistributionAt(at));
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto &bucket : distribution.buckets)
    {
        std::uint64_t start = 1;
        for (int i = 0; i < bucket.exponent; i++)
        {
            start *= 10;
        }
        buckets.push_back({{"range", {{"start", start}, {"end", start * 10}}},
                           {"addressCount", std::to_string(bucket.address_count)},
                           {"totalBalance", std::to_string(bucket.total_balance)}});
    }
    SendJson(response, {{"distribution", buckets}, {"ledgerIndex", distribution.ledger_index}});
}

} // namespace

void RegisterExplorerLedgerRoutes(Router &router)
{
    const QueryParam ledger_index = {
        "ledgerIndex", "integer",
        "a milestone held: answer as of its end (its era's outputs); default: the newest"};
    RouteInfo richest(kLedger + "/richest-addresses", "explorer",
                      "The addresses with the largest balances (over the unspent outputs whose "
                      "address they are), largest first",
                      {{"top", "integer", "how many: 1 to 1000, default 100"}, ledger_index});
    richest.response = "{\"top\": [{\"address\" (bech32), \"balance\" (a decimal string)}], "
                       "\"ledgerIndex\"}";
    router.Get(std::move(richest), RichestAddresses);
    RouteInfo distribution(kLedger + "/token-distribution", "explorer",
                           "How many addresses hold balances of each power of ten, and their sum",
                           {ledger_index});
    distribution.response =
        "{\"distribution\": [{\"range\": {\"start\": 10^k, \"end\": 10^(k+1)}, \"addressCount\", "
        "\"totalBalance\" (decimal strings)}], \"ledgerIndex\"}: balances in [start, end), by k; "
        "addresses of balance 0 are not counted";
    router.Get(std::move(distribution), TokenDistribution);
}

} // namespace permanode::http
