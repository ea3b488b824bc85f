// JSON error bodies and the SQLSTATE → HTTP status mapping.
#include "server/json_errors.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "permanode/client.hpp"
#include "server/json_text.hpp"

namespace permanode::http
{

HttpError BadParameter(const std::string &name, const std::string &why)
{
    return HttpError(400, "invalid parameter " + name + ": " + why);
}

HttpError NotFound(const std::string &what)
{
    return HttpError(404, what + " not found");
}

void WriteError(httplib::Response &response, int status, const std::string &message)
{
    nlohmann::json body = {{"error", {{"code", std::to_string(status)}, {"message", message}}}};
    response.status = status;
    response.set_content(JsonText(body), "application/json");
}

HttpError ErrorOf(std::exception_ptr error)
{
    try
    {
        std::rethrow_exception(error);
    }
    catch (const HttpError &e)
    {
        return e;
    }
    catch (const client::Error &e)
    {
        int status = StatusForSqlstate(e.sqlstate());
        std::string message = status == 503 ? "database unavailable" : "database error";
        return HttpError(status, message + " (SQLSTATE " + e.sqlstate() + "): " + e.what());
    }
    catch (const std::exception &e)
    {
        return HttpError(500, std::string("internal error: ") + e.what());
    }
    catch (...)
    {
        return HttpError(500, "internal error");
    }
}

int StatusForSqlstate(const std::string &sqlstate)
{
    std::string cls = sqlstate.substr(0, 2);
    if (cls == "22" || cls == "23")
    {
        return 400;
    }
    if (cls == "40")
    {
        return 409;
    }
    if (cls == "08" || cls == "53" || cls == "57")
    {
        return 503;
    }
    if (sqlstate == "42501")
    {
        return 403;
    }
    return 500;
}

} // namespace permanode::http
