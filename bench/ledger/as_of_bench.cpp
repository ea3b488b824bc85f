// Issue 24's figures: the ledger as of a past milestone against the same question now, through
// the client library's own queries, on a generated Stardust ledger of >= 5M outputs
// (PERMANODE_BENCH_SCALE scales it):
//   - an address's balance (explorer, per kind) at a milestone deep in history (5% in),
//     halfway and just before the newest (where the most outputs are held then), against its
//     balance now (the unspent set);
//   - the first page (100) of an address's basic outputs (indexer) at those milestones, against
//     the same page now.
// Targets: <= 3x. The addresses are sampled from outputs held both now and at the deep
// milestone, so every question has an answer at both times. Also reported: the size of
// retired_outputs and its span indexes against the unspent set's.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "generated_ledger.hpp"
#include "permanode/client.hpp"

using namespace permanode;
using namespace permanode::bench;

namespace
{

constexpr int kPageSize = 100;

void Log(const std::string &line)
{
    fmt::print(stderr, "as_of: {}\n", line);
}

client::OutputFilter AddressAt(const std::string &address, std::optional<std::int32_t> at)
{
    client::OutputFilter filter;
    filter.address = address;
    filter.as_of = at;
    return filter;
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        double scale = BenchScale();
        // The ledger bench's mix: ~460 outputs per milestone, 11,500 milestones give > 5M.
        int milestones = std::max(1000, static_cast<int>(11500 * scale));
        std::string db;
        if (std::getenv("PERMANODE_BENCH_KEEP_LEDGER") != nullptr)
        {
            // The ledger of an earlier run at the same scale, for trying a query change.
            db = dsn + " dbname=bench_as_of";
        }
        else
        {
            db = CreateLedgerDatabase(dsn, "bench_as_of", std::max(1, milestones / 500));
            GenerateAndIngest(PERMANODE_CLI_PATH, db, milestones);
        }
        pqxx::connection conn(db);
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");

        auto sizes = pqxx::nontransaction(conn).exec1(
            "SELECT (SELECT count(*) FROM permanode.unspent_outputs), "
            "(SELECT count(*) FROM permanode.retired_outputs), "
            "pg_total_relation_size('permanode.unspent_outputs'), "
            "pg_total_relation_size('permanode.retired_outputs'), "
            "pg_indexes_size('permanode.retired_outputs')");
        long unspent = sizes[0].as<long>(), retired = sizes[1].as<long>();
        Log(fmt::format("{} outputs unspent, {} retired; unspent set {} MB, retired_outputs {} "
                        "MB ({} MB of it indexes)",
                        unspent, retired, sizes[2].as<long>() >> 20, sizes[3].as<long>() >> 20,
                        sizes[4].as<long>() >> 20));
        PrintRatio("as-of: retired_outputs bytes per row / unspent set bytes per row (report)",
                   sizes[3].as<double>() / retired, sizes[2].as<double>() / unspent, "report");

        const std::int32_t deep = milestones / 20, half = milestones / 2, last = milestones - 1;
        std::vector<std::string> addresses = SampleKeys(
            conn, fmt::format("SELECT DISTINCT address::text FROM (SELECT address FROM "
                              "permanode.unspent_outputs TABLESAMPLE SYSTEM (5) WHERE "
                              "output_kind = 'basic' AND milestone_index <= {} LIMIT 400) s",
                              deep));
        Log(fmt::format("{} addresses, deep milestone {}, half {} of {}", addresses.size(), deep,
                        half, milestones));

        client::Client c(db);
        double now = TimeEach(addresses, [&](const std::string &a)
                              { return c.GetBalance(a).total_balance > 0; });
        for (auto [label, at] : {std::pair<const char *, std::int32_t>{"5% in", deep},
                                 {"halfway", half},
                                 {"before the newest", last}})
        {
            double then = TimeEach(addresses, [&, at = at](const std::string &a)
                                   { return c.GetBalanceAt(a, at).total_balance > 0; });
            PrintRatio(fmt::format("as-of: an address's balance at a milestone {} vs now, {}M "
                                   "outputs (us)",
                                   label, (unspent + retired) / 100000 / 10.0),
                       then, now, "<=3");
        }

        double page_now = TimeEach(addresses,
                                   [&](const std::string &a)
                                   {
                                       return !c.QueryOutputs(client::OutputKind::kBasic,
                                                              AddressAt(a, std::nullopt), false,
                                                              kPageSize, std::nullopt)
                                                   .items.empty();
                                   });
        for (auto [label, at] : {std::pair<const char *, std::int32_t>{"5% in", deep},
                                 {"halfway", half},
                                 {"before the newest", last}})
        {
            double page_then =
                TimeEach(addresses,
                         [&, at = at](const std::string &a)
                         {
                             return !c.QueryOutputs(client::OutputKind::kBasic, AddressAt(a, at),
                                                    false, kPageSize, std::nullopt)
                                         .items.empty();
                         });
            PrintRatio(fmt::format("as-of: first indexer page (100) by address at a milestone "
                                   "{} vs now (us)",
                                   label),
                       page_then, page_now, "<=3");
        }
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "as_of_bench: {}\n", e.what());
        return 1;
    }
}
