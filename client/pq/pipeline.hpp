// One PostgreSQL connection in libpq's pipeline mode: the one place that drives libpq for the
// CLI's ingest, sync and import-dmp and for the HTTP server.
//
// Every statement goes out with a sync point of its own, so each runs in its own implicit
// transaction: it commits, or fails and rolls back alone, while the statements sent after it are
// already on their way and run as if it had not been sent. Results come back in the order the
// statements were sent, one Outcome a statement.
//
// Blocking use (the CLI): Send..., then Receive waits for the oldest statement's outcome;
// ResultReady and Socket let a caller poll several connections. Non-blocking use (the HTTP
// server's event loop): after SetNonBlocking, sending only buffers what the socket cannot take
// (call Flush while the socket is writable, until it returns false); when the socket is
// readable, Read, then TryReceive until it returns nothing.
//
// Errors: a statement's error is its Outcome's ServerError (server_error.hpp). A connection that
// cannot be made, breaks, or that the server ends (a FATAL error) is thrown as a ServerError with
// SQLSTATE 08006; the statements in flight then have no outcome, and the Pipeline is done.
#pragma once

#include "pq/result.hpp"
#include "pq/server_error.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace permanode::pq
{

enum class Format
{
    kText = 0,
    kBinary = 1,
};

// A statement's parameters, $1 first. The values are not copied: they must outlive the Send.
class Params
{
  public:
    Params() = default;
    // Text values; a null pointer is NULL.
    explicit Params(const std::vector<const char *> &text);

    // A text value is read up to its terminating zero, a binary one for its size.
    void Add(const std::string &value, Format format);
    void AddNull();

    int Count() const { return static_cast<int>(values_.size()); }
    const char *const *Values() const { return values_.data(); }
    const int *Lengths() const { return lengths_.data(); }
    const int *Formats() const { return formats_.data(); }

  private:
    std::vector<const char *> values_;
    std::vector<int> lengths_;
    std::vector<int> formats_;
};

// What one statement came to: its result (rows, or none for a command), or its error.
struct Outcome
{
    std::unique_ptr<Result> result;
    std::optional<ServerError> error;
};

class Pipeline
{
  public:
    // Connects (blocking) and enters pipeline mode.
    explicit Pipeline(const std::string &dsn);
    ~Pipeline();
    Pipeline(const Pipeline &) = delete;
    Pipeline &operator=(const Pipeline &) = delete;

    // From now on nothing blocks (the event loop's use).
    void SetNonBlocking();

    // A statement, unnamed: planned for the values at hand.
    void Send(const std::string &sql, const Params &params = {}, Format results = Format::kText);
    // The preparation of a named statement; types: the parameters' OIDs (0 or none: inferred).
    void SendPrepare(const std::string &name, const std::string &sql,
                     const std::vector<std::uint32_t> &types = {});
    void SendPrepared(const std::string &name, const Params &params,
                      Format results = Format::kText);

    // The oldest statement's outcome, waiting for it (blocking use).
    Outcome Receive();
    // Reads what has arrived without waiting (non-blocking use).
    void Read();
    // Throws when libpq has found the connection broken (by a read or write).
    void CheckAlive() const;
    // The oldest statement's outcome when it has arrived whole (after Read).
    std::optional<Outcome> TryReceive();
    // Whether Receive can start without waiting (reads what has arrived; a broken connection is
    // ready too: Receive then throws).
    bool ResultReady();
    // Sends what is buffered; true while some is still to go (wait for writability).
    bool Flush();

    int Socket() const;
    int InFlight() const { return in_flight_; }

    // Setup, with nothing in flight: runs one statement and returns its result, or throws its
    // ServerError.
    std::unique_ptr<Result> Run(const std::string &sql, const Params &params = {});
    void Prepare(const std::string &name, const std::string &sql,
                 const std::vector<std::uint32_t> &types = {});

  private:
    // The next outcome; waits for it or, when !wait, returns nothing when it has not come whole.
    std::optional<Outcome> Next(bool wait);
    // Takes one result into the outcome being read; true when it completes it (its sync point).
    bool Take(pg_result *result);
    void Sent(int queued);
    void RequireIdle() const;
    // The outcome of the one statement in flight; throws its error.
    std::unique_ptr<Result> Await();
    [[noreturn]] void ThrowLost(const std::string &what) const;

    pg_conn *connection_ = nullptr;
    int in_flight_ = 0;
    Outcome reading_;            // the oldest statement's, as its results come
    bool results_ended_ = false; // its results are in; its sync point is next
};

} // namespace permanode::pq
