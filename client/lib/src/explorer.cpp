// Explorer and analytics: balances, ledger updates by address and milestone, analytics.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// Ledger updates sort newest first, then by output ID and created/spent ('c'/'s'): that text
// key is the cursor's id.
const char *const kUpdateKey =
    "(output_id::text || CASE WHEN is_spent THEN 's' ELSE 'c' END) COLLATE \"C\"";

LedgerUpdate UpdateOf(const Row &row)
{
    LedgerUpdate update;
    update.output_id = row[0].as<std::string>();
    update.is_spent = row[1].as<bool>();
    update.milestone_index = row[2].as<std::int32_t>();
    update.milestone_timestamp = row[3].as<std::int64_t>();
    update.amount = row[4].is_null() ? 0 : row[4].as<std::int64_t>();
    return update;
}

MilestoneAnalytics AnalyticsOf(const Row &row)
{
    MilestoneAnalytics analytics;
    analytics.milestone_index = row[0].as<std::int32_t>();
    analytics.block_count = row[1].as<std::int32_t>();
    analytics.transaction_count = row[2].as<std::int32_t>();
    analytics.transferred_tokens = row[3].as<std::int64_t>();
    return analytics;
}

Query<Page<LedgerUpdate>> UpdatesQuery(std::shared_ptr<const Statement> statement, std::string key,
                                       int page_size, const std::optional<Cursor> &after)
{
    Query<Page<LedgerUpdate>> query;
    query.statement = std::move(statement);
    query.params.Add(std::move(key));
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.read = [page_size](const Result &result)
    {
        return MakePage<LedgerUpdate>(result, page_size, UpdateOf,
                                      [](const Row &row) { return CursorOf(row, 5, 8); });
    };
    return query;
}

// Columns: output_id, is_spent, milestone_index, unix time, amount, then the sort key
// (ms_range_id, µs, milestone_index) and its text id; `from` is the rows' subquery.
std::string UpdatesSql(const std::string &from)
{
    return "SELECT output_id::text, is_spent, milestone_index, "
           "extract(epoch FROM ms_timestamp)::bigint, amount, ms_range_id, " +
           Micros("ms_timestamp") + ", milestone_index, " + kUpdateKey + " FROM (" + from +
           ") u WHERE " +
           KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index", kUpdateKey,
                           "text") +
           " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, " + kUpdateKey +
           " DESC LIMIT $6";
}

std::string UpdatesByAddressSql()
{
    std::string created_by_address =
        "SELECT output_id, ms_range_id, ms_timestamp, milestone_index, amount "
        "FROM permanode.basic_outputs_by_address WHERE address = $1 UNION ALL "
        "SELECT output_id, ms_range_id, ms_timestamp, milestone_index, amount "
        "FROM permanode.nft_outputs_by_address WHERE address = $1";
    return UpdatesSql("WITH created AS (" + created_by_address +
                      ") SELECT output_id, false AS is_spent, ms_range_id, ms_timestamp, "
                      "milestone_index, amount FROM created UNION ALL SELECT c.output_id, "
                      "true, s.ms_range_id, s.ms_timestamp, s.milestone_index, c.amount "
                      "FROM created c JOIN permanode.spent_outputs s "
                      "ON s.output_id = c.output_id");
}

std::string UpdatesByMilestoneSql()
{
    std::string created_at;
    std::string all_created;
    for (const char *table : {"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs"})
    {
        std::string part = std::string("SELECT output_id, ms_range_id, ms_timestamp, "
                                       "milestone_index, amount FROM permanode.") +
                           table;
        created_at +=
            (created_at.empty() ? "" : " UNION ALL ") + part + " WHERE milestone_index = $1";
        all_created += (all_created.empty() ? "" : " UNION ALL ") + part;
    }
    return UpdatesSql("SELECT output_id, false AS is_spent, ms_range_id, ms_timestamp, "
                      "milestone_index, amount FROM (" +
                      created_at +
                      ") c UNION ALL SELECT s.output_id, true, s.ms_range_id, s.ms_timestamp, "
                      "s.milestone_index, (SELECT a.amount FROM (" +
                      all_created +
                      ") a WHERE a.output_id = s.output_id LIMIT 1) FROM permanode.spent_outputs "
                      "s WHERE s.milestone_index = $1");
}

} // namespace

namespace queries
{

Query<Balance> BalanceOf(const std::string &address, std::optional<std::int32_t> as_of)
{
    // One row per output kind held (at least one row, for the ledger index): the unspent set's
    // Stardust outputs now, or balance_at's at the end of milestone $2.
    static const auto now = MakeStatement(
        "balance",
        "SELECT (SELECT coalesce(max(milestone_index), 0) FROM permanode.milestone_protocols), k.* "
        "FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT output_kind, sum(amount)::bigint, "
        "coalesce(sum(amount) FILTER (WHERE dust_return_address IS NULL AND timelock IS NULL "
        "AND expiration IS NULL), 0)::bigint FROM permanode.unspent_outputs WHERE address = $1 "
        "AND output_kind <> 'legacy' GROUP BY output_kind ORDER BY output_kind) k ON true");
    static const auto at = MakeStatement(
        "balance_at", "SELECT $2::int, k.output_kind, k.balance::bigint, "
                      "k.sig_locked_balance::bigint FROM (SELECT 1) one LEFT JOIN LATERAL "
                      "(SELECT * FROM permanode.balance_at($1, $2::int)) k ON true");
    Query<Balance> query;
    query.statement = as_of ? at : now;
    query.params.Add(address);
    if (as_of)
    {
        query.params.AddInt(as_of);
    }
    query.read = [address](const Result &result)
    {
        Balance balance;
        balance.address = address;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            balance.ledger_index = row[0].as<std::int32_t>();
            if (row[1].is_null())
            {
                continue;
            }
            auto total = row[2].as<std::int64_t>();
            balance.by_kind.emplace_back(row[1].as<std::string>(), total);
            balance.total_balance += total;
            balance.sig_locked_balance += row[3].as<std::int64_t>();
        }
        return balance;
    };
    return query;
}

Query<Page<HeldOutput>> OutputsAt(const std::string &address, std::optional<std::int32_t> as_of,
                                  int page_size, const std::optional<Cursor> &after)
{
    // outputs_at()'s two parts, each in its own index order with the page's limit, merged: the
    // unspent set's outputs created by then, newest first; the retired ones alive then, newest
    // first from their span index (KNN, docs/AS_OF.md), then the page's oldest milestone's whole.
    // $2 the milestone (NULL: the newest held); $3-$6 the cursor; $7 the limit.
    static const auto statement = []
    {
        const std::string keyset =
            " AND ($3::int IS NULL OR (o.ms_timestamp, o.milestone_index, o.output_id) < "
            "(timestamptz 'epoch' + $4::bigint * interval '1 microsecond', $5::int, "
            "$6::permanode.output_id))";
        const std::string columns =
            "o.output_id, o.ms_timestamp, o.milestone_index, o.output_kind, o.amount";
        // The milestone, its era and time, the cursor's milestone and the address's hash, once.
        const std::string n =
            "WITH n AS MATERIALIZED (SELECT e.at, coalesce(permanode.protocol_at(e.at), 2) = 1 "
            "AS chrysalis, permanode.milestone_time(e.at) AS at_time, least(e.at, $5::int) AS "
            "upto, permanode.address_hash($1::permanode.address) AS h FROM (SELECT "
            "coalesce($2::int, (SELECT max(p.milestone_index) FROM "
            "permanode.milestone_protocols p)) AS at) e) ";
        const std::string unspent =
            "SELECT u.* FROM n CROSS JOIN LATERAL (SELECT " + columns +
            ", NULL::int AS spent_milestone_index FROM permanode.unspent_outputs o WHERE "
            "o.address = $1 AND o.ms_timestamp <= n.at_time AND o.milestone_index <= n.at AND "
            "(o.output_kind = 'legacy') = n.chrysalis" +
            keyset +
            " ORDER BY o.ms_timestamp DESC, o.milestone_index DESC, o.output_id DESC LIMIT $7) u";
        const std::string retired = RetiredNewestFirst(
            columns + ", o.spent_milestone_index",
            " AND o.address = $1 AND (o.output_kind = 'legacy') = (SELECT n.chrysalis FROM n)" +
                keyset,
            "permanode.span_point(permanode.address_hash(o.address), o.milestone_index, "
            "o.spent_milestone_index)",
            "(SELECT n.h FROM n)", "(SELECT n.at FROM n)", "(SELECT n.upto FROM n)", "$7");
        return MakeStatement("outputs_at_page",
                             n + "SELECT p.output_id::text, 0, " + Micros("p.ms_timestamp") +
                                 ", p.milestone_index, p.output_kind, p.amount, "
                                 "p.spent_milestone_index FROM (" +
                                 unspent + " UNION ALL " + retired +
                                 ") p ORDER BY p.ms_timestamp DESC, p.milestone_index DESC, "
                                 "p.output_id DESC LIMIT $7",
                             Plan::kGeneric, true);
    }();
    Query<Page<HeldOutput>> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.AddInt(as_of);
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.read = [page_size](const Result &result)
    {
        return MakePage<HeldOutput>(
            result, page_size,
            [](const Row &row)
            {
                HeldOutput held;
                held.output_id = row[0].as<std::string>();
                held.output_kind = row[4].as<std::string>();
                held.amount = row[5].as<std::int64_t>();
                held.milestone_index_booked = row[3].as<std::int32_t>();
                if (!row[6].is_null())
                {
                    held.milestone_index_spent = row[6].as<std::int32_t>();
                }
                return held;
            },
            [](const Row &row) { return CursorOf(row, 1, 0); });
    };
    return query;
}

Query<Page<LedgerUpdate>> LedgerUpdatesByAddress(const std::string &address, int page_size,
                                                 const std::optional<Cursor> &after)
{
    static const auto statement = MakeStatement("ledger_updates_by_address", UpdatesByAddressSql());
    return UpdatesQuery(statement, address, page_size, after);
}

Query<Page<LedgerUpdate>> LedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                   const std::optional<Cursor> &after)
{
    static const auto statement =
        MakeStatement("ledger_updates_by_milestone", UpdatesByMilestoneSql());
    return UpdatesQuery(statement, std::to_string(milestone_index), page_size, after);
}

Query<std::optional<MilestoneAnalytics>> AnalyticsAt(std::int32_t milestone_index)
{
    static const auto statement =
        MakeStatement("milestone_analytics", "SELECT milestone_index, message_count, "
                                             "transaction_count, transferred_tokens FROM "
                                             "permanode.ms_analytics WHERE milestone_index = $1 "
                                             "LIMIT 1");
    Query<std::optional<MilestoneAnalytics>> query;
    query.statement = statement;
    query.params.Add(std::to_string(milestone_index));
    query.read = [](const Result &result) { return FirstRow(result, AnalyticsOf); };
    return query;
}

Query<std::vector<DailyAnalytics>> DailyAnalyticsBetween(const std::string &from_date,
                                                         const std::string &to_date)
{
    // Rolled-up days, and days metrics_cache holds that are not rolled up yet.
    static const auto statement = MakeStatement(
        "daily_analytics",
        "SELECT date::text, total_addresses, send_addresses, recv_addresses "
        "FROM permanode.daily_analytics WHERE date BETWEEN $1::date AND $2::date "
        "UNION ALL SELECT m.date::text, count(*) FILTER (WHERE m.metric = 'sent_or_received'), "
        "count(*) FILTER (WHERE m.metric = 'sent'), count(*) FILTER (WHERE m.metric = "
        "'received') FROM permanode.metrics_cache m WHERE m.date BETWEEN $1::date AND $2::date "
        "AND m.variant = 'address' AND NOT EXISTS (SELECT 1 FROM permanode.daily_analytics d "
        "WHERE d.date = m.date) GROUP BY m.date ORDER BY 1");
    Query<std::vector<DailyAnalytics>> query;
    query.statement = statement;
    query.params.Add(from_date);
    query.params.Add(to_date);
    query.read = [](const Result &result)
    {
        std::vector<DailyAnalytics> days;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            DailyAnalytics day;
            day.date = row[0].as<std::string>();
            day.total_addresses = row[1].as<std::int32_t>();
            day.send_addresses = row[2].as<std::int32_t>();
            day.recv_addresses = row[3].as<std::int32_t>();
            days.push_back(day);
        }
        return days;
    };
    return query;
}

} // namespace queries

Balance Client::GetBalance(const std::string &address)
{
    return Run(queries::BalanceOf(address));
}

Balance Client::GetBalanceAt(const std::string &address, std::int32_t milestone_index)
{
    return Run(queries::BalanceOf(address, milestone_index));
}

Page<HeldOutput> Client::GetOutputsAt(const std::string &address,
                                      std::optional<std::int32_t> milestone_index, int page_size,
                                      const std::optional<Cursor> &after)
{
    return Run(queries::OutputsAt(address, milestone_index, page_size, after));
}

Page<LedgerUpdate> Client::GetLedgerUpdatesByAddress(const std::string &address, int page_size,
                                                     const std::optional<Cursor> &after)
{
    return Run(queries::LedgerUpdatesByAddress(address, page_size, after));
}

Page<LedgerUpdate> Client::GetLedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                       const std::optional<Cursor> &after)
{
    return Run(queries::LedgerUpdatesByMilestone(milestone_index, page_size, after));
}

std::optional<MilestoneAnalytics> Client::GetMilestoneAnalytics(std::int32_t milestone_index)
{
    return Run(queries::AnalyticsAt(milestone_index));
}

std::vector<DailyAnalytics> Client::GetDailyAnalytics(const std::string &from_date,
                                                      const std::string &to_date)
{
    return Run(queries::DailyAnalyticsBetween(from_date, to_date));
}

} // namespace permanode::client
