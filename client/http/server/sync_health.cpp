// One judgement of the nodes followed (see sync_health.hpp).
#include "server/sync_health.hpp"

#include "permanode/queries.hpp"

namespace permanode::http
{

Task<SyncHealth> ReadSyncHealth(Db &db, HealthLimits limits)
{
    SyncHealth health;
    health.syncs =
        co_await db.Run(client::queries::SyncHealth(limits.max_lag, limits.max_silence_s));
    for (const auto &sync : health.syncs)
    {
        if (sync.healthy)
            continue;
        health.healthy = false;
        health.reason += (health.reason.empty() ? "" : "; ") + sync.reason;
    }
    co_return health;
}

} // namespace permanode::http
