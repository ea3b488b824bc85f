// The error a statement ended with, as PostgreSQL reports it: its fields, never its text parsed.
//
// The form (what the CLI and the HTTP server read, and what users see):
//   sqlstate()  the SQLSTATE (class 08, "08006", for a connection that failed or was lost);
//   message()   the primary message, one line (what() too);
//   detail()    the DETAIL field, whole sentences, or "";
//   context()   the CONTEXT field, one line per level, or "";
//   Position(kind)  the item the error is about, where the server names one on a CONTEXT line
//               of its own, "<kind> <index>" (codec/error_position.hpp: kConeBlock, 0-based,
//               for ingest; kBatchTransaction, 1-based, for import-dmp).
// Describe() joins message and detail, "message: detail", for one-line reports.
#pragma once

#include "permanode/client.hpp"

#include <cstddef>
#include <optional>
#include <string>

struct pg_result;

namespace permanode::pq
{

class ServerError : public client::Error
{
  public:
    struct Fields
    {
        std::string sqlstate;
        std::string message;
        std::string detail;
        std::string context;
    };

    explicit ServerError(Fields fields);
    // The fields of a failed statement's result.
    static ServerError Of(const pg_result *result);
    // A connection that could not be made or was lost (SQLSTATE 08006): what, then libpq's reason.
    static ServerError ConnectionFailure(const std::string &what, const std::string &reason);

    const std::string &message() const { return fields_.message; }
    const std::string &detail() const { return fields_.detail; }
    const std::string &context() const { return fields_.context; }
    std::optional<std::size_t> Position(const char *kind) const;
    std::string Describe() const;

  private:
    Fields fields_;
};

} // namespace permanode::pq
