// Health as the syncs that follow nodes report it (permanode.sync_health, 81_sync_follow.sql): one
// judgement for /health, isHealthy of /api/core/v2/info and /api/v1/info, and /metrics' sync
// figures. With no sync recorded, the archive is healthy when the database answers, as before.
#pragma once

#include <string>
#include <vector>

#include "server/db.hpp"
#include "permanode/ledger_types.hpp"
#include "server/server.hpp"
#include "server/task.hpp"

namespace permanode::http
{

struct SyncHealth
{
    bool healthy = true;
    std::string reason; // the unhealthy syncs' reasons, joined by "; "
    std::vector<client::SyncFollowRow> syncs;
};

// Reads every node followed, judged by `limits`; throws as any query when the database fails.
Task<SyncHealth> ReadSyncHealth(Db &db, HealthLimits limits);

} // namespace permanode::http
