// inx-chronicle's per-milestone measurements (permanode.milestone_measurements, kept by ingest
// and `permanode analytics --fill`) and the active addresses per day, week and month, under
// /api/analytics/v2. One statement per answer; the statement writes the JSON. Token amounts are
// strings (beyond 2^53); a figure the milestone's protocol lacks is null.
#include <httplib.h>

#include <map>

#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

const std::string kAnalytics = "/api/analytics/v2";
constexpr int kMaxMilestones = 1000;

// Each measurement's fields, as json_build_object's arguments over milestone_measurements m.
const std::map<std::string, std::string> &Measurements()
{
    static const std::map<std::string, std::string> fields = {
        {"block-activity",
         "'noPayload', m.blocks_no_payload, 'taggedData', m.blocks_tagged_data, 'transaction', "
         "m.blocks_transaction, 'milestone', m.blocks_milestone, 'treasuryTransaction', "
         "m.blocks_treasury, 'confirmedTransactions', m.transactions_included, "
         "'conflictingTransactions', m.transactions_conflicting"},
        {"milestone-size",
         "'totalBytes', m.bytes_total, 'taggedDataBytes', m.bytes_tagged_data, "
         "'transactionBytes', m.bytes_transaction, 'milestoneBytes', m.bytes_milestone, "
         "'treasuryTransactionBytes', m.bytes_treasury"},
        {"transaction-size", "'inputBuckets', m.input_buckets, 'outputBuckets', m.output_buckets"},
        {"base-token-activity", "'bookedAmount', m.booked_amount::text, 'transferredAmount', "
                                "m.transferred_amount::text"},
        {"active-addresses", "'count', m.active_addresses"},
        {"address-balance",
         "'addressesWithBalance', m.addresses_with_balance, 'distribution', (SELECT "
         "json_agg(json_build_object('magnitude', u.i - 1, 'addresses', u.a, 'amount', "
         "u.t::text) ORDER BY u.i) FROM unnest(m.balance_bucket_addresses, "
         "m.balance_bucket_amounts) WITH ORDINALITY AS u(a, t, i))"},
        {"output-activity",
         "'alias', json_build_object('created', m.alias_created, 'stateChanged', "
         "m.alias_state_changed, 'governorChanged', m.alias_governor_changed, 'destroyed', "
         "m.alias_destroyed), 'nft', json_build_object('created', m.nft_created, 'transferred', "
         "m.nft_transferred, 'destroyed', m.nft_destroyed), 'foundry', json_build_object("
         "'created', m.foundry_created, 'transferred', m.foundry_transferred, 'destroyed', "
         "m.foundry_destroyed)"},
        {"ledger-outputs",
         "'basic', json_build_object('count', m.basic_count, 'amount', m.basic_amount::text), "
         "'alias', json_build_object('count', m.alias_count, 'amount', m.alias_amount::text), "
         "'foundry', json_build_object('count', m.foundry_count, 'amount', "
         "m.foundry_amount::text), 'nft', json_build_object('count', m.nft_count, 'amount', "
         "m.nft_amount::text), 'dustAllowance', json_build_object('count', "
         "m.dust_allowance_count, 'amount', m.dust_allowance_amount::text)"},
        // the storage deposit: the rent structure in force weighs the bytes (TIP-19)
        {"ledger-size",
         "'totalKeyBytes', m.key_bytes, 'totalDataBytes', m.data_bytes, "
         "'totalStorageDepositAmount', (SELECT ((m.key_bytes * (r->>'vByteFactorKey')::numeric + "
         "m.data_bytes * (r->>'vByteFactorData')::numeric) * (r->>'vByteCost')::numeric)::text "
         "FROM (SELECT permanode.protocol_parameters_at(m.milestone_index)->'rentStructure' AS r) "
         "x)"},
        {"protocol-parameters",
         "'parameters', permanode.protocol_parameters_at(m.milestone_index)"},
        {"unclaimed-tokens", "'unclaimedCount', m.unclaimed_count, 'unclaimedAmount', "
                             "m.unclaimed_amount::text"},
        {"unlock-conditions",
         "'timelockCount', m.timelock_count, 'timelockAmount', m.timelock_amount::text, "
         "'expirationCount', m.expiration_count, 'expirationAmount', m.expiration_amount::text, "
         "'storageDepositReturnCount', m.storage_deposit_return_count, "
         "'storageDepositReturnAmount', m.storage_deposit_return_amount::text, "
         "'storageDepositReturnInnerAmount', m.storage_deposit_return_inner_amount::text"},
    };
    return fields;
}

std::string MeasurementNames()
{
    std::string names;
    for (const auto &[name, fields] : Measurements())
        names += (names.empty() ? "" : ", ") + name;
    return names;
}

// The measured milestones $1..$2, oldest first, at most $3: the first $3 (`next`: the milestone
// after the last, when more are measured up to $2), or the newest $3 (a chart's latest window;
// `next` null, as none is newer).
std::string MeasurementSql(const std::string &fields, bool newest)
{
    return "WITH page AS (SELECT * FROM permanode.milestone_measurements m "
           "WHERE m.milestone_index BETWEEN $1::int AND $2::int ORDER BY m.milestone_index " +
           std::string(newest ? "DESC LIMIT $3::int" : "LIMIT $3::int + 1") +
           ") "
           "SELECT json_build_object('items', coalesce((SELECT json_agg(json_build_object("
           "'milestoneIndex', m.milestone_index, 'milestoneTimestamp', "
           "extract(epoch FROM m.ms_timestamp)::bigint, " +
           fields +
           ") ORDER BY m.milestone_index) FROM (SELECT * FROM page ORDER BY milestone_index "
           "LIMIT $3::int) m), '[]'), 'next', (SELECT max(milestone_index) FROM page "
           "HAVING count(*) > $3::int))::text";
}

client::Query<std::string> JsonQuery(std::string name, std::string sql)
{
    client::Query<std::string> query;
    query.statement = std::make_shared<const client::Statement>(
        client::Statement{std::move(name), std::move(sql), client::Plan::kCustom});
    query.read = [](const client::Result &result)
    { return result.Rows() == 0 ? std::string("null") : std::string(result.Text(0, 0)); };
    return query;
}

Task<> Measurement(const httplib::Request &request, httplib::Response &response, Db &db,
                   const PathParams &path)
{
    auto found = Measurements().find(path[0]);
    if (found == Measurements().end())
        throw BadParameter("name", "no measurement " + path[0] + "; one of " + MeasurementNames());
    int from = QueryInt(request, "from", 0, INT32_MAX).value_or(0);
    int to = QueryInt(request, "to", 0, INT32_MAX).value_or(INT32_MAX);
    if (to < from)
        throw BadParameter("to", "below from");
    auto last = QueryInt(request, "last", 1, kMaxMilestones);
    int count =
        last.value_or(QueryInt(request, "pageSize", 1, kMaxMilestones).value_or(kMaxMilestones));
    auto query = JsonQuery("measurement_" + found->first + (last ? "_newest" : ""),
                           MeasurementSql(found->second, last.has_value()));
    query.params.Add(std::to_string(from));
    query.params.Add(std::to_string(to));
    query.params.Add(std::to_string(count));
    response.status = 200;
    response.set_content(co_await db.Run(std::move(query)), "application/json");
}

// active_addresses of one period kind between two dates, oldest first.
const char *const kActiveAddressesSql = R"sql(
SELECT json_build_object('period', $1::text, 'items', coalesce(json_agg(json_build_object(
    'start', a.period_start::text, 'addresses', a.addresses) ORDER BY a.period_start), '[]'))::text
FROM permanode.active_addresses a
WHERE a.period = $1 AND a.period_start BETWEEN $2::date AND $3::date
)sql";

Task<> ActiveAddresses(const httplib::Request &request, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    const std::string &period = path[0];
    if (period != "daily" && period != "weekly" && period != "monthly")
        throw BadParameter("period", "daily, weekly or monthly");
    auto query = JsonQuery("measurement_active_addresses", kActiveAddressesSql);
    query.params.Add(std::string(period == "daily"    ? "day"
                                 : period == "weekly" ? "week"
                                                      : "month"));
    query.params.Add(QueryDate(request, "from").value_or("1970-01-01"));
    query.params.Add(QueryDate(request, "to").value_or("9999-12-31"));
    response.status = 200;
    response.set_content(co_await db.Run(std::move(query)), "application/json");
}

} // namespace

void RegisterMeasurementRoutes(Router &router)
{
    RouteInfo measurement(
        kAnalytics + "/measurements/{name}", "explorer",
        "inx-chronicle's per-milestone measurement `name` (" + MeasurementNames() +
            ") of the measured milestones from..to, oldest first, at most pageSize; `next`: "
            "the milestone to ask from for more. Ledger figures are at the end of the "
            "milestone; a figure its protocol lacks is null",
        {{"from", "integer", "first milestone index, default 0"},
         {"to", "integer", "last milestone index, default the newest"},
         {"pageSize", "integer", "1 to 1000, default 1000"},
         {"last", "integer",
          "1 to 1000: the newest `last` measured milestones of from..to instead (still oldest "
          "first; `next` null)"}});
    measurement.response = "{\"items\": [{\"milestoneIndex\", \"milestoneTimestamp\" (unix "
                           "seconds), and the measurement's fields (token amounts as decimal "
                           "strings)}], \"next\" (a milestone index, or null)}";
    router.Get(measurement, Measurement);
    RouteInfo active(kAnalytics + "/active-addresses/{period}", "explorer",
                     "Distinct addresses that owned an output created or consumed per UTC day, "
                     "ISO week or month (period: daily, weekly or monthly), rolled up by "
                     "`permanode analytics --fill`, oldest first",
                     {{"from", "string", "first period start, YYYY-MM-DD"},
                      {"to", "string", "last period start, YYYY-MM-DD"}});
    active.response = "{\"period\": \"day\", \"week\" or \"month\", \"items\": [{\"start\" "
                      "(YYYY-MM-DD), \"addresses\"}]}";
    router.Get(active, ActiveAddresses);
}

} // namespace permanode::http
