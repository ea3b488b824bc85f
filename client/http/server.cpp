// The server: httplib (with our connection handling) and one worker per pooled connection, the
// routes, and RunServer.
#include "server.hpp"

#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "connection.hpp"
#include "json_errors.hpp"
#include "metrics.hpp"
#include "pool.hpp"
#include "router.hpp"

namespace permanode::http
{

class ServerImpl
{
  public:
    explicit ServerImpl(ServerOptions options)
        : options_(std::move(options)), server_(options_.threads),
          pool_(options_.dsn, options_.threads,
                std::chrono::milliseconds(options_.acquire_timeout_ms)),
          router_(server_, pool_, metrics_)
    {
        // httplib's accept loop only hands new connections over to ConnectionServer's workers
        // (one per pooled connection), through this queue.
        server_.new_task_queue = [] { return new httplib::ThreadPool(1); };
        // How long the rest of a request may take to arrive, and how long an idle keep-alive
        // connection is kept: 5 s for both (httplib's default keep-alive timeout), which the
        // Keep-Alive header advertises.
        server_.set_read_timeout(5);
        server_.set_keep_alive_timeout(5);
        server_.set_write_timeout(10);
        server_.set_payload_max_length(options_.max_request_bytes);
        server_.set_keep_alive_max_count(10000);
        // Each response is one send; no reason to let Nagle hold back a short one.
        server_.set_tcp_nodelay(true);
        RegisterCoreRoutes(router_);
        RegisterIndexerRoutes(router_);
        RegisterSeedRoutes(router_);
        RegisterExplorerRoutes(router_);
        RegisterOperationRoutes(router_, metrics_, pool_);
        // Unmatched routes and httplib's own errors (413, 414, ...) get JSON bodies too.
        std::size_t max_request_bytes = options_.max_request_bytes;
        server_.set_error_handler(httplib::Server::HandlerWithResponse(
            [max_request_bytes](const httplib::Request &request, httplib::Response &response)
            {
                if (!response.body.empty())
                {
                    return httplib::Server::HandlerResponse::Unhandled;
                }
                WriteError(response, response.status,
                           ProtocolErrorMessage(response.status, request.path, max_request_bytes));
                return httplib::Server::HandlerResponse::Handled;
            }));
        server_.set_exception_handler(
            [](const httplib::Request &, httplib::Response &response, std::exception_ptr error)
            {
                std::string message = "internal error";
                try
                {
                    std::rethrow_exception(error);
                }
                catch (const std::exception &e)
                {
                    message += std::string(": ") + e.what();
                }
                catch (...)
                {
                }
                WriteError(response, 500, message);
            });
        if (options_.log_requests)
        {
            server_.set_logger(
                [](const httplib::Request &request, const httplib::Response &response)
                {
                    std::fprintf(stderr, "%s %s %d\n", request.method.c_str(),
                                 request.target.c_str(), response.status);
                });
        }
    }

    ServerOptions options_;
    ConnectionServer server_;
    Pool pool_;
    Metrics metrics_;
    Router router_;
    int port_ = -1;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<ServerImpl>(std::move(options))) {}

Server::~Server()
{
    Stop();
}

bool Server::Bind()
{
    const auto &o = impl_->options_;
    if (o.port == 0)
    {
        impl_->port_ = impl_->server_.bind_to_any_port(o.host);
    }
    else if (impl_->server_.bind_to_port(o.host, o.port))
    {
        impl_->port_ = o.port;
    }
    if (impl_->port_ <= 0)
    {
        std::cerr << "permanode-serve: cannot listen on " << o.host << ":" << o.port << "\n";
        return false;
    }
    return true;
}

int Server::Port() const
{
    return impl_->port_;
}

bool Server::Listen()
{
    return impl_->server_.listen_after_bind();
}

void Server::Stop()
{
    if (impl_->server_.is_running())
    {
        impl_->server_.StopServing();
    }
}

namespace
{
std::atomic<bool> stop_requested{false};
extern "C" void OnSignal(int)
{
    stop_requested = true;
}
} // namespace

int RunServer(const ServerOptions &options)
{
    Server server(options);
    if (!server.Bind())
    {
        return 5;
    }
    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
    std::cerr << "permanode-serve: listening on http://" << options.host << ":" << server.Port()
              << " with " << options.threads << " threads and database connections\n";
    std::thread listener([&server] { server.Listen(); });
    while (!stop_requested)
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    server.Stop();
    listener.join();
    std::cerr << "permanode-serve: stopped\n";
    return 0;
}

} // namespace permanode::http
