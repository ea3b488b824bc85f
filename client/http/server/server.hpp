// permanode HTTP API: the IOTA core API v2 and indexer v1 shapes, seed 000's routes and explorer
// extras, over a read-only pool of database connections.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace permanode::http
{

// What health asks of a sync that follows a node (permanode.sync_health).
struct HealthLimits
{
    int max_lag = 3;        // milestones the archive may be behind the node
    int max_silence_s = 30; // seconds a running sync may go without reporting
};

struct ServerOptions
{
    std::string dsn; // the primary: a login with permanode_reader's rights only
    // Streaming replicas of the primary (same login): requests read from them round robin; one
    // that fails is left alone for replica_backoff_ms, and with none left the primary serves.
    std::vector<std::string> replica_dsns;
    int replica_backoff_ms = 5000;
    std::string host = "127.0.0.1";
    int port = 8080;                  // 0: any free port (see Server::Port)
    int threads = 0;                  // event loops (threads); 0: one per two cores
    int database_connections = 4;     // pipelined database connections per event loop
    int statement_timeout_ms = 30000; // a query running longer is canceled: 503
    int max_clients = 0; // open client connections at most (503 beyond); 0: the open-file limit's
    std::size_t max_request_bytes = 1000000; // IRI's maxBodyLength: a batch of 1000 addresses
    bool log_requests = false;               // one line per request on stderr
    // "ucan": every request needs a UCAN granting archive/read on service_did (auth.hpp).
    std::string auth = "none";
    std::string service_did;
    HealthLimits health;
};

class ServerImpl;

// A server that can be started and stopped in-process (tests; RunServer uses it too).
class Server
{
  public:
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    // Binds the port; false (with a message on stderr) when it cannot, or when the open-file limit
    // leaves too few descriptors for max_clients.
    bool Bind();
    // The client connections it serves at once.
    int MaxClients() const;
    // The bound port.
    int Port() const;
    // Event loops (threads) it runs.
    int Threads() const;
    // Serves until Stop(); returns false if listening failed.
    bool Listen();
    void Stop();

  private:
    std::unique_ptr<ServerImpl> impl_;
};

// Raises the open-file limit to its hard limit, then serves until SIGINT or SIGTERM. Returns a
// process exit code: 0 after a signal, 5 when it cannot serve (see Bind).
int RunServer(const ServerOptions &options);

} // namespace permanode::http
