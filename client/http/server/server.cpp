// The server: a listening socket, one event loop per thread (each with its pipelined database
// connection), the routes, and RunServer.
#include "server/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "server/auth.hpp"
#include "server/event_loop.hpp"
#include "server/json_errors.hpp"
#include "server/metrics.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

// The descriptors client connections may use: the open-file limit, less what the server needs
// besides (per loop its epoll and wake descriptors and database connections; the connections
// being refused past the limit; a margin for the listening socket, logs, reconnects and the
// reserve descriptor).
int DescriptorsForClients(const ServerOptions &options)
{
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    constexpr rlim_t kMost = 1 << 20;
    rlim_t open_files = limit.rlim_cur == RLIM_INFINITY ? kMost : std::min(limit.rlim_cur, kMost);
    return static_cast<int>(open_files) - 64 - kRefusingAtMost -
           options.threads *
               (options.database_connections * (static_cast<int>(options.replica_dsns.size()) + 1) +
                2);
}

} // namespace

class ServerImpl
{
  public:
    explicit ServerImpl(ServerOptions options) : options_(std::move(options)), router_(metrics_)
    {
        if (options_.threads <= 0)
        {
            options_.threads =
                std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
        }
        RegisterAllRoutes(router_, metrics_, options_.health, [this] { return Stats(); });
        if (options_.auth == "ucan" && !options_.service_did.empty())
        {
            authorizer_ =
                std::make_unique<Authorizer>(options_.service_did, options_.dsn, metrics_);
            router_.SetAuthorizer(authorizer_.get());
        }
    }
    ~ServerImpl()
    {
        if (listen_fd_ >= 0)
        {
            close(listen_fd_);
        }
    }

    ConnectionStats Stats()
    {
        std::lock_guard<std::mutex> lock(loops_mutex_);
        ConnectionStats stats;
        stats.size = options_.threads * options_.database_connections *
                     (static_cast<int>(options_.replica_dsns.size()) + 1);
        for (const auto &loop : loops_)
        {
            auto one = loop->Stats();
            // Every loop has the same nodes, in the same order.
            if (stats.nodes.empty())
            {
                stats.nodes = one.nodes;
            }
            else
            {
                for (std::size_t i = 0; i < one.nodes.size() && i < stats.nodes.size(); i++)
                {
                    stats.nodes[i].requests += one.nodes[i].requests;
                    stats.nodes[i].failures += one.nodes[i].failures;
                    stats.nodes[i].ledger_index =
                        std::max(stats.nodes[i].ledger_index, one.nodes[i].ledger_index);
                }
            }
            stats.connected += one.connected;
            stats.in_flight += static_cast<long long>(one.in_flight);
            stats.connect_failures += one.connect_failures;
            stats.clients_open += one.clients_open;
            stats.clients_refused += one.clients_refused;
        }
        return stats;
    }

    ServerOptions options_;
    Metrics metrics_;
    Router router_;
    std::unique_ptr<Authorizer> authorizer_;
    int listen_fd_ = -1;
    int port_ = -1;
    std::mutex loops_mutex_;
    std::vector<std::unique_ptr<EventLoop>> loops_;
    bool stopped_ = false;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<ServerImpl>(std::move(options))) {}

Server::~Server()
{
    Stop();
}

bool Server::Bind()
{
    const auto &o = impl_->options_;
    if (o.auth == "ucan" && o.service_did.empty())
    {
        std::cerr << "permanode-serve: --auth ucan needs --service-did\n";
        return false;
    }
    int available = DescriptorsForClients(o);
    if (o.max_clients > available || available < 1)
    {
        rlimit limit{};
        getrlimit(RLIMIT_NOFILE, &limit);
        std::cerr << "permanode-serve: the open-file limit (ulimit -n " << limit.rlim_cur
                  << ") leaves descriptors for " << std::max(available, 0) << " client connections"
                  << (o.max_clients > 0
                          ? ", fewer than --max-clients " + std::to_string(o.max_clients)
                          : std::string())
                  << "; raise the limit" << (o.max_clients > 0 ? " or lower --max-clients" : "")
                  << "\n";
        return false;
    }
    auto fail = [&](const char *what)
    {
        std::cerr << "permanode-serve: cannot listen on " << o.host << ":" << o.port << " (" << what
                  << ": " << std::strerror(errno) << ")\n";
        if (impl_->listen_fd_ >= 0)
        {
            close(impl_->listen_fd_);
            impl_->listen_fd_ = -1;
        }
        return false;
    };
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(o.port));
    if (inet_pton(AF_INET, o.host.c_str(), &address.sin_addr) != 1)
    {
        errno = EINVAL;
        return fail("not an IPv4 address");
    }
    impl_->listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (impl_->listen_fd_ < 0)
    {
        return fail("socket");
    }
    int one = 1;
    setsockopt(impl_->listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(impl_->listen_fd_, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0)
    {
        return fail("bind");
    }
    if (listen(impl_->listen_fd_, SOMAXCONN) != 0)
    {
        return fail("listen");
    }
    socklen_t length = sizeof(address);
    getsockname(impl_->listen_fd_, reinterpret_cast<sockaddr *>(&address), &length);
    impl_->port_ = ntohs(address.sin_port);
    return true;
}

int Server::MaxClients() const
{
    const auto &o = impl_->options_;
    return o.max_clients > 0 ? o.max_clients : std::max(1, DescriptorsForClients(o));
}

int Server::Port() const
{
    return impl_->port_;
}

int Server::Threads() const
{
    return impl_->options_.threads;
}

bool Server::Listen()
{
    if (impl_->listen_fd_ < 0)
    {
        return false;
    }
    LoopOptions loop_options;
    loop_options.limits.max_body_bytes = impl_->options_.max_request_bytes;
    loop_options.log_requests = impl_->options_.log_requests;
    loop_options.database_connections = impl_->options_.database_connections;
    loop_options.replica_dsns = impl_->options_.replica_dsns;
    loop_options.replica_backoff_ms = impl_->options_.replica_backoff_ms;
    loop_options.statement_timeout_ms = impl_->options_.statement_timeout_ms;
    loop_options.max_clients = MaxClients();
    {
        std::lock_guard<std::mutex> lock(impl_->loops_mutex_);
        if (impl_->stopped_)
        {
            return true;
        }
        // The first loop accepts, and deals the connections out to all of them in turn.
        std::vector<EventLoop *> peers;
        for (int i = 0; i < impl_->options_.threads; i++)
        {
            impl_->loops_.push_back(std::make_unique<EventLoop>(i == 0 ? impl_->listen_fd_ : -1,
                                                                impl_->options_.dsn, impl_->router_,
                                                                loop_options));
            peers.push_back(impl_->loops_.back().get());
        }
        impl_->loops_[0]->SetPeers(peers);
    }
    // The first loop runs on this thread.
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < impl_->loops_.size(); i++)
    {
        threads.emplace_back([loop = impl_->loops_[i].get()] { loop->Run(); });
    }
    impl_->loops_[0]->Run();
    for (auto &thread : threads)
    {
        thread.join();
    }
    return true;
}

void Server::Stop()
{
    std::lock_guard<std::mutex> lock(impl_->loops_mutex_);
    impl_->stopped_ = true;
    for (auto &loop : impl_->loops_)
    {
        loop->Stop();
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
    // Idle keep-alive clients cost a descriptor each and nothing else: allow as many as the
    // system lets this process have (the soft limit is often 1024).
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max)
    {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    Server server(options);
    if (!server.Bind())
    {
        return 5;
    }
    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
    std::cerr << "permanode-serve: listening on http://" << options.host << ":" << server.Port()
              << " with " << server.Threads() << " event loop(s) (threads), each with "
              << options.database_connections << " pipelined database connection(s)"
              << (options.replica_dsns.empty()
                      ? std::string()
                      : " per node, reading from " + std::to_string(options.replica_dsns.size()) +
                            " replica(s) round robin (the primary when none answers)")
              << ", for at most " << server.MaxClients() << " client connections\n";
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
