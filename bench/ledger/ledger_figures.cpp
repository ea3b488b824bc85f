#include "ledger_figures.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "permanode/queries.hpp"

namespace permanode::bench
{
namespace
{

constexpr int kDeepKeys = 10;    // addresses whose 50th page is timed
constexpr int kDeepRepeats = 10; // timings of each 50th page
constexpr int kPageSize = 100;
constexpr int kDeepPage = 50;
constexpr int kPlans = 200; // planning time: median of this many plans

std::vector<std::string> Column(pqxx::connection &conn, const std::string &sql)
{
    std::vector<std::string> values;
    for (auto row : pqxx::nontransaction(conn).exec(sql))
        values.push_back(row[0].as<std::string>());
    return values;
}

std::string InSource(const KeySource &source)
{
    return fmt::format("ms_range_id >= {} AND ms_range_id < {}", source.first, source.end);
}

// Up to `n` values of `column` of `table` (rendered by `text`), sampled from the source's rows
// (popular keys as often as users ask for them); fewer than 10 throw when `required`, and are
// dropped otherwise.
std::vector<std::string> Sample(pqxx::connection &conn, const std::string &table,
                                const std::string &column, const std::string &text,
                                const KeySource &source, int n, bool required = true)
{
    std::string sql = fmt::format("SELECT {0} FROM permanode.{1} o TABLESAMPLE SYSTEM ({{pct}}) "
                                  "WHERE {2} IS NOT NULL AND {3}",
                                  text, table, column, InSource(source));
    if (source.only_there)
        sql += fmt::format(" AND NOT EXISTS (SELECT FROM permanode.{0} h WHERE h.{1} = o.{1} "
                           "AND h.ms_range_id >= {2})",
                           table, column, source.end);
    auto values = SampledColumn(conn, fmt::format("{} ORDER BY random() LIMIT {}", sql, n), 5);
    if (values.size() < 10 && required)
        throw std::runtime_error(fmt::format("too few keys of {}.{}", table, column));
    if (values.size() < 10)
        values.clear();
    return values;
}

client::OutputFilter AddressFilter(const std::string &address)
{
    client::OutputFilter f;
    f.address = address;
    return f;
}

// The addresses with the most outputs whose 50th page (the cursor the API hands out after
// their 49th) lies in the source's ranges.
void PickDeep(pqxx::connection &conn, client::Client &walker, const KeySource &source,
              LedgerKeys &k)
{
    for (const auto &address :
         Column(conn, fmt::format("SELECT address::text FROM permanode.basic_outputs WHERE "
                                  "address IS NOT NULL GROUP BY address HAVING count(*) > {} "
                                  "ORDER BY count(*) DESC LIMIT {}",
                                  kPageSize * kDeepPage, 2 * kDeepKeys)))
    {
        std::optional<client::Cursor> cursor;
        for (int page = 1; page < kDeepPage; page++)
            cursor = walker
                         .QueryOutputs(client::OutputKind::kBasic, AddressFilter(address), true,
                                       kPageSize, cursor)
                         .next;
        if (!cursor || cursor->ms_range_id < source.first || cursor->ms_range_id >= source.end)
            continue;
        k.deep_addresses.push_back(address);
        k.deep_cursors.push_back(*cursor);
        if (k.deep_addresses.size() == kDeepKeys)
            break;
    }
}

// Mean microseconds of each 50th page (one untimed pass first, then kDeepRepeats).
double TimeDeep(client::Client &c, const LedgerKeys &k)
{
    auto page = [&](size_t i)
    {
        return c.QueryOutputs(client::OutputKind::kBasic, AddressFilter(k.deep_addresses[i]), true,
                              kPageSize, k.deep_cursors[i]);
    };
    for (size_t i = 0; i < k.deep_addresses.size(); i++)
        page(i);
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < kDeepRepeats; r++)
        for (size_t i = 0; i < k.deep_addresses.size(); i++)
            if (page(i).items.size() != kPageSize)
                throw std::runtime_error("a 50th page came back short");
    return SecondsSince(start) / (kDeepRepeats * k.deep_addresses.size()) * 1e6;
}

// Median planning time (us) of a statement planned for each call's value, as the API plans
// its unnamed statements: EXPLAIN (SUMMARY) EXECUTE of it prepared, custom plans forced.
template <typename T> double PlanningTime(const std::string &dsn, const client::Query<T> &query)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    tx.exec(client::queries::SessionSetupSql());
    tx.exec0("SET plan_cache_mode = force_custom_plan");
    tx.exec0("PREPARE planned AS " + query.statement->sql);
    std::string execute = "EXPLAIN (SUMMARY) EXECUTE planned(";
    const auto &params = query.params.Pointers();
    for (size_t i = 0; i < params.size(); i++)
        execute += (i ? ", " : "") + (params[i] ? tx.quote(params[i]) : std::string("NULL"));
    execute += ")";
    std::vector<double> times;
    for (int i = 0; i < kPlans; i++)
        for (const auto &row : tx.exec(execute))
        {
            std::string line = row[0].as<std::string>();
            if (line.rfind("Planning Time: ", 0) == 0)
                times.push_back(std::stod(line.substr(15)) * 1000);
        }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

// The fresh-connection figures: each key's lookup as a new connection's first statement.
void MeasureFresh(const std::string &dsn, const LedgerKeys &k, int fresh_keys, LedgerFigures &f)
{
    using Lookup = std::function<bool(client::Client &, const std::string &)>;
    auto fresh = [&](const std::vector<std::string> &keys, const Lookup &run)
    {
        return TimeFirstOnNewConnections<client::Client>(
            keys, fresh_keys, [&] { return std::make_unique<client::Client>(dsn); }, run);
    };
    f.fresh_output = fresh(k.outputs, [](client::Client &c, const std::string &id)
                           { return c.GetOutput(id).has_value(); });
    f.fresh_block = fresh(k.blocks, [](client::Client &c, const std::string &id)
                          { return c.GetBlock(id).has_value(); });
    if (k.addresses.empty())
        return;
    f.fresh_address =
        fresh(k.addresses,
              [](client::Client &c, const std::string &address)
              {
                  return !c.QueryOutputs(client::OutputKind::kBasic, AddressFilter(address), true,
                                         kPageSize, std::nullopt)
                              .items.empty();
              });
}

} // namespace

std::vector<std::string> SampledColumn(pqxx::connection &conn, const std::string &sql, int percent)
{
    auto values = Column(conn, fmt::format(fmt::runtime(sql), fmt::arg("pct", percent)));
    if (values.size() < 10 && percent < 100)
        values = Column(conn, fmt::format(fmt::runtime(sql), fmt::arg("pct", 100)));
    return values;
}

LedgerKeys PickLedgerKeys(pqxx::connection &conn, client::Client &walker, const KeySource &source,
                          int points, int pages, bool strict)
{
    LedgerKeys k;
    int n = 2 * points;
    // Outputs of every kind, as many of each as it holds.
    k.outputs = SampledColumn(
        conn,
        fmt::format("SELECT output_id::text FROM (SELECT output_id, ms_range_id FROM "
                    "permanode.basic_outputs TABLESAMPLE SYSTEM ({{pct}}) UNION ALL SELECT "
                    "output_id, ms_range_id FROM permanode.alias_outputs TABLESAMPLE SYSTEM "
                    "({{pct}}) UNION ALL SELECT output_id, ms_range_id FROM permanode.nft_outputs "
                    "TABLESAMPLE SYSTEM ({{pct}})) o WHERE {} ORDER BY random() LIMIT {}",
                    InSource(source), n),
        2);
    k.blocks =
        Sample(conn, "messages", "message_id", "message_id::text", {source.first, source.end}, n);
    k.transactions =
        SampledColumn(conn,
                      fmt::format("SELECT transaction_id::text FROM "
                                  "permanode.transactions TABLESAMPLE SYSTEM ({{pct}}) "
                                  "WHERE inclusion_state = 1 AND {} "
                                  "ORDER BY random() LIMIT {}",
                                  InSource(source), n),
                      5);
    if (k.outputs.size() < 10 || k.transactions.size() < 10)
        throw std::runtime_error("too few outputs or transactions to sample");
    int p = 2 * pages;
    k.addresses = Sample(conn, "basic_outputs", "address", "address::text", source, p, strict);
    k.senders = Sample(conn, "basic_outputs", "sender", "sender::text", source, p, strict);
    k.tags = Sample(conn, "basic_outputs", "tag", "'0x' || encode(tag, 'hex')", source, p, strict);
    k.issuers = Sample(conn, "nft_outputs", "issuer", "issuer::text", source, p, strict);
    k.state_controllers = Sample(conn, "alias_outputs", "state_controller",
                                 "state_controller::text", source, p, strict);
    PickDeep(conn, walker, source, k);
    if (strict && k.deep_addresses.size() < 2)
        throw std::runtime_error("too few addresses with a 50th page in the sampled ranges");
    fmt::print(stderr,
               "keys of ranges [{}, {}): {} outputs, {} blocks, {} transactions, {} addresses "
               "({} with a 50th page), {} senders, {} tags, {} issuers, {} state controllers\n",
               source.first, source.end, k.outputs.size(), k.blocks.size(), k.transactions.size(),
               k.addresses.size(), k.deep_addresses.size(), k.senders.size(), k.tags.size(),
               k.issuers.size(), k.state_controllers.size());
    return k;
}

LedgerFigures MeasureLedger(const std::string &dsn, const LedgerKeys &k, int fresh_keys)
{
    client::Client c(dsn);
    LedgerFigures f;
    f.output =
        TimeEach(k.outputs, [&](const std::string &id) { return c.GetOutput(id).has_value(); });
    f.block = TimeEach(k.blocks, [&](const std::string &id) { return c.GetBlock(id).has_value(); });
    f.transaction =
        TimeEach(k.transactions, [&](const std::string &id)
                 { return c.Run(client::queries::TransactionBlockId(id)).has_value(); });
    auto first_page = [&](client::OutputKind kind, auto field)
    {
        return [&c, kind, field](const std::string &key)
        {
            client::OutputFilter filter;
            filter.*field = key;
            return !c.QueryOutputs(kind, filter, true, kPageSize, std::nullopt).items.empty();
        };
    };
    using F = client::OutputFilter;
    auto pages = [&](const std::vector<std::string> &keys, client::OutputKind kind, auto field)
    {
        return keys.empty() ? std::nullopt
                            : std::optional<double>(TimeEach(keys, first_page(kind, field)));
    };
    f.address = pages(k.addresses, client::OutputKind::kBasic, &F::address);
    f.sender = pages(k.senders, client::OutputKind::kBasic, &F::sender);
    f.tag = pages(k.tags, client::OutputKind::kBasic, &F::tag);
    f.issuer = pages(k.issuers, client::OutputKind::kNft, &F::issuer);
    f.state_controller =
        pages(k.state_controllers, client::OutputKind::kAlias, &F::state_controller);
    f.plan_output = PlanningTime(dsn, client::queries::Output(k.outputs.back()));
    if (!k.deep_addresses.empty())
    {
        f.deep = TimeDeep(c, k);
        f.plan_deep =
            PlanningTime(dsn, client::queries::Outputs(client::OutputKind::kBasic,
                                                       AddressFilter(k.deep_addresses[0]), true,
                                                       kPageSize, k.deep_cursors[0]));
    }
    MeasureFresh(dsn, k, fresh_keys, f);
    return f;
}

} // namespace permanode::bench
