// Pipeline: libpq's pipeline mode, one sync point a statement.
#include "pq/pipeline.hpp"

#include <libpq-fe.h>

#include <stdexcept>
#include <type_traits>

namespace permanode::pq
{

static_assert(std::is_same_v<Oid, std::uint32_t>, "a type OID is a 32-bit unsigned integer");

Params::Params(const std::vector<const char *> &text)
    : values_(text), lengths_(text.size(), 0), formats_(text.size(), 0)
{
}

void Params::Add(const std::string &value, Format format)
{
    values_.push_back(value.c_str());
    lengths_.push_back(static_cast<int>(value.size()));
    formats_.push_back(static_cast<int>(format));
}

void Params::AddNull()
{
    values_.push_back(nullptr);
    lengths_.push_back(0);
    formats_.push_back(0);
}

Pipeline::Pipeline(const std::string &dsn) : connection_(PQconnectdb(dsn.c_str()))
{
    const char *failed = nullptr;
    if (PQstatus(connection_) != CONNECTION_OK)
        failed = "cannot connect";
    else if (PQenterPipelineMode(connection_) != 1)
        failed = "cannot enter pipeline mode";
    if (failed != nullptr)
    {
        std::string reason = PQerrorMessage(connection_);
        PQfinish(connection_);
        throw ServerError::ConnectionFailure(failed, reason);
    }
}

Pipeline::~Pipeline()
{
    PQfinish(connection_);
}

void Pipeline::SetNonBlocking()
{
    if (PQsetnonblocking(connection_, 1) != 0)
        ThrowLost("cannot enter non-blocking mode");
}

int Pipeline::Socket() const
{
    return PQsocket(connection_);
}

void Pipeline::Send(const std::string &sql, const Params &params, Format results)
{
    Sent(PQsendQueryParams(connection_, sql.c_str(), params.Count(), nullptr, params.Values(),
                           params.Lengths(), params.Formats(), static_cast<int>(results)));
}

void Pipeline::SendPrepare(const std::string &name, const std::string &sql,
                           const std::vector<std::uint32_t> &types)
{
    Sent(PQsendPrepare(connection_, name.c_str(), sql.c_str(), static_cast<int>(types.size()),
                       types.empty() ? nullptr : types.data()));
}

void Pipeline::SendPrepared(const std::string &name, const Params &params, Format results)
{
    Sent(PQsendQueryPrepared(connection_, name.c_str(), params.Count(), params.Values(),
                             params.Lengths(), params.Formats(), static_cast<int>(results)));
}

// `queued`: what libpq's send call returned; the statement's sync point follows it.
void Pipeline::Sent(int queued)
{
    if (queued != 1 || PQpipelineSync(connection_) != 1)
        ThrowLost("cannot send a statement");
    in_flight_++;
}

bool Pipeline::Flush()
{
    int flushed = PQflush(connection_);
    if (flushed < 0)
        ThrowLost("cannot send a statement");
    return flushed == 1;
}

void Pipeline::Read()
{
    if (PQconsumeInput(connection_) != 1)
        ThrowLost("lost the connection to the server");
    CheckAlive();
}

void Pipeline::CheckAlive() const
{
    if (PQstatus(connection_) == CONNECTION_BAD)
        ThrowLost("lost the connection to the server");
}

bool Pipeline::ResultReady()
{
    return PQconsumeInput(connection_) == 0 || PQisBusy(connection_) == 0;
}

Outcome Pipeline::Receive()
{
    if (in_flight_ == 0)
        throw std::logic_error("Pipeline::Receive with no statement in flight");
    return std::move(*Next(true));
}

std::optional<Outcome> Pipeline::TryReceive()
{
    return Next(false);
}

// A statement yields its result(s), then a null result, then its sync point's result. Two null
// results in a row: nothing more has arrived.
std::optional<Outcome> Pipeline::Next(bool wait)
{
    while (in_flight_ > 0)
    {
        if (!wait && PQisBusy(connection_) != 0)
            return std::nullopt;
        PGresult *result = PQgetResult(connection_);
        if (result == nullptr)
        {
            CheckAlive();
            if (results_ended_ && !wait)
                return std::nullopt;
            results_ended_ = true;
            continue;
        }
        if (Take(result))
        {
            Outcome done = std::move(reading_);
            reading_ = Outcome();
            results_ended_ = false;
            in_flight_--;
            return done;
        }
    }
    return std::nullopt;
}

bool Pipeline::Take(PGresult *result)
{
    switch (PQresultStatus(result))
    {
        case PGRES_PIPELINE_SYNC:
            PQclear(result);
            return true;
        case PGRES_TUPLES_OK:
        case PGRES_COMMAND_OK:
            reading_.result = std::make_unique<Result>(result);
            return false;
        default:
        {
            ServerError error = ServerError::Of(result);
            const char *severity = PQresultErrorField(result, PG_DIAG_SEVERITY_NONLOCALIZED);
            bool session_ended = severity != nullptr && (std::string(severity) == "FATAL" ||
                                                         std::string(severity) == "PANIC");
            PQclear(result);
            // FATAL ends the session (the backend was terminated, the server shuts down): the
            // server closes the connection after this message.
            if (session_ended)
                ThrowLost("lost the connection to the server");
            if (!reading_.error)
                reading_.error = std::move(error);
            return false;
        }
    }
}

void Pipeline::ThrowLost(const std::string &what) const
{
    throw ServerError::ConnectionFailure(what, PQerrorMessage(connection_));
}

std::unique_ptr<Result> Pipeline::Run(const std::string &sql, const Params &params)
{
    RequireIdle();
    Send(sql, params);
    return Await();
}

void Pipeline::Prepare(const std::string &name, const std::string &sql,
                       const std::vector<std::uint32_t> &types)
{
    RequireIdle();
    SendPrepare(name, sql, types);
    Await();
}

// Run and Prepare read the outcome of their own statement only.
void Pipeline::RequireIdle() const
{
    if (in_flight_ != 0)
        throw std::logic_error("a setup statement sent with statements in flight");
}

std::unique_ptr<Result> Pipeline::Await()
{
    Outcome outcome = Receive();
    if (outcome.error)
        throw *outcome.error;
    return std::move(outcome.result);
}

} // namespace permanode::pq
