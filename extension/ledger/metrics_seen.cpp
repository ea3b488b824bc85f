/*
 * metrics_seen.cpp
 *	  See metrics_seen.hpp. The transaction callbacks run inside PostgreSQL's commit and abort
 *	  processing, where nothing may throw: a failed allocation there forgets everything, which
 *	  only costs probes.
 */
#include "ledger/metrics_seen.hpp"
#include "ledger/session_cache.hpp"

extern "C"
{
#include "catalog/namespace.h"
#include "utils/lsyscache.h"
}

#include <map>
#include <unordered_set>
#include <vector>

namespace permanode::ledger
{
namespace
{

std::map<int32, std::unordered_set<std::string>> known; // by day
std::size_t known_count = 0;
std::vector<MetricKey> pending; // this transaction's
Oid metrics_relid = InvalidOid; // permanode.metrics_cache, looked up again after it changes

void ForgetKnown() noexcept
{
    known.clear();
    known_count = 0;
}

void ForgetAll() noexcept
{
    ForgetKnown();
    pending.clear();
}

void Promote() noexcept
{
    try
    {
        for (MetricKey &key : pending)
        {
            // Older days than the two newest are not kept.
            if (!known.empty() && key.day < known.rbegin()->first - 1)
                continue;
            // (Not ForgetAll: this loop is walking `pending`.)
            if (known_count >= kMaxKnownMetrics)
                ForgetKnown();
            if (known[key.day].insert(std::move(key.identity)).second)
                ++known_count;
            while (known.size() > 2)
            {
                known_count -= known.begin()->second.size();
                known.erase(known.begin());
            }
        }
        pending.clear();
    }
    catch (...)
    {
        ForgetAll();
    }
}

// Which keys a rolled-back subtransaction wrote is not tracked: all of the transaction's go. A
// prepared transaction may still roll back, after this session has moved on.
void DropPending() noexcept
{
    pending.clear();
}

// metrics_cache truncated, dropped or made anew (a relcache invalidation of it, or of all).
void OnRelcache(Oid relid) noexcept
{
    if (relid == InvalidOid || relid == metrics_relid)
    {
        ForgetAll();
        metrics_relid = InvalidOid;
    }
}

const SessionCache kMetricsSeenCache = {Promote, DropPending, DropPending, DropPending, OnRelcache};

} // namespace

MetricKey MakeMetricKey(TimestampTz at, const char *variant, const char *metric, const uint8 *value,
                        std::size_t value_size)
{
    // The UTC day, as (at AT TIME ZONE 'UTC')::date takes it: floor, also before 2000.
    int64 day = at / USECS_PER_DAY - (at % USECS_PER_DAY < 0 ? 1 : 0);
    MetricKey key{static_cast<int32>(day), {}};
    key.identity.append(variant).push_back('\0');
    key.identity.append(metric).push_back('\0');
    key.identity.append(reinterpret_cast<const char *>(value), value_size);
    return key;
}

bool MetricKnown(const MetricKey &key)
{
    if (metrics_relid == InvalidOid)
    {
        // The first use, or the table changed (and everything was forgotten).
        Oid schema = get_namespace_oid("permanode", true);
        metrics_relid =
            OidIsValid(schema) ? get_relname_relid("metrics_cache", schema) : InvalidOid;
        return false;
    }
    auto day = known.find(key.day);
    return day != known.end() && day->second.count(key.identity) > 0;
}

void NoteMetric(MetricKey key)
{
    ListenToTransactions(kMetricsSeenCache);
    pending.push_back(std::move(key));
}

} // namespace permanode::ledger
