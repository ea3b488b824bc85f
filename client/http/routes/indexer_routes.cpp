// IOTA indexer v1 routes: outputs by kind with the indexer's filters, and chain lookups.
// includeSpent=true (our extension) searches every output ever created instead of the unspent
// set.
#include <httplib.h>

#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "routes/render.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kIndexer = "/api/indexer/v1";
using client::OutputKind;

// The filters of a request; each is checked against the kind by the client library.
client::OutputFilter FilterOf(const httplib::Request &request)
{
    client::OutputFilter f;
    f.address = QueryAddress(request, "address");
    f.has_native_tokens = QueryBool(request, "hasNativeTokens");
    f.min_native_token_count = QueryCount(request, "minNativeTokenCount");
    f.max_native_token_count = QueryCount(request, "maxNativeTokenCount");
    f.has_storage_deposit_return = QueryBool(request, "hasStorageDepositReturn");
    f.storage_deposit_return_address = QueryAddress(request, "storageDepositReturnAddress");
    f.has_expiration = QueryBool(request, "hasExpiration");
    f.expires_before = QueryTime(request, "expiresBefore");
    f.expires_after = QueryTime(request, "expiresAfter");
    f.expiration_return_address = QueryAddress(request, "expirationReturnAddress");
    f.has_timelock = QueryBool(request, "hasTimelock");
    f.timelocked_before = QueryTime(request, "timelockedBefore");
    f.timelocked_after = QueryTime(request, "timelockedAfter");
    f.sender = QueryAddress(request, "sender");
    f.tag = QueryHex(request, "tag", 64);
    f.issuer = QueryAddress(request, "issuer");
    f.state_controller = QueryAddress(request, "stateController");
    f.governor = QueryAddress(request, "governor");
    f.alias_address = QueryAddress(request, "aliasAddress");
    f.created_before = QueryTime(request, "createdBefore");
    f.created_after = QueryTime(request, "createdAfter");
    f.unlockable_by_address = QueryAddress(request, "unlockableByAddress");
    return f;
}

Task<> Outputs(OutputKind kind, const httplib::Request &request, httplib::Response &response,
               Db &db)
{
    auto filter = FilterOf(request);
    if (const char *name = client::UnsupportedFilter(kind, filter))
    {
        throw BadParameter(name,
                           std::string("not a filter of ") + client::ToString(kind) + " outputs");
    }
    bool include_spent = QueryBool(request, "includeSpent").value_or(false);
    filter.as_of = co_await LedgerIndexParam(db, request);
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kOutputId);
    auto page = co_await QueryOutputs(db, kind, filter, include_spent, page_size, cursor);
    SendJson(response, OutputIdPageJson(page, page_size));
}

Task<> ChainOutput(OutputKind kind, const httplib::Request &request, const PathParams &path,
                   httplib::Response &response, Db &db)
{
    std::string name = kind == OutputKind::kAlias ? "aliasId"
                       : kind == OutputKind::kNft ? "nftId"
                                                  : "foundryId";
    auto id = HexIdParam(path[0], name, kind == OutputKind::kFoundry ? 38 : 32);
    auto at = co_await LedgerIndexParam(db, request);
    auto output_id = co_await db.Run(client::queries::ChainOutput(kind, id, at));
    if (!output_id)
    {
        throw NotFound(std::string("unspent ") + client::ToString(kind) + " output of " + id +
                       (at ? " at the end of milestone " + std::to_string(*at) : ""));
    }
    client::OutputIdPage page;
    if (at)
    {
        page.ledger_index = *at;
    }
    else
    {
        page.ledger_index = co_await db.Run(client::queries::LedgerIndex());
    }
    page.items.push_back(*output_id);
    SendJson(response, OutputIdPageJson(page, 1));
}

std::vector<QueryParam> FiltersOf(OutputKind kind)
{
    std::vector<QueryParam> params;
    // Every filter name, with its type; kept only when the kind supports it.
    const std::vector<std::pair<QueryParam, std::function<void(client::OutputFilter &)>>> all = {
        {{"address", "string", "bech32 address unlock condition"}, [](auto &f) { f.address = ""; }},
        {{"hasNativeTokens", "boolean", ""}, [](auto &f) { f.has_native_tokens = true; }},
        {{"minNativeTokenCount", "integer", ""}, [](auto &f) { f.min_native_token_count = 0; }},
        {{"maxNativeTokenCount", "integer", ""}, [](auto &f) { f.max_native_token_count = 0; }},
        {{"hasStorageDepositReturn", "boolean", ""},
         [](auto &f) { f.has_storage_deposit_return = true; }},
        {{"storageDepositReturnAddress", "string", "bech32"},
         [](auto &f) { f.storage_deposit_return_address = ""; }},
        {{"hasExpiration", "boolean", ""}, [](auto &f) { f.has_expiration = true; }},
        {{"expiresBefore", "integer", "Unix seconds"}, [](auto &f) { f.expires_before = 0; }},
        {{"expiresAfter", "integer", "Unix seconds"}, [](auto &f) { f.expires_after = 0; }},
        {{"expirationReturnAddress", "string", "bech32"},
         [](auto &f) { f.expiration_return_address = ""; }},
        {{"hasTimelock", "boolean", ""}, [](auto &f) { f.has_timelock = true; }},
        {{"timelockedBefore", "integer", "Unix seconds"}, [](auto &f) { f.timelocked_before = 0; }},
        {{"timelockedAfter", "integer", "Unix seconds"}, [](auto &f) { f.timelocked_after = 0; }},
        {{"sender", "string", "bech32"}, [](auto &f) { f.sender = ""; }},
        {{"tag", "string", "0x-hex"}, [](auto &f) { f.tag = ""; }},
        {{"issuer", "string", "bech32"}, [](auto &f) { f.issuer = ""; }},
        {{"stateController", "string", "bech32"}, [](auto &f) { f.state_controller = ""; }},
        {{"governor", "string", "bech32"}, [](auto &f) { f.governor = ""; }},
        {{"aliasAddress", "string", "bech32"}, [](auto &f) { f.alias_address = ""; }},
        {{"createdBefore", "integer", "Unix seconds"}, [](auto &f) { f.created_before = 0; }},
        {{"createdAfter", "integer", "Unix seconds"}, [](auto &f) { f.created_after = 0; }},
        {{"unlockableByAddress", "string",
          "bech32: outputs this address can unlock at the timestamp of the milestone answered "
          "for (ledgerIndex): its address, state controller or governor, or the return address of "
          "an expiration reached by then (TIP-18: the address unlocks before the expiration, "
          "the return address at or after it)"},
         [](auto &f) { f.unlockable_by_address = ""; }},
    };
    for (const auto &[param, set] : all)
    {
        client::OutputFilter one;
        set(one);
        if (client::UnsupportedFilter(kind, one) == nullptr)
        {
            params.push_back(param);
        }
    }
    params.push_back({"includeSpent", "boolean", "search all outputs, not only unspent ones"});
    params.push_back({"ledgerIndex", "integer",
                      "a milestone held: the outputs unspent at its end (with includeSpent: "
                      "created by then); default: the newest"});
    params.push_back({"pageSize", "integer", "1 to 1000, default 100"});
    params.push_back({"cursor", "string", "from the previous page"});
    return params;
}

} // namespace

void RegisterIndexerRoutes(Router &router)
{
    for (OutputKind kind :
         {OutputKind::kBasic, OutputKind::kAlias, OutputKind::kFoundry, OutputKind::kNft})
    {
        std::string name = client::ToString(kind);
        router.Get({kIndexer + "/outputs/" + name, "indexer",
                    "IDs of " + name + " outputs matching the filters, newest first",
                    FiltersOf(kind)},
                   [kind](const httplib::Request &request, httplib::Response &response, Db &db,
                          const PathParams &) { return Outputs(kind, request, response, db); });
        if (kind == OutputKind::kBasic)
        {
            continue;
        }
        std::string param = kind == OutputKind::kAlias ? "aliasId"
                            : kind == OutputKind::kNft ? "nftId"
                                                       : "foundryId";
        router.Get({kIndexer + "/outputs/" + name + "/{" + param + "}",
                    "indexer",
                    "The unspent output of an " + name,
                    {{"ledgerIndex", "integer",
                      "a milestone held: the output unspent at its end; default: the newest"}}},
                   [kind](const httplib::Request &request, httplib::Response &response, Db &db,
                          const PathParams &path)
                   { return ChainOutput(kind, request, path, response, db); });
    }
}

} // namespace permanode::http
