/*
 * partition_cache.hpp
 *	  Which sets of ranges this backend has found every ledger table's partition for, so that
 *	  ingest checks the catalog once per set rather than once per milestone. Any relcache
 *	  invalidation (a partition made, dropped, attached or detached anywhere) forgets them all.
 */
#pragma once

extern "C"
{
#include "postgres.h"
}

#include <vector>

namespace permanode::ledger
{

// A set of ranges: (chunk size, range) of every ledger table, in a fixed table order.
using RangeSet = std::vector<int32>;

bool PartitionsKnown(const RangeSet &ranges);
// Call only for partitions that existed before this transaction (found, not made now).
void RememberPartitions(const RangeSet &ranges);

} // namespace permanode::ledger
