// ConnectionServer's workers and its buffered socket stream.
#include "connection.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace permanode::http
{
namespace
{

// The textual address and port of a socket address.
void AddressOf(const sockaddr_storage &address, std::string &ip, int &port)
{
    char text[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET)
    {
        const auto *v4 = reinterpret_cast<const sockaddr_in *>(&address);
        inet_ntop(AF_INET, &v4->sin_addr, text, sizeof(text));
        port = ntohs(v4->sin_port);
    }
    else if (address.ss_family == AF_INET6)
    {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&address);
        inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof(text));
        port = ntohs(v6->sin6_port);
    }
    ip = text;
}

// A connected socket as an httplib stream: reads through a buffer, writes into one that Flush()
// sends in one go.
class BufferedStream : public httplib::Stream
{
  public:
    BufferedStream(socket_t sock, time_t read_timeout_sec, time_t read_timeout_usec)
        : sock_(sock),
          read_timeout_ms_(static_cast<int>(read_timeout_sec * 1000 + read_timeout_usec / 1000))
    {
        sockaddr_storage address{};
        socklen_t length = sizeof(address);
        if (getpeername(sock_, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        {
            AddressOf(address, remote_ip_, remote_port_);
        }
        length = sizeof(address);
        if (getsockname(sock_, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        {
            AddressOf(address, local_ip_, local_port_);
        }
    }

    // Waits for the next request: false when the peer closed the connection, the receive
    // timeout passed or the server is stopping (its read side was shut down).
    bool WaitForRequest() { return HasInput() || Fill() > 0; }

    // Input already read from the socket (a pipelined request), which epoll will not report.
    bool HasInput() const { return in_begin_ < in_end_; }

    // Sends the buffered output; false when the peer is gone.
    bool Flush()
    {
        std::size_t sent = 0;
        while (sent < out_.size())
        {
            ssize_t n = send(sock_, out_.data() + sent, out_.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
            {
                continue;
            }
            if (n <= 0)
            {
                out_.clear();
                return false;
            }
            sent += static_cast<std::size_t>(n);
        }
        out_.clear();
        return true;
    }

    bool is_readable() const override
    {
        if (HasInput())
        {
            return true;
        }
        pollfd fd{sock_, POLLIN, 0};
        return poll(&fd, 1, read_timeout_ms_) > 0;
    }

    // Output is buffered; a write to a closed peer fails in Flush.
    bool is_writable() const override { return true; }

    ssize_t read(char *ptr, size_t size) override
    {
        if (in_begin_ == in_end_ && Fill() <= 0)
        {
            return -1;
        }
        std::size_t n = std::min(size, in_end_ - in_begin_);
        std::memcpy(ptr, in_ + in_begin_, n);
        in_begin_ += n;
        return static_cast<ssize_t>(n);
    }

    ssize_t write(const char *ptr, size_t size) override
    {
        out_.append(ptr, size);
        return static_cast<ssize_t>(size);
    }

    void get_remote_ip_and_port(std::string &ip, int &port) const override
    {
        ip = remote_ip_;
        port = remote_port_;
    }

    void get_local_ip_and_port(std::string &ip, int &port) const override
    {
        ip = local_ip_;
        port = local_port_;
    }

    socket_t socket() const override { return sock_; }

  private:
    // Reads what the socket has into the empty input buffer, after sending pending output (the
    // peer may be waiting for it, e.g. for "100 Continue"). The socket's receive timeout (set
    // by httplib on accept) bounds the wait.
    ssize_t Fill()
    {
        if (!out_.empty() && !Flush())
        {
            return -1;
        }
        for (;;)
        {
            ssize_t n = recv(sock_, in_, sizeof(in_), 0);
            if (n < 0 && errno == EINTR)
            {
                continue;
            }
            in_begin_ = 0;
            in_end_ = n > 0 ? static_cast<std::size_t>(n) : 0;
            return n;
        }
    }

    socket_t sock_;
    int read_timeout_ms_;
    char in_[CPPHTTPLIB_RECV_BUFSIZ];
    std::size_t in_begin_ = 0;
    std::size_t in_end_ = 0;
    std::string out_;
    std::string remote_ip_;
    int remote_port_ = 0;
    std::string local_ip_;
    int local_port_ = 0;
};

std::int64_t NowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

struct ConnectionServer::Connection
{
    Connection(socket_t sock, time_t read_timeout_sec, time_t read_timeout_usec,
               std::size_t max_requests)
        : sock(sock), stream(sock, read_timeout_sec, read_timeout_usec), remaining(max_requests)
    {
    }

    socket_t sock;
    BufferedStream stream;
    std::size_t remaining; // requests it may still send (keep-alive max count)
    std::atomic<bool> busy{false};
    std::atomic<std::int64_t> idle_since_ms{NowMs()};
};

ConnectionServer::ConnectionServer(int workers)
{
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0)
    {
        throw std::runtime_error(std::string("cannot create the connection set: ") +
                                 std::strerror(errno));
    }
    // Level-triggered and never read: once written, it wakes every worker, for good.
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.ptr = nullptr;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &wake);
    for (int i = 0; i < std::max(workers, 1); i++)
    {
        workers_.emplace_back([this] { Work(); });
    }
}

ConnectionServer::~ConnectionServer()
{
    StopServing();
    close(wake_fd_);
    close(epoll_fd_);
}

void ConnectionServer::StopServing()
{
    stop();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        // Wakes a worker waiting for the rest of a request; one serving a request finishes it.
        for (const auto &entry : open_)
        {
            shutdown(entry.first->sock, SHUT_RD);
        }
    }
    std::uint64_t one = 1;
    ssize_t written = write(wake_fd_, &one, sizeof(one));
    (void)written;
    for (std::thread &worker : workers_)
    {
        if (worker.joinable())
        {
            worker.join();
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &entry : open_)
    {
        shutdown(entry.first->sock, SHUT_RDWR);
        close(entry.first->sock);
    }
    open_.clear();
}

bool ConnectionServer::process_and_close_socket(socket_t sock)
{
    auto owned = std::make_unique<Connection>(sock, read_timeout_sec_, read_timeout_usec_,
                                              keep_alive_max_count_);
    Connection *connection = owned.get();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_)
        {
            shutdown(sock, SHUT_RDWR);
            close(sock);
            return false;
        }
        open_.emplace(connection, std::move(owned));
    }
    epoll_event event{};
    event.events = EPOLLIN | EPOLLONESHOT;
    event.data.ptr = connection;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, sock, &event) != 0)
    {
        Close(connection);
        return false;
    }
    return true;
}

void ConnectionServer::Work()
{
    std::int64_t next_sweep_ms = NowMs() + 1000;
    for (;;)
    {
        epoll_event event{};
        int ready = epoll_wait(epoll_fd_, &event, 1, 1000);
        if (stopping_)
        {
            return;
        }
        if (NowMs() >= next_sweep_ms)
        {
            ShutDownIdle();
            next_sweep_ms = NowMs() + 1000;
        }
        if (ready <= 0)
        {
            continue; // the timeout, or EINTR
        }
        auto *connection = static_cast<Connection *>(event.data.ptr);
        if (connection == nullptr)
        {
            return; // the wake descriptor: stopping
        }
        connection->busy = true;
        bool keep = false;
        try
        {
            keep = Serve(*connection);
        }
        catch (const std::exception &)
        {
            // Handlers' errors become 500s inside process_request; anything else that escapes
            // (an allocation failure) costs this connection, not the worker.
        }
        if (keep && !stopping_)
        {
            connection->idle_since_ms = NowMs();
            connection->busy = false;
            epoll_event again{};
            again.events = EPOLLIN | EPOLLONESHOT;
            again.data.ptr = connection;
            if (epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection->sock, &again) == 0)
            {
                continue;
            }
        }
        Close(connection);
    }
}

bool ConnectionServer::Serve(Connection &connection)
{
    do
    {
        // A stopping server takes no further requests.
        if (stopping_ || svr_sock_ == INVALID_SOCKET || !connection.stream.WaitForRequest())
        {
            return false;
        }
        bool connection_closed = false;
        bool ok = process_request(connection.stream, connection.remaining == 1, connection_closed,
                                  nullptr);
        if (!connection.stream.Flush() || !ok || connection_closed || --connection.remaining == 0)
        {
            return false;
        }
    } while (connection.stream.HasInput());
    return true;
}

void ConnectionServer::Close(Connection *connection)
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = open_.find(connection);
    if (found == open_.end())
    {
        return; // StopServing closed it
    }
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, connection->sock, nullptr);
    shutdown(connection->sock, SHUT_RDWR);
    close(connection->sock);
    open_.erase(found);
}

void ConnectionServer::ShutDownIdle()
{
    std::int64_t limit = NowMs() - static_cast<std::int64_t>(keep_alive_timeout_sec_) * 1000;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &entry : open_)
    {
        Connection &connection = *entry.first;
        if (!connection.busy && connection.idle_since_ms < limit)
        {
            shutdown(connection.sock, SHUT_RDWR);
        }
    }
}

} // namespace permanode::http
