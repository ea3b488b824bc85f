// Route registration, dispatch, and the per-request wrapper: errors, metrics.
#include "server/router.hpp"

#include <chrono>

#include <httplib.h>

#include "server/auth.hpp"
#include "server/json_errors.hpp"

namespace permanode::http
{

namespace
{

// A handler that answers in one piece, as a StreamHandler.
StreamHandler Whole(Handler handler)
{
    return
        [handler = std::move(handler)](const httplib::Request &request, httplib::Response &response,
                                       Db &db, const PathParams &params, BodyStream &)
    { return handler(request, response, db, params); };
}

} // namespace

void Router::Get(RouteInfo info, Handler handler)
{
    Add(std::move(info), "get", Whole(std::move(handler)));
}

void Router::GetStreamed(RouteInfo info, StreamHandler handler)
{
    Add(std::move(info), "get", std::move(handler));
}

void Router::Post(RouteInfo info, Handler handler)
{
    Add(std::move(info), "post", Whole(std::move(handler)));
}

void Router::Add(RouteInfo info, const char *method, StreamHandler handler)
{
    info.method = method;
    templates_.emplace_back(info.path);
    handlers_.push_back(std::move(handler));
    routes_.push_back(std::move(info));
}

std::string Router::AllowedMethods(const std::string &path) const
{
    bool get = false, post = false;
    PathParams params;
    for (std::size_t i = 0; i < templates_.size(); i++)
    {
        if (templates_[i].Match(path, params))
        {
            (routes_[i].method == "post" ? post : get) = true;
        }
    }
    std::string allowed = get ? "GET, HEAD" : "";
    if (post)
    {
        allowed += allowed.empty() ? "POST" : ", POST";
    }
    return allowed;
}

Task<> Router::Serve(const httplib::Request &request, httplib::Response &response, DbNodes &nodes,
                     PathParams &params, BodyStream &stream)
{
    auto start = std::chrono::steady_clock::now();
    std::string method = request.method == "GET" || request.method == "HEAD" ? "get"
                         : request.method == "POST"                          ? "post"
                                                                             : "";
    std::size_t index = 0;
    for (; index < templates_.size(); index++)
    {
        if (routes_[index].method == method && templates_[index].Match(request.path, params))
        {
            break;
        }
    }
    if (index == templates_.size())
    {
        std::string allowed = AllowedMethods(request.path);
        if (allowed.empty())
        {
            WriteError(response, 404, "no route " + request.path);
            co_return;
        }
        response.set_header("Allow", allowed);
        WriteError(response, 405,
                   "method " + request.method + " is not allowed on " + request.path +
                       " (allowed: " + allowed + ")");
        co_return;
    }
    for (std::size_t attempt = 0;; attempt++)
    {
        DbNode &node = nodes.Pick(attempt);
        Db db(node);
        response = httplib::Response();
        try
        {
            if (!authorizer_ || routes_[index].open ||
                co_await authorizer_->Admit(request, response, db))
            {
                co_await handlers_[index](request, response, db, params, stream);
            }
        }
        catch (...)
        {
            HttpError error = ErrorOf(std::current_exception());
            WriteError(response, error.status(), error.what());
        }
        // A node that failed gave no answer (whatever the handler made of its error): another
        // node serves the request again, from the start.
        if (db.NodeFailed() && !stream.Started() && nodes.Failed(node))
        {
            continue;
        }
        node.requests++;
        response.set_header(kNodeHeader, node.Label());
        if (auto ledger_index = db.LedgerIndex())
        {
            response.set_header(kLedgerIndexHeader, std::to_string(*ledger_index));
        }
        break;
    }
    if (response.status == -1)
    {
        response.status = 200;
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    metrics_.Record(routes_[index].path, response.status, elapsed.count());
}

void RegisterAllRoutes(Router &router, Metrics &metrics, const HealthLimits &health,
                       std::function<ConnectionStats()> stats)
{
    RegisterCoreRoutes(router, health);
    RegisterIndexerRoutes(router);
    RegisterSeedRoutes(router);
    RegisterExplorerRoutes(router);
    RegisterExplorerMilestoneRoutes(router);
    RegisterExplorerLedgerRoutes(router);
    RegisterAnalyticsRoutes(router);
    RegisterMeasurementRoutes(router);
    RegisterChrysalisRoutes(router, health);
    RegisterLegacyRoutes(router);
    RegisterLegacyExplorerRoutes(router);
    RegisterHistoryRoutes(router);
    RegisterWebRoutes(router);
    RegisterOperationRoutes(router, metrics, health, std::move(stats));
}

} // namespace permanode::http
