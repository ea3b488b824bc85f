// Route registration: every route is a path template ("/api/core/v2/blocks/{blockId}") with its
// handler, a coroutine that awaits the database through Db; the router adds JSON errors and
// metrics, and keeps the list that the OpenAPI document is made from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "server/body_stream.hpp"
#include "server/db.hpp"
#include "server/db_nodes.hpp"
#include "server/metrics.hpp"
#include "server/path_template.hpp"
#include "permanode/client.hpp"
#include "permanode/queries.hpp"
#include "server/task.hpp"

namespace httplib
{
struct Request;
struct Response;
} // namespace httplib

namespace permanode::http
{

struct ServerOptions;
struct HealthLimits;
class Authorizer;

// A query parameter, or a field of a JSON request body.
struct QueryParam
{
    std::string name;
    std::string type; // OpenAPI schema type: string, integer, boolean; array (of strings)
    std::string description;
    std::vector<std::string> values = {}; // all it may be, when they are few (OpenAPI enum)
};

// The two query parameters of every keyset-paged route.
inline const std::vector<QueryParam> kPagingParams = {
    {"pageSize", "integer", "1 to 1000, default 100"},
    {"cursor", "string", "from the previous page"}};

struct RouteInfo
{
    RouteInfo(std::string path_template, std::string family_name, std::string summary_text,
              std::vector<QueryParam> query_params = {}, bool raw_bytes = false)
        : path(std::move(path_template)), family(std::move(family_name)),
          summary(std::move(summary_text)), query(std::move(query_params)), raw(raw_bytes)
    {
    }
    std::string path;   // template, e.g. /api/core/v2/blocks/{blockId}
    std::string family; // OpenAPI tag: core, indexer, seed, explorer, chrysalis, operations
    std::string summary;
    std::vector<QueryParam> query;
    bool raw = false;                            // answers application/vnd.iota.serializer-v1 too
    std::string media_type = "application/json"; // of a 200 answer
    std::string response = "OK";                 // what a 200 answer holds
    std::string method = "get";                  // get (and head), or post
    std::vector<QueryParam> body;                // a POST route's JSON body fields
    std::string error_schema = "Error";          // the OpenAPI schema of its error answers
    bool open = false; // served without authorisation (serve --auth ucan): holds no ledger data
};

// What a handler gets: the request, the response, the database and the values of the route's
// {name} segments. All four outlive the handler's task.
using Handler =
    std::function<Task<>(const httplib::Request &, httplib::Response &, Db &, const PathParams &)>;
// A handler that may send its body as it makes it (BodyStream), or answer as any other.
using StreamHandler = std::function<Task<>(const httplib::Request &, httplib::Response &, Db &,
                                           const PathParams &, BodyStream &)>;

class Router
{
  public:
    explicit Router(Metrics &metrics) : metrics_(metrics) {}
    // Registers GET `info.path` (each {name} matches one path segment). The first registered
    // route that matches a path serves it.
    void Get(RouteInfo info, Handler handler);
    // Registers GET `info.path` with a handler that may stream its body.
    void GetStreamed(RouteInfo info, StreamHandler handler);
    // Registers POST `info.path`.
    void Post(RouteInfo info, Handler handler);
    const std::vector<RouteInfo> &Routes() const { return routes_; }
    // Every request must then be admitted by `authorizer` (serve --auth ucan) before its route,
    // except those of an open route (RouteInfo::open).
    void SetAuthorizer(Authorizer *authorizer) { authorizer_ = authorizer; }

    // Serves a request: the first route that matches a GET or HEAD (a GET route) or a POST (a
    // POST route); a path that routes serve under other methods only is a 405 naming them (and
    // an Allow header), any other a 404. Errors become
    // JSON error responses; every request is counted in the metrics. `params` is filled with
    // the route's {name} values and must outlive the task. The route's handler reads from the
    // node `nodes` picks; when that node fails (a replica), it runs again on the next one. The
    // response says which node answered (X-Permanode-Node) and its ledger index
    // (X-Permanode-Ledger-Index). A streaming handler sends its body through `stream` (the
    // connection's); once it has started, the request is not served again on another node.
    Task<> Serve(const httplib::Request &request, httplib::Response &response, DbNodes &nodes,
                 PathParams &params, BodyStream &stream);

  private:
    void Add(RouteInfo info, const char *method, StreamHandler handler);
    // The methods the routes matching `path` serve ("GET, HEAD", "POST" or both), or "".
    std::string AllowedMethods(const std::string &path) const;

    Metrics &metrics_;
    Authorizer *authorizer_ = nullptr;
    std::vector<RouteInfo> routes_;
    std::vector<PathTemplate> templates_; // parallel to routes_
    std::vector<StreamHandler> handlers_; // parallel to routes_
};

// Route families, one file each.
// `health`: what /health and isHealthy ask of the syncs that follow nodes.
void RegisterCoreRoutes(Router &router, const HealthLimits &health);
void RegisterIndexerRoutes(Router &router);
void RegisterSeedRoutes(Router &router);
void RegisterExplorerRoutes(Router &router);
// The explorer's milestone lists: milestones by index or time, a milestone's blocks.
void RegisterExplorerMilestoneRoutes(Router &router);
// The explorer's whole-ledger figures: the richest addresses, the token distribution.
void RegisterExplorerLedgerRoutes(Router &router);
// The overview's analytics (per milestone, per day, tiers) and an address's balance over time.
void RegisterAnalyticsRoutes(Router &router);
// inx-chronicle's per-milestone measurements and the active addresses per period.
void RegisterMeasurementRoutes(Router &router);
// The explorer's pages at / and /web/ (files built into the binary).
void RegisterWebRoutes(Router &router);
// REST API v1 (Chrysalis) under /api/v1.
void RegisterChrysalisRoutes(Router &router, const HealthLimits &health);
// The legacy node API (IRI's, ternary era): POST / and POST /api with {"command": ...}.
void RegisterLegacyRoutes(Router &router);
// The explorer's legacy reads: a legacy transaction's fields (/api/explorer/v2/legacy/...).
void RegisterLegacyExplorerRoutes(Router &router);
void RegisterHistoryRoutes(Router &router);
// /metrics (with the database connections' figures from `stats`, and the figures of the syncs
// that follow nodes, judged by `health`) and /api/openapi.json.
// The headers every routed response carries, for the OpenAPI document.
constexpr const char *kNodeHeader = "X-Permanode-Node";
constexpr const char *kLedgerIndexHeader = "X-Permanode-Ledger-Index";
void RegisterOperationRoutes(Router &router, Metrics &metrics, const HealthLimits &health,
                             std::function<ConnectionStats()> stats);
// Every route family above, in the order they are served (the server's routes; the HTTP
// parameters' fuzz target is compiled with their list).
void RegisterAllRoutes(Router &router, Metrics &metrics, const HealthLimits &health,
                       std::function<ConnectionStats()> stats);

} // namespace permanode::http
