#include "generated_ledger.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"

namespace permanode::bench
{

std::string CreateLedgerDatabase(const std::string &dsn, const std::string &name, int chunk_size)
{
    {
        pqxx::connection admin(dsn);
        pqxx::nontransaction tx(admin);
        tx.exec0(fmt::format("DROP DATABASE IF EXISTS {}", tx.quote_name(name)));
        tx.exec0(fmt::format("CREATE DATABASE {}", tx.quote_name(name)));
    }
    std::string db_dsn = dsn + " dbname=" + name;
    pqxx::connection conn(db_dsn);
    pqxx::nontransaction tx(conn);
    tx.exec0("CREATE EXTENSION permanode CASCADE");
    tx.exec("SELECT permanode.init('shimmer')");
    tx.exec(fmt::format("SELECT count(permanode.set_chunk_size(table_name, {})) "
                        "FROM permanode.ledger_tables",
                        chunk_size));
    return db_dsn;
}

void GenerateAndIngest(const std::string &cli, const std::string &db_dsn, int milestones,
                       const std::string &protocol)
{
    std::string command =
        fmt::format("'{0}' generate --protocol {3} --milestones {1} --tx-share 0.9 "
                    "--outputs-per-transaction 8-16 --blocks-per-milestone 80-90 --seed 5 | "
                    "'{0}' ingest --jobs 2 --dsn '{2}' - >/dev/null",
                    cli, milestones, db_dsn, protocol);
    auto start = std::chrono::steady_clock::now();
    if (std::system(command.c_str()) != 0)
        throw std::runtime_error("generate | ingest failed");
    fmt::print(stderr, "ledger: generated and ingested {} {} milestones in {:.0f} s\n", milestones,
               protocol, SecondsSince(start));
}

} // namespace permanode::bench
