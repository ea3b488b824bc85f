/*
 * partitions.hpp
 *	  Making sure a ledger table's partition for a range exists and that this backend routes
 *	  rows to it, before ingest writes there.
 *
 *	  Partitions are attached under a SHARE UPDATE EXCLUSIVE lock, which conflicts neither with
 *	  readers nor with inserters, so another session may attach one at any moment. A backend's
 *	  partition descriptor of the parent can then lack it even after the attach committed: the
 *	  attach's invalidation is absorbed when this backend next takes a new lock, and a lock taken
 *	  while a descriptor is being built (its catalog lookups lock pg_class) absorbs it into the
 *	  build, which then stores the list of partitions it had read before the attach committed,
 *	  as valid. A row routed to the missing partition fails with 23514. So ingest checks its own
 *	  descriptor for each range it writes and rebuilds the entry when the range is missing: a
 *	  fresh build sees every committed partition.
 */
#pragma once

extern "C"
{
#include "postgres.h"
}

namespace permanode::ledger
{

// Makes sure the ledger table's partition for ms_range_id exists (making it through
// permanode.create_partition() when it does not) and that this backend's descriptor of the
// parent holds it; false when the range has no heap partition to write (it is archived).
// Call inside SPI_connect, through CallPg: it may ereport.
bool EnsurePartition(const char *table_name, int32 ms_range_id);

} // namespace permanode::ledger
