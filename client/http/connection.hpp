// httplib's server with our own per-connection loop.
//
// httplib 0.11.4 spends most of a small request in system calls: a poll before every read and
// two before every write, the response line and headers sent apart from the body, and the
// peer's and its own address looked up again for every request. Under wrk that made the HTTP
// layer cost more CPU than the database backend serving the query. This server keeps httplib's
// request parsing, routing and response formatting (process_request) and replaces only the
// socket loop it offers as an extension point (process_and_close_socket):
//   - reads are plain blocking recv() calls bounded by the socket's receive timeout (the read
//     timeout, which is also how long an idle keep-alive connection is kept);
//   - a response is buffered and sent with one send() once process_request returns (pending
//     output is also sent before any read blocks, so "100 Continue" still goes out in time);
//   - the addresses are looked up once per connection.
#pragma once

#include <mutex>
#include <set>

#include <httplib.h>

namespace permanode::http
{

class ConnectionServer : public httplib::Server
{
  public:
    // Stops listening and wakes the connections waiting for their next request.
    void StopServing();

  private:
    bool process_and_close_socket(socket_t sock) override;

    std::mutex mutex_;
    std::set<socket_t> open_; // connections being served, for StopServing
};

} // namespace permanode::http
