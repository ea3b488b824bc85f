// Route registration, dispatch, and the per-request wrapper: errors, metrics.
#include "router.hpp"

#include <chrono>

#include <httplib.h>

#include "json_errors.hpp"

namespace permanode::http
{

void Router::Get(RouteInfo info, Handler handler)
{
    templates_.emplace_back(info.path);
    handlers_.push_back(std::move(handler));
    routes_.push_back(std::move(info));
}

Task<> Router::Serve(const httplib::Request &request, httplib::Response &response, Db &db,
                     PathParams &params)
{
    auto start = std::chrono::steady_clock::now();
    std::size_t index = templates_.size();
    if (request.method == "GET" || request.method == "HEAD")
    {
        for (index = 0; index < templates_.size(); index++)
        {
            if (templates_[index].Match(request.path, params))
            {
                break;
            }
        }
    }
    if (index == templates_.size())
    {
        WriteError(response, 404, "no route " + request.path);
        co_return;
    }
    try
    {
        co_await handlers_[index](request, response, db, params);
    }
    catch (const HttpError &e)
    {
        WriteError(response, e.status(), e.what());
    }
    catch (const client::Error &e)
    {
        int status = StatusForSqlstate(e.sqlstate());
        std::string message = status == 503 ? "database unavailable" : "database error";
        WriteError(response, status, message + " (SQLSTATE " + e.sqlstate() + "): " + e.what());
    }
    catch (const std::exception &e)
    {
        WriteError(response, 500, std::string("internal error: ") + e.what());
    }
    catch (...)
    {
        WriteError(response, 500, "internal error");
    }
    if (response.status == -1)
    {
        response.status = 200;
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    metrics_.Record(routes_[index].path, response.status, elapsed.count());
}

} // namespace permanode::http
