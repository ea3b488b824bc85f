// One event loop: a thread that serves HTTP connections and owns one pipelined database
// connection. Requests are read, parsed and routed here; a handler that awaits the database is
// suspended (its query goes out with others on the pipeline) and resumed when its result comes,
// and its response is written then. Nothing blocks the loop but connecting to the database.
//
// The first loop accepts the connections and deals them out to all loops in turn. Per
// connection: requests are answered in order (pipelined ones too), an idle keep-alive
// connection is closed after the keep-alive timeout, a request whose head has not come whole
// within the read timeout of its first byte (however it trickles in: a slow loris) is answered
// 408, one whose body stalls for the read timeout is closed, and a refused request (over a limit,
// malformed) is answered and the connection closed.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/db.hpp"
#include "server/db_nodes.hpp"
#include "server/http_codec.hpp"
#include "server/pg_pipeline.hpp"

namespace permanode::http
{

class Router;

// Past the client limit, this many more connections are answered 503 (and drained) at once;
// beyond that they are closed at once, so that a flood cannot exhaust the descriptors either.
constexpr int kRefusingAtMost = 64;

struct LoopOptions
{
    RequestLimits limits;
    int keep_alive_seconds = 5;
    int read_timeout_seconds = 5; // for a request's head from its first byte; between body reads
    int write_timeout_seconds = 10;
    bool log_requests = false;
    int database_connections = 2;          // pipelined connections of this loop, per node
    std::vector<std::string> replica_dsns; // read from round robin, the primary when all fail
    int replica_backoff_ms = 5000;         // a replica that failed is left alone this long
    int statement_timeout_ms = 0;          // 0: none
    int max_clients = 1 << 30; // open client connections, all loops together (accepting loop)
};

struct LoopStats
{
    std::vector<NodeStats> nodes; // the replicas, then the primary
    int connected = 0;
    std::size_t in_flight = 0;
    long long connect_failures = 0;
    int clients_open = 0;
    long long clients_refused = 0; // at the limit or for want of descriptors (accepting loop)
};

class EventLoop
{
  public:
    // `listen_fd` is -1 for every loop but the one that accepts (see SetPeers). `dsn` is the
    // primary's.
    EventLoop(int listen_fd, const std::string &dsn, Router &router, LoopOptions options);
    ~EventLoop();
    EventLoop(const EventLoop &) = delete;
    EventLoop &operator=(const EventLoop &) = delete;

    // Serves until Stop(); then fails the queries in flight and closes every connection.
    void Run();
    // The loops the accepting loop deals its connections out to (itself among them).
    void SetPeers(std::vector<EventLoop *> peers) { peers_ = std::move(peers); }
    // Hands a connection over to this loop; callable from any thread.
    void Adopt(int fd);
    // Callable from any thread.
    void Stop();
    // A snapshot for /metrics (read from other loops' threads: atomics).
    LoopStats Stats() const;

  private:
    struct Connection;
    class Stream;
    using Clock = std::chrono::steady_clock;

    bool QueriesInFlight() const;
    void Accept();
    // Client connections open in all the loops this one deals to.
    int OpenClients() const;
    // Out of file descriptors (`error`): takes one pending connection off the queue and closes
    // it with the descriptor held in reserve, so that the listening socket does not stay
    // readable (and the loop spin) until one frees up. When it cannot, it stops watching the
    // listening socket until the next sweep (ResumeListening) and returns false.
    bool ShedConnection(int error);
    void ResumeListening();
    void AddConnection(int fd);
    // Takes the connections other loops handed over.
    void TakeAdopted();
    void OnConnectionEvent(Connection &connection, unsigned events);
    // Reads what the socket has; false when the peer has closed or the socket failed.
    bool ReadInput(Connection &connection);
    // Parses and starts the requests in the input, one at a time.
    void ProcessInput(Connection &connection);
    // ProcessInput, then closes the connection if the client is done, else watches it.
    void Continue(Connection &connection);
    void Dispatch(Connection &connection);
    void Finish(Connection &connection);
    void Refuse(Connection &connection, int status, const std::string &message);
    void WriteOutput(Connection &connection);
    // Resumes a handler waiting to stream more once its output is sent, or its client is gone.
    void ResumeStream(Connection &connection);
    void Watch(Connection &connection);
    void Close(Connection &connection);
    bool IsOpen(int fd) const { return connections_.count(fd) != 0; }
    void WatchDatabase();
    void Sweep();

    int listen_fd_;
    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    int reserve_fd_ = -1; // accepting loop: a descriptor held back for ShedConnection
    bool listening_paused_ = false;
    Router &router_;
    LoopOptions options_;
    DbNodes nodes_;
    std::vector<PgPipeline *> pipelines_; // every node's
    // Per pipeline: the connection registered in epoll, and whether for writability too.
    std::vector<unsigned> watched_generation_;
    std::vector<bool> watched_writable_;
    std::unordered_map<int, std::unique_ptr<Connection>> connections_;
    std::atomic<bool> stopping_{false};
    std::vector<EventLoop *> peers_;
    std::size_t next_peer_ = 0;
    std::mutex adopted_mutex_;
    std::vector<int> adopted_;
    std::atomic<int> stat_connected_{0};
    std::atomic<std::size_t> stat_in_flight_{0};
    std::atomic<long long> stat_connect_failures_{0};
    // Counted by the accepting loop when it deals a connection, by the owner when it closes one.
    std::atomic<int> open_clients_{0};
    std::atomic<long long> clients_refused_{0};
    Clock::time_point last_shed_report_;
    Clock::time_point last_sweep_;
};

} // namespace permanode::http
