// Errors as JSON bodies in Hornet's shape: {"error":{"code":"400","message":"..."}}.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace httplib
{
struct Response;
}

namespace permanode::http
{

// Thrown by handlers for a response other than 200.
class HttpError : public std::runtime_error
{
  public:
    HttpError(int status, const std::string &message) : std::runtime_error(message), status_(status)
    {
    }
    int status() const { return status_; }

  private:
    int status_;
};

// 400 for a bad parameter, naming it.
HttpError BadParameter(const std::string &name, const std::string &why);
// 404 naming what was not found.
HttpError NotFound(const std::string &what);

void WriteError(httplib::Response &response, int status, const std::string &message);

// What a handler's exception answers: an HttpError as it is; a database error (client::Error)
// with the status of its SQLSTATE, naming it; anything else 500.
HttpError ErrorOf(std::exception_ptr error);

// The HTTP status for a SQLSTATE: classes 22 and 23 → 400, 40 → 409, 08, 53 and 57 → 503,
// 42501 (a write through the read-only role) → 403, anything else → 500.
int StatusForSqlstate(const std::string &sqlstate);

} // namespace permanode::http
