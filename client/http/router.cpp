// Route registration and the per-request wrapper: lease, errors, metrics.
#include "router.hpp"

#include <chrono>
#include <regex>

#include <httplib.h>

#include "json_errors.hpp"

namespace permanode::http
{
namespace
{

// "/a/{x}/b" -> "/a/([^/]+)/b"; literal characters are escaped.
std::string PatternOf(const std::string &path)
{
    static const std::regex param(R"(\{[A-Za-z0-9_]+\})");
    std::string out;
    std::size_t last = 0;
    for (std::sregex_iterator it(path.begin(), path.end(), param), end; it != end; ++it)
    {
        out += std::regex_replace(path.substr(last, it->position() - last),
                                  std::regex(R"([.^$|()\[\]*+?\\])"), R"(\$&)");
        out += "([^/]+)";
        last = it->position() + it->length();
    }
    out += std::regex_replace(path.substr(last), std::regex(R"([.^$|()\[\]*+?\\])"), R"(\$&)");
    return out;
}

} // namespace

void Router::Get(RouteInfo info, Handler handler)
{
    std::string route = info.path;
    server_.Get(PatternOf(info.path),
                [this, route, handler](const httplib::Request &request, httplib::Response &response)
                {
                    auto start = std::chrono::steady_clock::now();
                    {
                        Pool::Lease lease(pool_);
                        try
                        {
                            handler(request, response, lease);
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
                            std::string message =
                                status == 503 ? "database unavailable" : "database error";
                            WriteError(response, status,
                                       message + " (SQLSTATE " + e.sqlstate() + "): " + e.what());
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
                    std::chrono::duration<double> elapsed =
                        std::chrono::steady_clock::now() - start;
                    metrics_.Record(route, response.status, elapsed.count());
                });
    routes_.push_back(std::move(info));
}

} // namespace permanode::http
