/*
 * partition_cache.cpp
 *	  See partition_cache.hpp. The callback runs inside PostgreSQL's invalidation processing; it
 *	  only clears a standard container, which cannot throw.
 */
#include "ledger/partition_cache.hpp"

extern "C"
{
#include "utils/inval.h"
}

#include <set>

namespace permanode::ledger
{
namespace
{

std::set<RangeSet> known;
bool callback_registered = false;

void Forget(Datum, Oid)
{
    known.clear();
}

} // namespace

bool PartitionsKnown(const RangeSet &ranges)
{
    return known.count(ranges) > 0;
}

void RememberPartitions(const RangeSet &ranges)
{
    if (!callback_registered)
    {
        CacheRegisterRelcacheCallback(Forget, (Datum)0);
        callback_registered = true;
    }
    known.insert(ranges);
}

} // namespace permanode::ledger
