// Operations routes: Prometheus /metrics and the OpenAPI 3 document of every registered route.
#include <regex>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "render.hpp"
#include "router.hpp"

#ifndef PERMANODE_VERSION_STRING
#define PERMANODE_VERSION_STRING "0.0.0"
#endif

namespace permanode::http
{
namespace
{

nlohmann::json ErrorResponse(const std::string &description)
{
    return {{"description", description},
            {"content",
             {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Error"}}}}}}}};
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
            nlohmann::json p = {{"name", q.name}, {"in", "query"}, {"schema", {{"type", q.type}}}};
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
        nlohmann::json responses = {{"200", {{"description", "OK"}, {"content", content}}},
                                    {"400", ErrorResponse("A bad parameter, named")},
                                    {"404", ErrorResponse("Not found")},
                                    {"503", ErrorResponse("The database is unavailable")}};
        paths[route.path]["get"] = {{"tags", {route.family}},
                                    {"summary", route.summary},
                                    {"parameters", parameters},
                                    {"responses", responses}};
    }
    return {
        {"openapi", "3.0.3"},
        {"info",
         {{"title", "permanode HTTP API"},
          {"version", PERMANODE_VERSION_STRING},
          {"description", "IOTA core API v2 and indexer v1 shapes (Stardust) and the REST API v1 "
                          "(Chrysalis, under /api/v1) over the permanode ledger archive, with "
                          "seed 000's routes and explorer extras."}}},
        {"paths", paths},
        {"components",
         {{"schemas",
           {{"Error",
             {{"type", "object"},
              {"properties",
               {{"error",
                 {{"type", "object"},
                  {"properties",
                   {{"code", {{"type", "string"}}}, {"message", {{"type", "string"}}}}}}}}}}}}}}}};
}

} // namespace

void RegisterOperationRoutes(Router &router, Metrics &metrics,
                             std::function<ConnectionStats()> stats)
{
    router.Get({"/metrics", "operations", "Prometheus metrics"},
               [&metrics, stats](const httplib::Request &, httplib::Response &response, Db &,
                                 const PathParams &) -> Task<>
               {
                   response.status = 200;
                   response.set_content(metrics.Render(stats()), "text/plain; version=0.0.4");
                   co_return;
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
