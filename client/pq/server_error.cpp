// ServerError: a failed statement's error fields, read from libpq's result.
#include "pq/server_error.hpp"

#include "codec/error_position.hpp"

#include <libpq-fe.h>

namespace permanode::pq
{
namespace
{

std::string Field(const PGresult *result, int field)
{
    const char *value = PQresultErrorField(result, field);
    return value ? value : "";
}

std::string Trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

} // namespace

ServerError::ServerError(Fields fields)
    : client::Error(fields.message, fields.sqlstate), fields_(std::move(fields))
{
}

ServerError ServerError::Of(const PGresult *result)
{
    Fields fields;
    fields.sqlstate = Field(result, PG_DIAG_SQLSTATE);
    fields.message = Field(result, PG_DIAG_MESSAGE_PRIMARY);
    fields.detail = Field(result, PG_DIAG_MESSAGE_DETAIL);
    fields.context = Field(result, PG_DIAG_CONTEXT);
    // An error libpq made itself (no fields): its text is all there is.
    if (fields.message.empty())
        fields.message = Trimmed(PQresultErrorMessage(result));
    if (fields.message.empty())
        fields.message = "query failed";
    return ServerError(std::move(fields));
}

ServerError ServerError::ConnectionFailure(const std::string &what, const std::string &reason)
{
    Fields fields;
    fields.sqlstate = "08006";
    fields.message = what + ": " + Trimmed(reason);
    return ServerError(std::move(fields));
}

std::optional<std::size_t> ServerError::Position(const char *kind) const
{
    return codec::PositionOf(fields_.context, kind);
}

std::string ServerError::Describe() const
{
    return fields_.detail.empty() ? fields_.message : fields_.message + ": " + fields_.detail;
}

} // namespace permanode::pq
