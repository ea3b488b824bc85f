// PgPipeline: the HTTP server's queries on a non-blocking pq::Pipeline, one sync point a query,
// so an error ends only the query that caused it.
#include "server/pg_pipeline.hpp"

#include <functional>
#include <vector>

#include "permanode/client.hpp"
#include "permanode/queries.hpp"

namespace permanode::http
{
namespace
{

// A connection with the library's session setup, and no query longer than the timeout.
std::unique_ptr<pq::Pipeline> SetUp(const std::string &dsn, int statement_timeout_ms)
{
    auto connection = std::make_unique<pq::Pipeline>(dsn);
    std::string timeout = std::to_string(statement_timeout_ms);
    try
    {
        connection->Run(client::queries::SessionSetupSql());
        connection->Run("SELECT set_config('statement_timeout', $1, false)",
                        pq::Params({timeout.c_str()}));
    }
    catch (const pq::ServerError &e)
    {
        throw client::Error("cannot set up the session: " + e.Describe(), "08006");
    }
    connection->SetNonBlocking();
    return connection;
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

void PgPipeline::Connect()
{
    try
    {
        connection_ = SetUp(dsn_, statement_timeout_ms_);
    }
    catch (const client::Error &)
    {
        connect_failures_++;
        throw;
    }
    generation_++;
    prepared_.clear();
}

// Runs a call of the connection; closes it (failing what is in flight) when the call finds it
// lost.
template <typename Call> bool PgPipeline::Try(Call call)
{
    if (connection_ == nullptr)
        return false;
    try
    {
        call();
        return true;
    }
    catch (const client::Error &e)
    {
        Close(e.what());
        return false;
    }
}

void PgPipeline::Send(const client::Statement &statement, const client::Params &params, Done done)
{
    // A connection found broken since is replaced, not sent to.
    Try([&] { connection_->CheckAlive(); });
    if (connection_ == nullptr)
        Connect();
    pq::Pipeline &connection = *connection_;
    pq::Params values(params.Pointers());
    // The statement's pipeline segments in order, each queued before anything is sent: a lost
    // connection fails them all.
    std::vector<std::function<void()>> sends;
    auto queue = [&](Pending pending, std::function<void()> send)
    {
        pending.sent = std::chrono::steady_clock::now();
        pending_.push_back(std::move(pending));
        sends.push_back(std::move(send));
    };
    // A statement in index order runs between its planner settings and the session's own,
    // each in its own pipeline segment, answered to no one.
    auto queue_settings = [&](const std::vector<std::string> &settings)
    {
        for (const auto &sql : settings)
            queue(Pending(), [&connection, &sql] { connection.Send(sql); });
    };
    if (statement.index_order)
        queue_settings(client::queries::IndexOrderOn());
    Pending query;
    query.done = std::move(done);
    if (statement.plan == client::Plan::kGeneric)
    {
        if (prepared_.insert(statement.name).second)
        {
            // Prepared in its own pipeline segment; should it fail, the statement's queries
            // fail with "prepared statement does not exist", and the next one prepares again.
            Pending preparation;
            preparation.preparing = statement.name;
            queue(std::move(preparation),
                  [&] { connection.SendPrepare(statement.name, statement.sql); });
        }
        queue(std::move(query), [&] { connection.SendPrepared(statement.name, values); });
    }
    else
    {
        // An unnamed statement: planned for the values at hand.
        queue(std::move(query), [&] { connection.Send(statement.sql, values); });
    }
    if (statement.index_order)
        queue_settings(client::queries::IndexOrderOff());
    Try(
        [&]
        {
            for (auto &send : sends)
                send();
        });
}

bool PgPipeline::Flush()
{
    bool pending = false;
    Try([&] { pending = connection_->Flush(); });
    return pending;
}

void PgPipeline::OnReadable()
{
    if (!Try([&] { connection_->Read(); }))
        return;
    // A completed query's handler may send again, or close the connection: look again each time.
    while (connection_ != nullptr && !pending_.empty())
    {
        std::optional<pq::Outcome> outcome;
        if (!Try([&] { outcome = connection_->TryReceive(); }) || !outcome)
            break;
        Pending done = std::move(pending_.front());
        pending_.pop_front();
        Complete(std::move(done), std::move(*outcome));
    }
}

void PgPipeline::Complete(Pending pending, pq::Outcome outcome)
{
    if (!pending.done)
    {
        // A preparation: its error shows in the query that follows; the next one retries. Or a
        // query already answered by ExpireWaiting.
        if (outcome.error && !pending.preparing.empty())
            prepared_.erase(pending.preparing);
        return;
    }
    if (outcome.error)
        pending.done(nullptr, std::make_exception_ptr(*outcome.error));
    else if (!outcome.result)
        pending.done(nullptr,
                     std::make_exception_ptr(client::Error("the query returned nothing", "")));
    else
        pending.done(std::move(outcome.result), nullptr);
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

void PgPipeline::Close(const std::string &reason)
{
    connection_.reset();
    prepared_.clear();
    // Callbacks may send again (and reconnect): take the queue first.
    std::deque<Pending> failed;
    failed.swap(pending_);
    for (auto &pending : failed)
    {
        // A preparation is answered to no one (the set of prepared names may be a new
        // connection's).
        if (pending.done)
            pending.done(nullptr, std::make_exception_ptr(client::Error(reason, "08006")));
    }
}

} // namespace permanode::http
