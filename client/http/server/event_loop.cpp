// The event loop: epoll over the listening socket, the HTTP connections, the database
// connection and a wake-up eventfd (for Stop).
#include "server/event_loop.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include "server/json_errors.hpp"
#include "server/router.hpp"
#include "server/task.hpp"

namespace permanode::http
{
namespace
{

// epoll user data for the sources that are not HTTP connections (those carry their fd).
constexpr std::uint64_t kListenTag = 1ULL << 62;
constexpr std::uint64_t kWakeTag = 1ULL << 61;
constexpr std::uint64_t kDatabaseTag = 1ULL << 60; // | the pipeline's index

// How long the loop looks for events without sleeping while the database owes it answers.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(20);

// Output waiting for a client beyond which its next requests wait until it reads.
constexpr std::size_t kMaxPendingOutput = 1 << 20;

// Input kept per connection beyond which reading pauses until requests are answered.
constexpr std::size_t kMaxBufferedInput = 1 << 20;

[[noreturn]] void ThrowErrno(const char *what)
{
    throw std::system_error(errno, std::generic_category(), what);
}

} // namespace

struct EventLoop::Connection
{
    int fd = -1;
    std::string input;
    std::string output;
    std::size_t output_sent = 0;
    bool handling = false;    // a request's task is running
    bool dispatching = false; // inside Dispatch (its task may finish before Spawn returns)
    bool close_after = false; // close once the output is sent
    bool draining = false;    // refused: output sent, reading and dropping until EOF
    bool peer_closed = false; // no more input will come
    bool send_failed = false; // the client cannot take more output (reset, or stopped reading)
    bool registered = false;  // in the epoll set
    unsigned watched = 0;     // the epoll events registered
    Clock::time_point last_activity; // the last read or write (draining: when it began)
    Clock::time_point request_began; // the first byte of the request being read came
    bool awaiting_body = false;      // that request's head is whole, its body still coming
    // The request being served, and what its task refers to.
    httplib::Request request;
    httplib::Response response;
    PathParams params;
    bool keep_alive = true;
    std::unique_ptr<Stream> stream; // the request's body as it is made, when it streams one
};

// A connection's BodyStream: chunks go to its output; a handler waits while that is not sent.
class EventLoop::Stream final : public BodyStream
{
  public:
    Stream(EventLoop &loop, Connection &connection) : loop_(loop), connection_(connection) {}

    void Start(const httplib::Response &head) override
    {
        started_ = true;
        head_only_ = connection_.request.method == "HEAD";
        bool keep_alive = connection_.keep_alive && !loop_.stopping_;
        connection_.close_after = !keep_alive;
        WriteChunkedHead(head, keep_alive, loop_.options_.keep_alive_seconds, connection_.output);
    }
    void End() override
    {
        ended_ = true;
        if (!head_only_)
            WriteChunk({}, connection_.output);
    }
    std::coroutine_handle<> waiter; // the handler waiting for its output to be sent

  protected:
    bool Send(std::string piece, std::coroutine_handle<> resume) override
    {
        if (Gone())
            return true;
        if (!head_only_ && !piece.empty())
            WriteChunk(piece, connection_.output);
        loop_.WriteOutput(connection_); // never closes a connection whose request is running
        if (Gone() || connection_.output_sent == connection_.output.size())
            return true;
        waiter = resume;
        return false;
    }
    bool Gone() const override { return connection_.send_failed || loop_.stopping_; }

  private:
    EventLoop &loop_;
    Connection &connection_;
    bool head_only_ = false;
};

EventLoop::EventLoop(int listen_fd, const std::string &dsn, Router &router, LoopOptions options)
    : listen_fd_(listen_fd), router_(router), options_(options),
      nodes_(dsn, options_.replica_dsns, options_.database_connections,
             options_.statement_timeout_ms, std::chrono::milliseconds(options_.replica_backoff_ms)),
      last_sweep_(Clock::now())
{
    for (const auto &node : nodes_.All())
    {
        for (auto &pipeline : node->Pipelines())
        {
            pipelines_.push_back(pipeline.get());
        }
    }
    watched_generation_.assign(pipelines_.size(), 0);
    watched_writable_.assign(pipelines_.size(), false);
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0)
    {
        ThrowErrno("event loop");
    }
    epoll_event wake_event{};
    wake_event.events = EPOLLIN;
    wake_event.data.u64 = kWakeTag;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &wake_event) != 0)
    {
        ThrowErrno("event loop");
    }
    if (listen_fd_ >= 0)
    {
        epoll_event listen_event{};
        listen_event.events = EPOLLIN;
        listen_event.data.u64 = kListenTag;
        if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &listen_event) != 0)
        {
            ThrowErrno("event loop");
        }
        reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
}

EventLoop::~EventLoop()
{
    for (PgPipeline *pipeline : pipelines_)
    {
        pipeline->Close("the server is stopping");
    }
    std::vector<int> open_fds;
    for (auto &[fd, connection] : connections_)
    {
        open_fds.push_back(fd);
    }
    for (int fd : open_fds)
    {
        if (IsOpen(fd))
        {
            ResumeStream(*connections_.at(fd)); // the handler sees its client gone
        }
    }
    for (auto &[fd, connection] : connections_)
    {
        close(fd);
    }
    for (int fd : adopted_)
    {
        close(fd);
    }
    close(wake_fd_);
    close(epoll_fd_);
    if (reserve_fd_ >= 0)
    {
        close(reserve_fd_);
    }
}

void EventLoop::Stop()
{
    stopping_ = true;
    std::uint64_t one = 1;
    ssize_t written = write(wake_fd_, &one, sizeof(one));
    (void)written; // a full counter already wakes the loop
}

LoopStats EventLoop::Stats() const
{
    LoopStats stats;
    for (const auto &node : nodes_.All())
    {
        stats.nodes.push_back({node->Label(), node->requests.load(), node->failures.load(),
                               node->ledger_index_seen.load()});
    }
    stats.connected = stat_connected_.load();
    stats.in_flight = stat_in_flight_.load();
    stats.connect_failures = stat_connect_failures_.load();
    stats.clients_open = open_clients_.load();
    stats.clients_refused = clients_refused_.load();
    return stats;
}

void EventLoop::Run()
{
    epoll_event events[64];
    while (!stopping_)
    {
        int count = 0;
        if (QueriesInFlight())
        {
            // An answer is due within tens of microseconds: looking again for that long costs
            // less than going to sleep and being woken (measured: +6% block, +10% address
            // requests/s in http_bench's setting).
            auto until = Clock::now() + kSpinBeforeSleep;
            do
            {
                count = epoll_wait(epoll_fd_, events, 64, 0);
            } while (count == 0 && Clock::now() < until);
        }
        if (count == 0)
        {
            count = epoll_wait(epoll_fd_, events, 64, 1000);
        }
        if (count < 0 && errno != EINTR)
        {
            ThrowErrno("epoll_wait");
        }
        for (int i = 0; i < count && !stopping_; i++)
        {
            std::uint64_t tag = events[i].data.u64;
            if (tag == kListenTag)
            {
                Accept();
            }
            else if (tag == kWakeTag)
            {
                std::uint64_t counter = 0;
                ssize_t got = read(wake_fd_, &counter, sizeof(counter));
                (void)got; // already reset by an earlier read
                TakeAdopted();
            }
            else if (tag & kDatabaseTag)
            {
                if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
                {
                    pipelines_[tag & ~kDatabaseTag]->OnReadable();
                }
            }
            else
            {
                auto it = connections_.find(static_cast<int>(tag));
                if (it != connections_.end())
                {
                    OnConnectionEvent(*it->second, events[i].events);
                }
            }
        }
        // The queries this round queued go out together.
        WatchDatabase();
        if (Clock::now() - last_sweep_ >= std::chrono::seconds(1))
        {
            Sweep();
        }
    }
    // Stopping: the handlers waiting for the database end with an error, then every
    // connection closes.
    for (PgPipeline *pipeline : pipelines_)
    {
        pipeline->Close("the server is stopping");
    }
    for (auto &[fd, connection] : connections_)
    {
        close(fd);
    }
    connections_.clear();
    TakeAdopted(); // closes them: stopping_ is set
}

bool EventLoop::QueriesInFlight() const
{
    return std::any_of(pipelines_.begin(), pipelines_.end(),
                       [](const auto &pipeline) { return pipeline->InFlight() > 0; });
}

void EventLoop::Accept()
{
    for (;;)
    {
        int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
        {
            if ((errno == EMFILE || errno == ENFILE) && ShedConnection(errno))
            {
                continue;
            }
            return; // none left (or the peer gave up, or listening is paused)
        }
        int open_clients = OpenClients();
        if (open_clients >= options_.max_clients)
        {
            clients_refused_++;
            if (open_clients >= options_.max_clients + kRefusingAtMost)
            {
                close(fd);
                continue;
            }
            open_clients_++;
            AddConnection(fd);
            Refuse(*connections_[fd], 503,
                   "too many connections: this server serves at most " +
                       std::to_string(options_.max_clients) + " at once (--max-clients)");
            continue;
        }
        EventLoop *target = peers_.empty() ? this : peers_[next_peer_++ % peers_.size()];
        target->open_clients_++;
        if (target == this)
        {
            AddConnection(fd);
        }
        else
        {
            target->Adopt(fd);
        }
    }
}

int EventLoop::OpenClients() const
{
    if (peers_.empty())
    {
        return open_clients_.load();
    }
    int open = 0;
    for (const EventLoop *peer : peers_)
    {
        open += peer->open_clients_.load();
    }
    return open;
}

bool EventLoop::ShedConnection(int error)
{
    clients_refused_++;
    if (Clock::now() - last_shed_report_ >= std::chrono::seconds(10))
    {
        last_shed_report_ = Clock::now();
        std::fprintf(stderr,
                     "permanode-serve: out of file descriptors (%s); closing new connections "
                     "(lower --max-clients or raise the open-file limit)\n",
                     std::strerror(error));
    }
    if (reserve_fd_ >= 0)
    {
        close(reserve_fd_);
        int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0)
        {
            close(fd);
        }
        reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && reserve_fd_ >= 0)
        {
            return true;
        }
    }
    // No descriptor to shed with: stop watching the listening socket until the next sweep.
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
    listening_paused_ = true;
    return false;
}

void EventLoop::ResumeListening()
{
    if (reserve_fd_ < 0)
    {
        reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    epoll_event listen_event{};
    listen_event.events = EPOLLIN;
    listen_event.data.u64 = kListenTag;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &listen_event) == 0)
    {
        listening_paused_ = false;
    }
}

void EventLoop::Adopt(int fd)
{
    {
        std::lock_guard<std::mutex> lock(adopted_mutex_);
        adopted_.push_back(fd);
    }
    std::uint64_t one = 1;
    ssize_t written = write(wake_fd_, &one, sizeof(one));
    (void)written; // a full counter already wakes the loop
}

void EventLoop::TakeAdopted()
{
    std::vector<int> fds;
    {
        std::lock_guard<std::mutex> lock(adopted_mutex_);
        fds.swap(adopted_);
    }
    for (int fd : fds)
    {
        if (stopping_)
        {
            close(fd);
            open_clients_--;
        }
        else
        {
            AddConnection(fd);
        }
    }
}

void EventLoop::AddConnection(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    connection->last_activity = Clock::now();
    Connection &added = *connection;
    connections_.emplace(fd, std::move(connection));
    Watch(added);
}

void EventLoop::OnConnectionEvent(Connection &connection, unsigned events)
{
    int fd = connection.fd;
    if (events & EPOLLOUT)
    {
        WriteOutput(connection);
        if (!IsOpen(fd))
        {
            return;
        }
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP))
    {
        if (!ReadInput(connection))
        {
            connection.peer_closed = true;
        }
    }
    if (events & (EPOLLERR | EPOLLHUP))
    {
        connection.send_failed = true;
    }
    ResumeStream(connection);
    if (!IsOpen(fd))
    {
        return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP))
    {
        if (connection.draining)
        {
            connection.input.clear();
            if (connection.peer_closed)
            {
                Close(connection);
            }
            return;
        }
    }
    // New input, or room for output again.
    Continue(connection);
}

void EventLoop::Continue(Connection &connection)
{
    int fd = connection.fd;
    ProcessInput(connection);
    if (!IsOpen(fd))
    {
        return;
    }
    // A client that closed its side is done once it has every answer it asked for (input left
    // over is a request it never finished). One that only half-closed still reads them.
    if (connection.peer_closed && !connection.handling &&
        connection.output_sent == connection.output.size())
    {
        Close(connection);
        return;
    }
    Watch(connection);
}

bool EventLoop::ReadInput(Connection &connection)
{
    char buffer[16384];
    while (connection.input.size() < kMaxBufferedInput)
    {
        ssize_t n = recv(connection.fd, buffer, sizeof(buffer), 0);
        if (n > 0)
        {
            auto now = Clock::now();
            if (connection.input.empty())
            {
                connection.request_began = now;
            }
            connection.input.append(buffer, static_cast<std::size_t>(n));
            // A refused client's drain is bounded from its start, whatever it still sends.
            if (!connection.draining)
            {
                connection.last_activity = now;
            }
            if (static_cast<std::size_t>(n) < sizeof(buffer))
            {
                return true; // drained (epoll reports more input when it comes)
            }
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
            return true;
        }
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        return false; // end of input, or a reset
    }
    return true;
}

void EventLoop::ProcessInput(Connection &connection)
{
    int fd = connection.fd;
    // A client that sends requests without reading the answers is served only as fast as it
    // reads: past kMaxPendingOutput, its requests wait (and then its input: TCP holds it back).
    while (!connection.handling && !connection.close_after && !connection.input.empty() &&
           connection.output.size() - connection.output_sent < kMaxPendingOutput)
    {
        auto parsed = ParseRequest(connection.input, options_.limits, connection.request);
        if (parsed.state == ParsedRequest::State::kIncomplete)
        {
            connection.awaiting_body = parsed.awaiting_body;
            return;
        }
        if (parsed.state == ParsedRequest::State::kRefused)
        {
            Refuse(connection, parsed.status, parsed.message);
            return;
        }
        connection.input.erase(0, parsed.consumed);
        connection.awaiting_body = false;
        connection.keep_alive = parsed.keep_alive;
        Dispatch(connection);
        if (!IsOpen(fd))
        {
            return;
        }
    }
}

void EventLoop::Dispatch(Connection &connection)
{
    connection.handling = true;
    connection.dispatching = true;
    connection.response = httplib::Response();
    connection.params.clear();
    connection.stream = std::make_unique<Stream>(*this, connection);
    int fd = connection.fd;
    Spawn(router_.Serve(connection.request, connection.response, nodes_, connection.params,
                        *connection.stream),
          [this, fd](std::exception_ptr error)
          {
              auto it = connections_.find(fd);
              if (it == connections_.end())
              {
                  return;
              }
              Connection &done = *it->second;
              if (error)
              {
                  // Router::Serve answers every error itself; this is what escaped it.
                  done.response = httplib::Response();
                  WriteError(done.response, 500, "internal error");
              }
              Finish(done);
          });
    if (IsOpen(fd))
    {
        connection.dispatching = false;
    }
}

void EventLoop::Finish(Connection &connection)
{
    connection.handling = false;
    // A next request already (partly) read counts its time from now, when it can be served.
    connection.request_began = Clock::now();
    if (options_.log_requests)
    {
        std::fprintf(stderr, "%s %s %d\n", connection.request.method.c_str(),
                     connection.request.target.c_str(), connection.response.status);
    }
    if (connection.stream && connection.stream->Started())
    {
        // A body cut short has no last chunk, and the close tells the client it is not whole.
        connection.close_after = connection.close_after || !connection.stream->Ended();
    }
    else
    {
        bool keep_alive = connection.keep_alive && !stopping_;
        WriteResponse(connection.response, keep_alive, connection.request.method == "HEAD",
                      options_.keep_alive_seconds, connection.output);
        connection.close_after = !keep_alive;
    }
    int fd = connection.fd;
    WriteOutput(connection);
    if (!IsOpen(fd) || connection.dispatching)
    {
        return; // closed, or ProcessInput's loop goes on with the next request
    }
    // The response came from the database's answer: serve what else the client sent.
    Continue(connection);
}

void EventLoop::Refuse(Connection &connection, int status, const std::string &message)
{
    httplib::Response response;
    WriteError(response, status, message);
    WriteResponse(response, false, false, options_.keep_alive_seconds, connection.output);
    connection.close_after = true;
    connection.input.clear();
    WriteOutput(connection);
}

void EventLoop::WriteOutput(Connection &connection)
{
    while (connection.output_sent < connection.output.size())
    {
        ssize_t n = send(connection.fd, connection.output.data() + connection.output_sent,
                         connection.output.size() - connection.output_sent, MSG_NOSIGNAL);
        if (n > 0)
        {
            connection.output_sent += static_cast<std::size_t>(n);
            connection.last_activity = Clock::now();
            continue;
        }
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
            Watch(connection); // wait for room
            return;
        }
        if (connection.handling)
        {
            connection.peer_closed = true; // closed once its task is done
            connection.send_failed = true;
            return;
        }
        Close(connection);
        return;
    }
    connection.output.clear();
    connection.output_sent = 0;
    if (connection.close_after && !connection.handling)
    {
        // Let the client read the response before the close: stop sending, and drop what it
        // still sends (closing with unread input would reset the connection) until it closes.
        shutdown(connection.fd, SHUT_WR);
        connection.draining = true;
        connection.last_activity = Clock::now();
        Watch(connection);
    }
}

void EventLoop::ResumeStream(Connection &connection)
{
    if (!connection.stream || !connection.stream->waiter)
    {
        return;
    }
    if (connection.send_failed || stopping_ || connection.output_sent == connection.output.size())
    {
        std::exchange(connection.stream->waiter, {}).resume();
    }
}

void EventLoop::Watch(Connection &connection)
{
    unsigned events = 0;
    // Once the client has closed its side, its end of input would be reported again and again.
    if (!connection.peer_closed)
    {
        events |= EPOLLRDHUP;
        if (connection.input.size() < kMaxBufferedInput)
        {
            events |= EPOLLIN;
        }
    }
    if (connection.output_sent < connection.output.size())
    {
        events |= EPOLLOUT;
    }
    if (connection.registered && events == connection.watched)
    {
        return;
    }
    epoll_event event{};
    event.events = events;
    event.data.u64 = static_cast<std::uint64_t>(connection.fd);
    int op = connection.registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(epoll_fd_, op, connection.fd, &event) == 0)
    {
        connection.registered = true;
        connection.watched = events;
    }
}

void EventLoop::Close(Connection &connection)
{
    int fd = connection.fd;
    close(fd); // also leaves the epoll set
    connections_.erase(fd);
    open_clients_--;
}

void EventLoop::WatchDatabase()
{
    int connected = 0;
    std::size_t in_flight = 0;
    long long failures = 0;
    for (std::size_t i = 0; i < pipelines_.size(); i++)
    {
        PgPipeline &pipeline = *pipelines_[i];
        bool writable = pipeline.Flush();
        int fd = pipeline.Fd();
        if (fd >= 0 &&
            (pipeline.Generation() != watched_generation_[i] || writable != watched_writable_[i]))
        {
            epoll_event event{};
            event.events = writable ? EPOLLIN | EPOLLOUT : EPOLLIN;
            event.data.u64 = kDatabaseTag | i;
            // A closed connection left the set by itself; a new one is added.
            int op =
                pipeline.Generation() != watched_generation_[i] ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
            if (epoll_ctl(epoll_fd_, op, fd, &event) == 0)
            {
                watched_generation_[i] = pipeline.Generation();
                watched_writable_[i] = writable;
            }
        }
        connected += pipeline.Connected() ? 1 : 0;
        in_flight += pipeline.InFlight();
        failures += pipeline.ConnectFailures();
    }
    stat_connected_ = connected;
    stat_in_flight_ = in_flight;
    stat_connect_failures_ = failures;
}

void EventLoop::Sweep()
{
    if (listening_paused_)
    {
        ResumeListening();
    }
    for (PgPipeline *pipeline : pipelines_)
    {
        pipeline->ExpireWaiting();
    }
    auto now = Clock::now();
    last_sweep_ = now;
    std::vector<int> expired;
    std::vector<int> stalled;
    std::vector<int> slow_heads;
    for (auto &[fd, connection] : connections_)
    {
        auto idle = now - connection->last_activity;
        if (connection->handling)
        {
            // A client that stops reading a streamed body is given up: its handler ends.
            if (connection->stream && connection->stream->waiter &&
                idle >= std::chrono::seconds(options_.write_timeout_seconds))
            {
                connection->peer_closed = true;
                connection->send_failed = true;
                stalled.push_back(fd);
            }
            continue;
        }
        bool waiting_to_send = connection->output_sent < connection->output.size();
        if (!waiting_to_send && !connection->draining && !connection->input.empty() &&
            !connection->awaiting_body)
        {
            if (now - connection->request_began >=
                std::chrono::seconds(options_.read_timeout_seconds))
            {
                slow_heads.push_back(fd);
            }
            continue;
        }
        int limit = waiting_to_send             ? options_.write_timeout_seconds
                    : connection->draining      ? 2
                    : connection->input.empty() ? options_.keep_alive_seconds
                                                : options_.read_timeout_seconds;
        if (idle >= std::chrono::seconds(limit))
        {
            expired.push_back(fd);
        }
    }
    for (int fd : stalled)
    {
        if (IsOpen(fd))
        {
            ResumeStream(*connections_.at(fd));
        }
    }
    for (int fd : expired)
    {
        if (IsOpen(fd))
        {
            Close(*connections_.at(fd));
        }
    }
    for (int fd : slow_heads)
    {
        if (!IsOpen(fd))
        {
            continue;
        }
        Refuse(*connections_.at(fd), 408,
               "request head not received within " + std::to_string(options_.read_timeout_seconds) +
                   " seconds of its first byte");
    }
}

} // namespace permanode::http
