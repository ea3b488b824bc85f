// Route registration: every route is a path template ("/api/core/v2/blocks/{blockId}") with its
// handler; the router adds the pool lease, JSON errors and metrics, and keeps the list that the
// OpenAPI document is made from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "metrics.hpp"
#include "path_template.hpp"
#include "pool.hpp"

namespace httplib
{
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace permanode::http
{

struct ServerOptions;

struct QueryParam
{
    std::string name;
    std::string type; // OpenAPI schema type: string, integer, boolean
    std::string description;
};

struct RouteInfo
{
    RouteInfo(std::string path_template, std::string family_name, std::string summary_text,
              std::vector<QueryParam> query_params = {}, bool raw_bytes = false)
        : path(std::move(path_template)), family(std::move(family_name)),
          summary(std::move(summary_text)), query(std::move(query_params)), raw(raw_bytes)
    {
    }
    std::string path;   // template, e.g. /api/core/v2/blocks/{blockId}
    std::string family; // OpenAPI tag: core, indexer, seed, explorer, operations
    std::string summary;
    std::vector<QueryParam> query;
    bool raw = false; // answers application/vnd.iota.serializer-v1 too
};

// What a handler gets: the request, the response, a lazily leased database client and the values
// of the route's {name} segments.
using Handler = std::function<void(const httplib::Request &, httplib::Response &, Pool::Lease &,
                                   const PathParams &)>;

class Router
{
  public:
    // Dispatches the server's GET and HEAD requests (through its pre-routing handler).
    Router(httplib::Server &server, Pool &pool, Metrics &metrics);
    // Registers GET `info.path` (each {name} matches one path segment). The first registered
    // route that matches a path serves it.
    void Get(RouteInfo info, Handler handler);
    const std::vector<RouteInfo> &Routes() const { return routes_; }

  private:
    // Serves a request that matched routes_[index]: lease, errors, metrics.
    void Serve(std::size_t index, const httplib::Request &request, httplib::Response &response,
               const PathParams &params);

    Pool &pool_;
    Metrics &metrics_;
    std::vector<RouteInfo> routes_;
    std::vector<PathTemplate> templates_; // parallel to routes_
    std::vector<Handler> handlers_;       // parallel to routes_
};

// Route families, one file each.
void RegisterCoreRoutes(Router &router);
void RegisterIndexerRoutes(Router &router);
void RegisterSeedRoutes(Router &router);
void RegisterExplorerRoutes(Router &router);
// /metrics and /api/openapi.json.
void RegisterOperationRoutes(Router &router, Metrics &metrics, Pool &pool);

} // namespace permanode::http
