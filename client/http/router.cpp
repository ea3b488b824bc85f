// Route registration, dispatch, and the per-request wrapper: lease, errors, metrics.
#include "router.hpp"

#include <chrono>

#include <httplib.h>

#include "json_errors.hpp"

namespace permanode::http
{

Router::Router(httplib::Server &server, Pool &pool, Metrics &metrics)
    : pool_(pool), metrics_(metrics)
{
    // GET routes are matched here instead of through httplib's regex per route. A request that
    // matches none (or another method) goes on to httplib's routing, which has no handlers and
    // answers 404 through the error handler, as before.
    server.set_pre_routing_handler(
        [this](const httplib::Request &request, httplib::Response &response)
        {
            if (request.method != "GET" && request.method != "HEAD")
            {
                return httplib::Server::HandlerResponse::Unhandled;
            }
            PathParams params;
            for (std::size_t i = 0; i < templates_.size(); i++)
            {
                if (templates_[i].Match(request.path, params))
                {
                    Serve(i, request, response, params);
                    return httplib::Server::HandlerResponse::Handled;
                }
            }
            return httplib::Server::HandlerResponse::Unhandled;
        });
}

void Router::Get(RouteInfo info, Handler handler)
{
    templates_.emplace_back(info.path);
    handlers_.push_back(std::move(handler));
    routes_.push_back(std::move(info));
}

void Router::Serve(std::size_t index, const httplib::Request &request, httplib::Response &response,
                   const PathParams &params)
{
    auto start = std::chrono::steady_clock::now();
    {
        Pool::Lease lease(pool_);
        try
        {
            handlers_[index](request, response, lease, params);
        }
        catch (const HttpError &e)
        {
            WriteError(response, e.status(), e.what());
        }
        catch (const client::Error &e)
        {
            int status = StatusForSqlstate(e.sqlstate());
            if (e.sqlstate().rfind("08", 0) == 0)
            {
                lease.Discard();
            }
            std::string message = status == 503 ? "database unavailable" : "database error";
            WriteError(response, status, message + " (SQLSTATE " + e.sqlstate() + "): " + e.what());
        }
        catch (const PoolTimeout &e)
        {
            WriteError(response, 503, e.what());
        }
    }
    if (response.status == -1)
    {
        response.status = 200;
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    metrics_.Record(routes_[index].path, response.status, elapsed.count());
}

} // namespace permanode::http
