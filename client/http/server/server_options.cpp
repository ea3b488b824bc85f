#include "server/server_options.hpp"

namespace permanode::http
{

void AddServerOptions(CLI::App &app, ServerOptions &options)
{
    app.add_option("--host", options.host, "Address to listen on")->capture_default_str();
    app.add_option("--port", options.port, "Port to listen on (0: any free port)")
        ->capture_default_str();
    app.add_option("--threads", options.threads, "Event loops (threads); 0: one per two cores")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
    app.add_option("--connections", options.database_connections,
                   "Pipelined database connections per event loop")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--statement-timeout", options.statement_timeout_ms,
                   "Milliseconds a query may run before it is canceled (503); 0: no limit")
        ->check(CLI::Range(0, 86400000))
        ->capture_default_str();
    app.add_option("--max-clients", options.max_clients,
                   "Client connections served at once (503 beyond); 0: as many as the open-file "
                   "limit allows")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    app.add_option("--replica", options.replica_dsns,
                   "A streaming replica of the primary (libpq connection string; repeatable): "
                   "requests read from the replicas round robin, the primary when none answers")
        ->take_all()
        ->allow_extra_args(false);
    app.add_option("--replica-backoff", options.replica_backoff_ms,
                   "Milliseconds a replica that failed is left alone before it is tried again")
        ->check(CLI::Range(0, 3600000))
        ->capture_default_str();
    app.add_flag("--log-requests", options.log_requests, "One line per request on stderr");
    app.add_option("--auth", options.auth,
                   "none, or ucan: every request needs `Authorization: Bearer` and a UCAN chain "
                   "granting archive/read on --service-did to a space that consumes it")
        ->check(CLI::IsMember({"none", "ucan"}))
        ->capture_default_str();
    app.add_option("--sync-max-lag", options.health.max_lag,
                   "Milestones the archive may be behind a node that `permanode sync` follows "
                   "before /health answers 503")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--sync-max-silence", options.health.max_silence_s,
                   "Seconds a running `permanode sync` may go without reporting before /health "
                   "answers 503 (it was killed, or is stuck)")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    app.add_option("--service-did", options.service_did,
                   "The service's (and provider's) DID, the audience of the UCANs (--auth ucan)");
}

} // namespace permanode::http
