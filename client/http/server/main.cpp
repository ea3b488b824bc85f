// permanode-serve: the HTTP API as a standalone program.
#include <CLI/CLI.hpp>

#include "server/server_options.hpp"

int main(int argc, char **argv)
{
    permanode::http::ServerOptions options;
    CLI::App app{"permanode HTTP API: IOTA core API v2 and indexer v1 over a permanode database"};
    app.add_option("--dsn", options.dsn,
                   "database to serve, logged in as a read-only role (see client/http/README.md)")
        ->required();
    permanode::http::AddServerOptions(app, options);
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
