// Operations routes: Prometheus /metrics and the OpenAPI 3 document of every registered route.
#include <optional>
#include <regex>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "routes/render.hpp"
#include "server/router.hpp"
#include "server/sync_health.hpp"

#ifndef PERMANODE_VERSION_STRING
#define PERMANODE_VERSION_STRING "0.0.0"
#endif

namespace permanode::http
{
namespace
{

// The headers every routed response carries (components/headers).
nlohmann::json NodeHeaders()
{
    return {{kNodeHeader, {{"$ref", std::string("#/components/headers/") + kNodeHeader}}},
            {kLedgerIndexHeader,
             {{"$ref", std::string("#/components/headers/") + kLedgerIndexHeader}}}};
}

nlohmann::json ErrorResponse(const std::string &description, const std::string &schema)
{
    return {{"description", description},
            {"headers", NodeHeaders()},
            {"content",
             {{"application/json", {{"schema", {{"$ref", "#/components/schemas/" + schema}}}}}}}};
}

// The schema of a parameter or body field.
nlohmann::json SchemaOf(const QueryParam &param)
{
    if (param.type == "array")
    {
        return {{"type", "array"}, {"items", {{"type", "string"}}}};
    }
    nlohmann::json schema = {{"type", param.type}};
    if (!param.values.empty())
    {
        schema["enum"] = param.values;
    }
    return schema;
}

// A POST route's JSON body: an object with the route's fields.
nlohmann::json RequestBody(const std::vector<QueryParam> &fields)
{
    nlohmann::json properties = nlohmann::json::object();
    for (const auto &field : fields)
    {
        properties[field.name] = SchemaOf(field);
        properties[field.name]["description"] = field.description;
    }
    return {
        {"required", true},
        {"content",
         {{"application/json", {{"schema", {{"type", "object"}, {"properties", properties}}}}}}}};
}

// The OpenAPI 3.0 document of `routes`.
nlohmann::json OpenApi(const std::vector<RouteInfo> &routes)
{
    static const std::regex path_param(R"(\{([A-Za-z0-9_]+)\})");
    nlohmann::json paths = nlohmann::json::object();
    for (const auto &route : routes)
    {
        nlohmann::json parameters = nlohmann::json::array();
        for (std::sregex_iterator it(route.path.begin(), route.path.end(), path_param), end;
             it != end; ++it)
        {
            parameters.push_back({{"name", (*it)[1].str()},
                                  {"in", "path"},
                                  {"required", true},
                                  {"schema", {{"type", "string"}}}});
        }
        for (const auto &q : route.query)
        {
            nlohmann::json p = {{"name", q.name}, {"in", "query"}, {"schema", SchemaOf(q)}};
            if (!q.description.empty())
            {
                p["description"] = q.description;
            }
            parameters.push_back(p);
        }
        nlohmann::json content = {{route.media_type, nlohmann::json::object()}};
        if (route.raw)
        {
            content["application/vnd.iota.serializer-v1"] = nlohmann::json::object();
        }
        const std::string &errors = route.error_schema;
        nlohmann::json responses = {
            {"200",
             {{"description", route.response}, {"headers", NodeHeaders()}, {"content", content}}},
            {"400", ErrorResponse("A bad parameter, named", errors)},
            {"404", ErrorResponse("Not found", errors)},
            {"503", ErrorResponse("The database is unavailable", errors)}};
        nlohmann::json operation = {{"tags", {route.family}},
                                    {"summary", route.summary},
                                    {"parameters", parameters},
                                    {"responses", responses}};
        if (!route.body.empty())
        {
            operation["requestBody"] = RequestBody(route.body);
        }
        paths[route.path][route.method] = operation;
    }
    return {{"openapi", "3.0.3"},
            {"info",
             {{"title", "permanode HTTP API"},
              {"version", PERMANODE_VERSION_STRING},
              {"description", "IOTA core API v2 and indexer v1 shapes (Stardust), the REST API v1 "
                              "(Chrysalis, under /api/v1) and IRI's node API (the legacy ternary "
                              "era, POST /) over the permanode ledger archive, with seed 000's "
                              "routes and explorer extras."}}},
            {"paths", paths},
            {"components",
             {{"headers",
               {{kNodeHeader,
                 {{"description",
                   "The database node that answered: \"primary\", or \"replica HOST:PORT\" (a "
                   "streaming replica given with --replica; reads go to the replicas round robin, "
                   "to the primary when none answers)"},
                  {"schema", {{"type", "string"}}}}},
                {kLedgerIndexHeader,
                 {{"description",
                   "That node's newest synced milestone, read at most a second before the "
                   "request's first query (or by the request itself: then as its body says); "
                   "absent when not known yet"},
                  {"schema", {{"type", "integer"}}}}}}},
              {"schemas",
               {{"Error",
                 {{"type", "object"},
                  {"properties",
                   {{"error",
                     {{"type", "object"},
                      {"properties",
                       {{"code", {{"type", "string"}}}, {"message", {{"type", "string"}}}}}}}}}}},
                {"IriError",
                 {{"type", "object"},
                  {"properties",
                   {{"error", {{"type", "string"}}}, {"duration", {{"type", "integer"}}}}}}}}}}}};
}

} // namespace

void RegisterOperationRoutes(Router &router, Metrics &metrics, const HealthLimits &health,
                             std::function<ConnectionStats()> stats)
{
    router.Get({"/metrics", "operations", "Prometheus metrics"},
               [&metrics, stats, health](const httplib::Request &, httplib::Response &response,
                                         Db &db, const PathParams &) -> Task<>
               {
                   std::string text = metrics.Render(stats());
                   // the server's own figures are worth having while the database is away
                   std::optional<SyncHealth> syncs;
                   try
                   {
                       syncs = co_await ReadSyncHealth(db, health);
                   }
                   catch (const std::exception &)
                   {
                   }
                   if (syncs)
                       text += RenderSyncMetrics(syncs->syncs);
                   response.status = 200;
                   response.set_content(text, "text/plain; version=0.0.4");
               });
    router.Get({"/api/openapi.json", "operations", "This document"},
               [&router](const httplib::Request &, httplib::Response &response, Db &,
                         const PathParams &) -> Task<>
               {
                   SendJson(response, OpenApi(router.Routes()));
                   co_return;
               });
}

} // namespace permanode::http
