// PgPipeline: libpq's asynchronous API in pipeline mode, one sync point per query, so an error
// ends only the query that caused it.
#include "pg_pipeline.hpp"

#include <vector>

#include <libpq-fe.h>

#include "permanode/client.hpp"
#include "permanode/queries.hpp"

namespace permanode::http
{
namespace
{

// A libpq result read through client::Result.
class PgResult : public client::Result
{
  public:
    explicit PgResult(PGresult *result) : result_(result) {}
    ~PgResult() override { PQclear(result_); }
    int Rows() const override { return PQntuples(result_); }
    bool IsNull(int row, int column) const override
    {
        Check(row, column);
        return PQgetisnull(result_, row, column) != 0;
    }
    std::string_view Text(int row, int column) const override
    {
        Check(row, column);
        return std::string_view(PQgetvalue(result_, row, column),
                                static_cast<std::size_t>(PQgetlength(result_, row, column)));
    }

  private:
    void Check(int row, int column) const
    {
        if (row < 0 || row >= PQntuples(result_) || column < 0 || column >= PQnfields(result_))
        {
            throw client::Error("result has no row " + std::to_string(row + 1) + ", column " +
                                    std::to_string(column + 1),
                                "XX000");
        }
    }
    PGresult *result_;
};

std::string Trimmed(const char *message)
{
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    {
        text.pop_back();
    }
    return text;
}

std::exception_ptr ErrorOf(const PGresult *result)
{
    const char *sqlstate = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    // The primary message only: the full text's CONTEXT lines quote our SQL, which is no business
    // of an HTTP client.
    const char *primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    std::string message = primary ? primary : Trimmed(PQresultErrorMessage(result));
    return std::make_exception_ptr(
        client::Error(message.empty() ? "query failed" : message, sqlstate ? sqlstate : ""));
}

} // namespace

PgPipeline::PgPipeline(std::string dsn, int statement_timeout_ms)
    : dsn_(std::move(dsn)), statement_timeout_ms_(statement_timeout_ms)
{
}

PgPipeline::~PgPipeline()
{
    Close("the server is stopping");
}

int PgPipeline::Fd() const
{
    return connection_ ? PQsocket(connection_) : -1;
}

void PgPipeline::Connect()
{
    PGconn *connection = PQconnectdb(dsn_.c_str());
    auto fail = [&](const std::string &what)
    {
        std::string message = what + Trimmed(PQerrorMessage(connection));
        PQfinish(connection);
        connect_failures_++;
        throw client::Error(message, "08006");
    };
    if (PQstatus(connection) != CONNECTION_OK)
    {
        fail("");
    }
    // The library's session setup, and no query longer than the timeout.
    auto run = [connection](const char *sql, const char *value)
    {
        PGresult *result =
            PQexecParams(connection, sql, value ? 1 : 0, nullptr, &value, nullptr, nullptr, 0);
        bool ok = PQresultStatus(result) == PGRES_TUPLES_OK;
        PQclear(result);
        return ok;
    };
    std::string timeout = std::to_string(statement_timeout_ms_);
    if (!run(client::queries::SessionSetupSql(), nullptr) ||
        !run("SELECT set_config('statement_timeout', $1, false)", timeout.c_str()))
    {
        fail("cannot set up the session: ");
    }
    if (PQsetnonblocking(connection, 1) != 0 || PQenterPipelineMode(connection) != 1)
    {
        fail("cannot enter pipeline mode: ");
    }
    connection_ = connection;
    generation_++;
    prepared_.clear();
}

void PgPipeline::Send(const client::Statement &statement, const client::Params &params, Done done)
{
    if (connection_ != nullptr && PQstatus(connection_) == CONNECTION_BAD)
    {
        Lost("connection to the database lost");
    }
    if (connection_ == nullptr)
    {
        Connect();
    }
    const auto &values = params.Pointers();
    int count = static_cast<int>(values.size());
    bool sent = true;
    // A statement in index order runs between its planner settings and the session's own,
    // each in its own pipeline segment, answered to no one.
    auto send_settings = [&](const std::vector<std::string> &settings)
    {
        for (const auto &sql : settings)
        {
            sent = sent &&
                   PQsendQueryParams(connection_, sql.c_str(), 0, nullptr, nullptr, nullptr,
                                     nullptr, 0) == 1 &&
                   PQpipelineSync(connection_) == 1;
            Pending setting;
            setting.sent = std::chrono::steady_clock::now();
            pending_.push_back(std::move(setting));
        }
    };
    if (statement.index_order)
    {
        send_settings(client::queries::IndexOrderOn());
    }
    if (statement.plan == client::Plan::kGeneric)
    {
        if (prepared_.insert(statement.name).second)
        {
            // Prepared in its own pipeline segment; should it fail, the statement's queries
            // fail with "prepared statement does not exist", and the next one prepares again.
            sent = PQsendPrepare(connection_, statement.name.c_str(), statement.sql.c_str(), 0,
                                 nullptr) == 1 &&
                   PQpipelineSync(connection_) == 1;
            Pending preparation;
            preparation.preparing = statement.name;
            preparation.sent = std::chrono::steady_clock::now();
            pending_.push_back(std::move(preparation));
        }
        sent = sent && PQsendQueryPrepared(connection_, statement.name.c_str(), count,
                                           values.data(), nullptr, nullptr, 0) == 1;
    }
    else
    {
        // An unnamed statement: planned for the values at hand.
        sent = PQsendQueryParams(connection_, statement.sql.c_str(), count, nullptr, values.data(),
                                 nullptr, nullptr, 0) == 1;
    }
    sent = sent && PQpipelineSync(connection_) == 1;
    Pending query;
    query.done = std::move(done);
    query.sent = std::chrono::steady_clock::now();
    pending_.push_back(std::move(query));
    if (statement.index_order)
    {
        send_settings(client::queries::IndexOrderOff());
    }
    if (!sent)
    {
        Lost("cannot send a query");
    }
}

bool PgPipeline::Flush()
{
    if (connection_ == nullptr)
    {
        return false;
    }
    int flushed = PQflush(connection_);
    if (flushed < 0)
    {
        Lost("cannot send to the database");
        return false;
    }
    return flushed == 1;
}

void PgPipeline::OnReadable()
{
    if (connection_ == nullptr)
    {
        return;
    }
    if (PQconsumeInput(connection_) != 1)
    {
        Lost("connection to the database lost");
        return;
    }
    // Each query yields its result(s), then a null result, then its sync point's result.
    bool session_ended = false;
    while (connection_ != nullptr && !pending_.empty() && PQisBusy(connection_) == 0)
    {
        PGresult *result = PQgetResult(connection_);
        Pending &front = pending_.front();
        if (result == nullptr)
        {
            if (front.results_ended)
            {
                break; // nothing more has arrived
            }
            front.results_ended = true;
            continue;
        }
        switch (PQresultStatus(result))
        {
            case PGRES_PIPELINE_SYNC:
            {
                PQclear(result);
                Pending done = std::move(front);
                pending_.pop_front();
                Complete(std::move(done));
                break;
            }
            case PGRES_TUPLES_OK:
            case PGRES_COMMAND_OK:
                if (front.result != nullptr)
                {
                    PQclear(front.result);
                }
                front.result = result;
                break;
            default:
            {
                if (!front.error)
                {
                    front.error = ErrorOf(result);
                }
                // FATAL ends the session (the backend was terminated, the server shuts down):
                // the server closes the connection after this message.
                const char *severity = PQresultErrorField(result, PG_DIAG_SEVERITY_NONLOCALIZED);
                session_ended |= severity != nullptr && (std::string(severity) == "FATAL" ||
                                                         std::string(severity) == "PANIC");
                PQclear(result);
                break;
            }
        }
    }
    if (connection_ != nullptr && (session_ended || PQstatus(connection_) == CONNECTION_BAD))
    {
        Lost("connection to the database lost");
    }
}

void PgPipeline::Complete(Pending pending)
{
    std::unique_ptr<client::Result> result;
    if (pending.result != nullptr)
    {
        result = std::make_unique<PgResult>(pending.result);
    }
    if (!pending.done)
    {
        // A preparation: its error shows in the query that follows; the next one retries. Or a
        // query already answered by ExpireWaiting.
        if (pending.error && !pending.preparing.empty())
        {
            prepared_.erase(pending.preparing);
        }
        return;
    }
    if (!pending.error && !result)
    {
        pending.error = std::make_exception_ptr(client::Error("the query returned nothing", ""));
    }
    pending.done(pending.error ? nullptr : std::move(result), pending.error);
}

void PgPipeline::ExpireWaiting()
{
    if (statement_timeout_ms_ <= 0)
    {
        return;
    }
    auto limit = 2 * std::chrono::milliseconds(statement_timeout_ms_);
    auto now = std::chrono::steady_clock::now();
    // Taken out first: an answered handler may send again, onto this very queue.
    std::vector<Done> expired;
    for (Pending &pending : pending_)
    {
        if (pending.done && now - pending.sent > limit)
        {
            expired.push_back(std::move(pending.done));
            pending.done = nullptr;
        }
    }
    for (Done &done : expired)
    {
        done(nullptr, std::make_exception_ptr(client::Error(
                          "the query waited longer than twice the statement timeout (" +
                              std::to_string(statement_timeout_ms_) + " ms) for the database",
                          "57014")));
    }
}

void PgPipeline::Lost(const char *what)
{
    Close(std::string(what) + ": " + Trimmed(PQerrorMessage(connection_)));
}

void PgPipeline::Close(const std::string &reason)
{
    if (connection_ != nullptr)
    {
        PQfinish(connection_);
        connection_ = nullptr;
    }
    prepared_.clear();
    // Callbacks may send again (and reconnect): take the queue first.
    std::deque<Pending> failed;
    failed.swap(pending_);
    for (auto &pending : failed)
    {
        if (pending.result != nullptr)
        {
            PQclear(pending.result);
            pending.result = nullptr;
        }
        if (!pending.done)
        {
            continue; // a preparation (the set of prepared names may be a new connection's)
        }
        pending.error = std::make_exception_ptr(client::Error(reason, "08006"));
        Complete(std::move(pending));
    }
}

} // namespace permanode::http
