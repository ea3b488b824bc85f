// permanode-serve: the HTTP API as a standalone program.
#include <CLI/CLI.hpp>

#include "server.hpp"

int main(int argc, char **argv)
{
    permanode::http::ServerOptions options;
    CLI::App app{"permanode HTTP API: IOTA core API v2 and indexer v1 over a permanode database"};
    app.add_option("--dsn", options.dsn,
                   "database to serve, logged in as a read-only role (see client/http/README.md)")
        ->required();
    app.add_option("--host", options.host, "address to listen on")->capture_default_str();
    app.add_option("--port", options.port, "port to listen on (0: any free port)")
        ->capture_default_str();
    app.add_option("--threads", options.threads, "event loops (threads); 0: one per two cores")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
    app.add_option("--connections", options.database_connections,
                   "pipelined database connections per event loop")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--statement-timeout", options.statement_timeout_ms,
                   "milliseconds a query may run before it is canceled (503); 0: no limit")
        ->check(CLI::Range(0, 86400000))
        ->capture_default_str();
    app.add_flag("--log-requests", options.log_requests, "log one line per request on stderr");
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError &e)
    {
        return app.exit(e);
    }
    return permanode::http::RunServer(options);
}
