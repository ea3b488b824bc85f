// httplib's server with our own connection handling.
//
// httplib 0.11.4 gives each connection a worker thread for its whole life and spends most of a
// small request in system calls: a poll before every read and two before every write, the
// response line and headers sent apart from the body, and the peer's and its own address looked
// up again for every request. This server keeps httplib's request parsing, routing and response
// formatting (process_request) and replaces the connection handling it offers as an extension
// point (process_and_close_socket):
//   - a connection waiting for its next request holds no thread: it is parked in an epoll set
//     (one-shot), and a fixed set of workers each take whichever connection has input, serve
//     the requests it has sent, and park it again. A worker that finishes a request usually
//     finds the next connection ready instead of sleeping, and idle keep-alive connections no
//     longer block the server;
//   - reads are plain blocking recv() calls bounded by the socket's receive timeout (the read
//     timeout), so a half-sent request holds its worker at most that long;
//   - a response is buffered and sent with one send() once process_request returns (pending
//     output is also sent before any read blocks, so "100 Continue" still goes out in time);
//   - the addresses are looked up once per connection;
//   - a parked connection idle longer than the keep-alive timeout is closed.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <httplib.h>

namespace permanode::http
{

class ConnectionServer : public httplib::Server
{
  public:
    // `workers` threads serve the connections (each request runs on one of them).
    explicit ConnectionServer(int workers);
    ~ConnectionServer() override;

    // Stops listening, lets the workers finish the requests they are serving, and closes every
    // connection.
    void StopServing();

  private:
    struct Connection;

    // Called (by httplib's accept loop, through its task queue) for each new connection: parks
    // it for the workers.
    bool process_and_close_socket(socket_t sock) override;
    void Work();
    // Serves the requests the connection has sent; false when it is to be closed.
    bool Serve(Connection &connection);
    void Close(Connection *connection);
    // Shuts down the parked connections idle longer than the keep-alive timeout (their workers
    // then see end of input and close them).
    void ShutDownIdle();

    int epoll_fd_ = -1;
    int wake_fd_ = -1; // readable once stopping: wakes every worker
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::map<Connection *, std::unique_ptr<Connection>> open_;
};

} // namespace permanode::http
