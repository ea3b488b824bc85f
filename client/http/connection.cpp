// The per-connection loop of ConnectionServer and its buffered socket stream.
#include "connection.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
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
    bool WaitForRequest() { return in_begin_ < in_end_ || Fill() > 0; }

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
        if (in_begin_ < in_end_)
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

} // namespace

void ConnectionServer::StopServing()
{
    stop();
    std::lock_guard<std::mutex> lock(mutex_);
    for (socket_t sock : open_)
    {
        shutdown(sock, SHUT_RD);
    }
}

bool ConnectionServer::process_and_close_socket(socket_t sock)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        open_.insert(sock);
    }
    BufferedStream stream(sock, read_timeout_sec_, read_timeout_usec_);
    bool ret = false;
    for (std::size_t count = keep_alive_max_count_; count > 0; count--)
    {
        // A stopping server takes no further requests; StopServing wakes a waiting connection.
        if (svr_sock_ == INVALID_SOCKET || !stream.WaitForRequest())
        {
            break;
        }
        bool connection_closed = false;
        ret = process_request(stream, count == 1, connection_closed, nullptr);
        if (!stream.Flush())
        {
            ret = false;
        }
        if (!ret || connection_closed)
        {
            break;
        }
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        open_.erase(sock);
    }
    shutdown(sock, SHUT_RDWR);
    close(sock);
    return ret;
}

} // namespace permanode::http
