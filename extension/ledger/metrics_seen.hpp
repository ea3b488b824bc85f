/*
 * metrics_seen.hpp
 *	  The metrics_cache rows (a day's distinct addresses and tags) that this backend knows are
 *	  committed, so that ingest sends only the others. Nearly every address and tag of a day
 *	  recurs, and each row sent costs an ON CONFLICT probe of the table's key.
 *
 *	  A key becomes known when the transaction that wrote (or found) its row commits; an abort,
 *	  of the transaction or of any subtransaction, forgets this transaction's keys, and a
 *	  relcache invalidation of metrics_cache (TRUNCATE, DROP) forgets every key. Only the two
 *	  newest days are kept, at most kMaxKnownMetrics keys in all, so memory stays bounded and
 *	  older days, the ones rolled up and purged with DELETE, always go to the table.
 */
#pragma once

extern "C"
{
#include "postgres.h"

#include "datatype/timestamp.h"
}

#include <string>

namespace permanode::ledger
{

constexpr std::size_t kMaxKnownMetrics = 200000;

// The key of a metrics_cache row: its UTC day and its variant, metric and value (raw bytes).
struct MetricKey
{
    int32 day;
    std::string identity;
    bool operator<(const MetricKey &o) const
    {
        return day != o.day ? day < o.day : identity < o.identity;
    }
};
MetricKey MakeMetricKey(TimestampTz at, const char *variant, const char *metric, const uint8 *value,
                        std::size_t value_size);

bool MetricKnown(const MetricKey &key);
// The key's row exists in this transaction: known from its commit on.
void NoteMetric(MetricKey key);

} // namespace permanode::ledger
