// `permanode serve`: the HTTP API (core v2, indexer v1, seed 000, explorer) over an archive.
#include "commands.hpp"

#include "embedded_cluster.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "server/server_options.hpp"

namespace permanode::cli
{
namespace
{

// The read-only login the server uses on the embedded cluster.
constexpr const char *kHttpRole = "permanode_http";

// Starts the embedded cluster if needed and returns a DSN that logs in as a reader only.
std::string EmbeddedReaderDsn(const CommonOptions &common)
{
    EmbeddedCluster cluster = StartedEmbeddedCluster(common);
    {
        pqxx::connection admin(cluster.Dsn());
        pqxx::nontransaction tx(admin);
        if (tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", kHttpRole).empty())
            tx.exec0(fmt::format("CREATE ROLE {} LOGIN IN ROLE permanode_reader",
                                 tx.quote_name(kHttpRole)));
    }
    return fmt::format("host=127.0.0.1 port={} user={} dbname={}", cluster.Port(), kHttpRole,
                       EmbeddedCluster::kDatabase);
}

} // namespace

void RegisterServeCommand(CLI::App &app, CommonOptions &common)
{
    static http::ServerOptions options;
    auto *serve = app.add_subcommand(
        "serve", "Serve the HTTP API (IOTA core v2, indexer v1, seed 000 routes, explorer)");
    serve->add_option("--dsn", common.dsn,
                      "libpq connection string of a read-only login (default: the embedded "
                      "cluster, as role permanode_http)");
    serve->add_option("--dir", common.dir, "Embedded cluster directory");
    http::AddServerOptions(*serve, options);
    serve->callback(
        [&]
        {
            options.dsn = common.dsn.empty() ? EmbeddedReaderDsn(common) : common.dsn;
            int rc = http::RunServer(options);
            if (rc != 0)
                throw CLI::RuntimeError(rc);
        });
}

} // namespace permanode::cli
