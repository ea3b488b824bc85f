// The nodes `permanode sync` follows, judged by permanode.sync_health() (81_sync_follow.sql).
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace queries
{

Query<std::vector<SyncFollowRow>> SyncHealth(int max_lag, int max_silence_seconds)
{
    static const auto statement = MakeStatement(
        "sync_health",
        "SELECT source, live, state, healthy, coalesce(reason, ''), archived_index, "
        "node_confirmed_index, lag_milestones, lag_seconds, milestones_per_s, blocks_per_s, "
        "reconnects, extract(epoch FROM heartbeat_age)::float8 "
        "FROM permanode.sync_health($1::int, make_interval(secs => $2::float8))",
        Plan::kGeneric);
    Query<std::vector<SyncFollowRow>> query;
    query.statement = statement;
    query.params.Add(std::to_string(max_lag));
    query.params.Add(std::to_string(max_silence_seconds));
    query.read = [](const Result &result)
    {
        std::vector<SyncFollowRow> rows;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            rows.push_back(SyncFollowRow{
                row[0].as<std::string>(), row[1].as<bool>(), row[2].as<std::string>(),
                row[3].as<bool>(), row[4].as<std::string>(), row[5].optional<std::int32_t>(),
                row[6].as<std::int32_t>(), row[7].as<std::int32_t>(),
                row[8].optional<std::int32_t>(), row[9].as<double>(), row[10].as<double>(),
                row[11].as<std::int64_t>(), row[12].as<double>()});
        }
        return rows;
    };
    return query;
}

} // namespace queries

std::vector<SyncFollowRow> Client::GetSyncHealth(int max_lag, int max_silence_seconds)
{
    return Run(queries::SyncHealth(max_lag, max_silence_seconds));
}

} // namespace permanode::client
