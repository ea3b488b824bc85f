// Analytics for the explorer's overview: blocks, transactions and tokens moved per milestone and
// per day with the active addresses per day, of every era held, the tiers of the ledger's ranges
// and the legacy era's months, and an address's balance over time. Each route runs one statement
// over the rollup tables that ingest fills (ms_analytics, date_cache, daily_analytics,
// metrics_cache, address_analytics, and legacy's milestone_analytics, daily_analytics and
// daily_addresses) or the views permanode.status and legacy.status, and the statement itself
// writes the JSON the route answers.
#include <httplib.h>

#include "server/params.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kAnalytics = "/api/analytics/v2";

// At most this many points per milestone series: milestones held next to each other are
// summed into buckets.
constexpr int kMilestonePoints = 400;

client::Query<std::string> JsonQuery(const std::shared_ptr<const client::Statement> &statement)
{
    client::Query<std::string> query;
    query.statement = statement;
    query.read = [](const client::Result &result)
    { return result.Rows() == 0 ? std::string("null") : std::string(result.Text(0, 0)); };
    return query;
}

std::shared_ptr<const client::Statement> MakeStatement(std::string name, std::string sql)
{
    return std::make_shared<const client::Statement>(
        client::Statement{std::move(name), std::move(sql), client::Plan::kCustom});
}

void SendJsonText(httplib::Response &response, const std::string &json)
{
    response.status = 200;
    response.set_content(json, "application/json");
}

// Milestones held, per era in order (legacy, Chrysalis, Stardust), summed into buckets of as many
// milestones each, at most $1 in all (eras and gaps far apart take no room; a bucket never spans
// two eras). Per day: the ledger's days from date_cache's first and last milestone of each day
// (the day's era that of its last milestone), with the active addresses from daily_analytics or,
// for days not rolled up yet (rollup_daily_analytics), from that day's rows of metrics_cache (as
// /daily counts them), each day an index range of its own, so rolled-up days cost no scan; the
// legacy era's days from legacy.daily_analytics, its addresses counted from daily_addresses for
// the days not rolled up. In the legacy era, blocks are its transactions and transactions those
// that move value. Token amounts are strings (beyond 2^53).
const char *const kOverviewSql = R"sql(
WITH eras AS (
    SELECT CASE p.protocol_version WHEN 1 THEN 'chrysalis' ELSE 'stardust' END AS era,
           coalesce(p.protocol_version, 2) AS era_order, a.milestone_index,
           a.message_count AS blocks, a.transaction_count AS transactions,
           a.transferred_tokens::numeric AS tokens
    FROM permanode.ms_analytics a
    LEFT JOIN permanode.milestone_protocols p ON p.milestone_index = a.milestone_index
    UNION ALL
    SELECT 'legacy', 0, m.milestone_index, m.transactions, m.value_transactions, m.tokens
    FROM legacy.milestone_analytics m),
numbered AS (
    SELECT e.*, row_number() OVER (PARTITION BY era_order ORDER BY milestone_index) - 1 AS n,
           greatest(1, ceil(count(*) OVER () / $1::numeric))::int AS width
    FROM eras e),
per_ms AS (
    SELECT era, era_order, n / width AS bucket, min(milestone_index) AS first,
           max(milestone_index) AS last, count(*) AS milestones, sum(blocks) AS blocks,
           sum(transactions) AS transactions, sum(tokens) AS tokens
    FROM numbered GROUP BY era, era_order, n / width),
per_day AS (
    SELECT d.date, count(*) AS milestones, sum(a.message_count) AS blocks,
           sum(a.transaction_count) AS transactions, sum(a.transferred_tokens) AS tokens
    FROM permanode.date_cache d
    JOIN permanode.ms_analytics a ON a.milestone_index BETWEEN d.start_ms AND d.end_ms
    GROUP BY d.date),
active AS (
    SELECT date, total_addresses, send_addresses, recv_addresses FROM permanode.daily_analytics
    UNION ALL
    SELECT c.date, x.* FROM permanode.date_cache c
    CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE m.metric = 'sent_or_received'),
               count(*) FILTER (WHERE m.metric = 'sent'), count(*) FILTER (WHERE m.metric = 'received')
        FROM permanode.metrics_cache m WHERE m.date = c.date AND m.variant = 'address') x
    WHERE NOT EXISTS (SELECT 1 FROM permanode.daily_analytics d WHERE d.date = c.date)),
days AS (
    SELECT coalesce(p.date, a.date) AS date,
           CASE e.protocol_version WHEN 1 THEN 'chrysalis' ELSE 'stardust' END AS era,
           coalesce(e.protocol_version, 2) AS era_order, coalesce(p.milestones, 0) AS milestones,
           coalesce(p.blocks, 0) AS blocks, coalesce(p.transactions, 0) AS transactions,
           coalesce(p.tokens, 0) AS tokens, coalesce(a.total_addresses, 0) AS active,
           coalesce(a.send_addresses, 0) AS sending, coalesce(a.recv_addresses, 0) AS receiving
    FROM per_day p FULL JOIN active a ON a.date = p.date
    LEFT JOIN permanode.date_cache c ON c.date = coalesce(p.date, a.date)
    LEFT JOIN permanode.milestone_protocols e ON e.milestone_index = c.end_ms
    UNION ALL
    SELECT l.date, 'legacy', 0, l.milestones, l.transactions, l.value_transactions, l.tokens,
           coalesce(x.total, l.total_addresses), coalesce(x.sent, l.send_addresses),
           coalesce(x.received, l.recv_addresses)
    FROM legacy.daily_analytics l
    LEFT JOIN LATERAL (
        SELECT count(*) AS total, count(*) FILTER (WHERE d.sent) AS sent,
               count(*) FILTER (WHERE d.received) AS received
        FROM legacy.daily_addresses d WHERE d.date = l.date AND NOT l.rolled_up) x ON NOT l.rolled_up)
SELECT json_build_object(
    'bucketWidth', coalesce((SELECT max(width) FROM numbered), 1),
    'milestones', coalesce((SELECT json_agg(json_build_object(
        'era', era, 'first', first, 'last', last, 'milestones', milestones, 'blocks', blocks,
        'transactions', transactions, 'tokens', tokens::text) ORDER BY era_order, bucket)
        FROM per_ms), '[]'),
    'days', coalesce((SELECT json_agg(json_build_object(
        'date', date::text, 'era', era, 'milestones', milestones, 'blocks', blocks,
        'transactions', transactions, 'tokens', tokens::text, 'activeAddresses', active,
        'sendAddresses', sending, 'receiveAddresses', receiving) ORDER BY date, era_order)
        FROM days), '[]'))::text
)sql";

// permanode.status summed over the tables per range and tier (an archive or a remote run may
// span several ranges), after legacy.status's months per tier (era legacy: fromRange and toRange
// are month ids); the pending tier has from_range 2147483647 and no to_range. A label names the
// range as people read it: 17, 17-18, 2017-11, pending.
const char *const kTiersSql = R"sql(
WITH ranges AS (
    SELECT 'ledger' AS era, 1 AS era_order, from_range, to_range, tier, max(server) AS server,
           count(*) AS tables, sum(rows)::bigint AS rows, sum(bytes)::bigint AS bytes,
           CASE WHEN to_range IS NULL THEN 'pending'
                WHEN to_range - from_range > 1 THEN format('%s–%s', from_range, to_range - 1)
                ELSE from_range::text END AS label
    FROM permanode.status GROUP BY from_range, to_range, tier
    UNION ALL
    SELECT 'legacy', 0, from_month, to_month, tier, NULL, count(*), sum(rows)::bigint,
           sum(bytes)::bigint,
           CASE WHEN to_month - from_month > 1
                THEN format('%s–%s', legacy.month_name(from_month), legacy.month_name(to_month - 1))
                ELSE legacy.month_name(from_month) END
    FROM legacy.status GROUP BY from_month, to_month, tier)
SELECT coalesce(json_agg(json_build_object(
    'era', era, 'label', label, 'fromRange', from_range, 'toRange', to_range, 'tier', tier,
    'server', server, 'tables', tables, 'rows', rows, 'bytes', bytes)
    ORDER BY era_order, from_range, tier), '[]')::text
FROM ranges
)sql";

// An address's tokens received and sent per milestone (address_analytics, found through its
// hints), and its net flow: received less sent up to that milestone, from the first milestone
// held (outputs of a genesis snapshot are not in address_analytics, so a page anchors the net
// flow on the current balance); the newest $2 milestones, oldest first.
const char *const kBalanceHistorySql = R"sql(
SELECT coalesce(json_agg(json_build_object(
    'milestoneIndex', milestone_index, 'received', received::text, 'sent', sent::text,
    'netFlow', net_flow::text) ORDER BY milestone_index), '[]')::text
FROM (SELECT milestone_index, recv_tokens AS received, sent_tokens AS sent,
             sum(recv_tokens - sent_tokens) OVER (ORDER BY milestone_index) AS net_flow
      FROM permanode.address_analytics WHERE address = $1
      ORDER BY milestone_index DESC LIMIT $2) h
)sql";

Task<> Overview(const httplib::Request &, httplib::Response &response, Db &db, const PathParams &)
{
    static const auto statement = MakeStatement("analytics_overview", kOverviewSql);
    auto query = JsonQuery(statement);
    query.params.Add(std::to_string(kMilestonePoints));
    SendJsonText(response, co_await db.Run(std::move(query)));
}

Task<> Tiers(const httplib::Request &, httplib::Response &response, Db &db, const PathParams &)
{
    static const auto statement = MakeStatement("analytics_tiers", kTiersSql);
    SendJsonText(response, "{\"ranges\":" + co_await db.Run(JsonQuery(statement)) + "}");
}

Task<> BalanceHistory(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    static const auto statement = MakeStatement("analytics_balance_history", kBalanceHistorySql);
    auto address = AddressParam(path[0], "address");
    int count = PageSize(request);
    auto query = JsonQuery(statement);
    query.params.Add(address);
    query.params.Add(std::to_string(count));
    SendJsonText(response, "{\"address\":\"" + address +
                               "\",\"history\":" + co_await db.Run(std::move(query)) + "}");
}

} // namespace

void RegisterAnalyticsRoutes(Router &router)
{
    router.Get({kAnalytics + "/overview", "explorer",
                "Blocks, transactions and tokens moved per milestone (the milestones held summed "
                "in order, per era, into about 400 buckets) and per day, with the active "
                "addresses per day, of every era held (era: legacy, chrysalis or stardust; in "
                "the legacy era, blocks are its transactions and transactions those moving "
                "value)"},
               Overview);
    router.Get({kAnalytics + "/tiers", "explorer",
                "Rows and bytes of the ledger's ranges per tier (hot, cold or remote), summed "
                "over the tables (permanode.status), and of the legacy era's months "
                "(legacy.status; era legacy, fromRange and toRange month ids), each with a "
                "label"},
               Tiers);
    router.Get({kAnalytics + "/addresses/{address}/balance-history",
                "explorer",
                "An address's tokens received and sent per milestone and its net flow (received "
                "less sent since the first milestone held), the newest milestones (pageSize, "
                "default 100, at most 1000), oldest first",
                {{"pageSize", "integer", "how many milestones: 1 to 1000, default 100"}}},
               BalanceHistory);
}

} // namespace permanode::http
