// The queries of many requests in flight at once on one pipelined database connection
// (pq/pipeline.hpp, non-blocking), each handed its result, in the order they were sent. Connects
// on demand, prepares named statements once a connection, and answers every query in flight
// with SQLSTATE 08006 when the connection is lost. The event loop that owns it watches Fd() and
// calls OnReadable/Flush; nothing here blocks except connecting.
#pragma once

#include <chrono>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>

#include "permanode/query.hpp"
#include "pq/pipeline.hpp"

namespace permanode::http
{

class PgPipeline
{
  public:
    // The result of a query, or the error it ended with (a pq::ServerError, or a client::Error
    // with SQLSTATE 08006 or 57014).
    using Done = std::function<void(std::unique_ptr<client::Result>, std::exception_ptr)>;

    // statement_timeout_ms: PostgreSQL cancels a query that runs longer (SQLSTATE 57014); 0
    // means no limit.
    explicit PgPipeline(std::string dsn, int statement_timeout_ms = 0);
    ~PgPipeline();
    PgPipeline(const PgPipeline &) = delete;
    PgPipeline &operator=(const PgPipeline &) = delete;

    // Queues a statement; `done` runs from OnReadable (or from Close). Connects first when not
    // connected; throws client::Error ("08006") when the database cannot be reached.
    void Send(const client::Statement &statement, const client::Params &params, Done done);
    // Reads what has arrived and completes the queries whose results are in.
    void OnReadable();
    // Sends what is buffered; true when output is still pending (wait for writability).
    bool Flush();
    // Fails every query in flight with SQLSTATE 08006 and drops the connection.
    void Close(const std::string &reason);
    // Answers the queries sent longer than twice the statement timeout ago with SQLSTATE 57014;
    // their results are dropped when they come. The timeout cancels a query that runs too long,
    // not one that waits too long behind others (sent at once, the pipeline runs them in turn).
    // Twice: a query queued behind one that runs until it is canceled is still answered, right
    // after the cancel.
    void ExpireWaiting();

    int Fd() const { return connection_ ? connection_->Socket() : -1; }
    // Changes with every new connection (its socket may reuse a closed one's number).
    unsigned Generation() const { return generation_; }
    bool Connected() const { return connection_ != nullptr; }
    std::size_t InFlight() const { return pending_.size(); }
    // How long the oldest query in flight has waited (zero when none is).
    std::chrono::steady_clock::duration OldestWait() const
    {
        return pending_.empty() ? std::chrono::steady_clock::duration::zero()
                                : std::chrono::steady_clock::now() - pending_.front().sent;
    }
    long long ConnectFailures() const { return connect_failures_; }

  private:
    // A statement in flight, in the order sent (one an outcome of connection_).
    struct Pending
    {
        Done done;             // empty for a statement's preparation, or once expired
        std::string preparing; // the statement prepared, if this is a preparation
        std::chrono::steady_clock::time_point sent;
    };
    void Connect();
    template <typename Call> bool Try(Call call);
    void Complete(Pending pending, pq::Outcome outcome);

    std::string dsn_;
    int statement_timeout_ms_;
    std::unique_ptr<pq::Pipeline> connection_;
    std::unordered_set<std::string> prepared_; // named statements prepared on connection_
    std::deque<Pending> pending_;
    long long connect_failures_ = 0;
    unsigned generation_ = 0;
};

} // namespace permanode::http
