// `permanode status`: the nodes `permanode sync` follows into this database, as
// permanode.sync_health() judges them (81_sync_follow.sql).
#pragma once

#include <pqxx/pqxx>

namespace permanode::cli
{

// What health asks of a sync (as `permanode serve --sync-max-lag --sync-max-silence`).
struct SyncLimits
{
    int max_lag = 3;
    int max_silence_s = 30;
};

// Prints each node followed: from where, live or bounded, the archive against the node (lag in
// milestones and seconds), rates, reconnects, how long ago the sync reported, and whether it is
// stopped, not reporting, or keeps the archive healthy. Nothing before 0.11.0.
void PrintSyncStatus(pqxx::connection &conn, const SyncLimits &limits);

} // namespace permanode::cli
