/*
 * partitions.cpp
 *	  See partitions.hpp.
 */
#include "ledger/partitions.hpp"

extern "C"
{
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/relcache.h"

    PG_FUNCTION_INFO_V1(permanode_ensure_partition);
}

#include "pgcpp/guard.hpp"

namespace permanode::ledger
{
namespace
{

// Whether this backend's partition descriptor of rel has a partition holding ms_range_id.
bool RoutesRange(Relation rel, int32 ms_range_id)
{
    PartitionDesc partdesc = RelationGetPartitionDesc(rel, true);
    PartitionBoundInfo bounds = partdesc->boundinfo;
    if (bounds == nullptr)
        return false;
    PartitionKey key = RelationGetPartitionKey(rel);
    Datum value = Int32GetDatum(ms_range_id);
    bool equal = false;
    int offset = partition_range_datum_bsearch(key->partsupfunc, key->partcollation, bounds, 1,
                                               &value, &equal);
    return bounds->indexes[offset + 1] >= 0;
}

// Builds this backend's relcache entry of the parent anew (it is open, so in place).
bool RoutesRangeAfterRebuild(Relation rel, int32 ms_range_id)
{
    RelationCacheInvalidateEntry(RelationGetRelid(rel));
    return RoutesRange(rel, ms_range_id);
}

void CreatePartition(const char *table_name, int32 ms_range_id)
{
    Oid types[2] = {NAMEOID, INT4OID};
    Datum values[2] = {CStringGetDatum(table_name), Int32GetDatum(ms_range_id)};
    values[0] = DirectFunctionCall1(namein, values[0]);
    if (SPI_execute_with_args("SELECT permanode.create_partition($1, $2)", 2, types, values,
                              nullptr, false, 1) != SPI_OK_SELECT)
        elog(ERROR, "permanode.create_partition() failed");
}

} // namespace

bool EnsurePartition(const char *table_name, int32 ms_range_id)
{
    Oid parent = get_relname_relid(table_name, get_namespace_oid("permanode", false));
    if (!OidIsValid(parent))
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                        errmsg("ledger table \"%s\" does not exist", table_name)));
    // The lock ingest's insert takes anyway; taking it absorbs the invalidations sent so far.
    Relation rel = table_open(parent, RowExclusiveLock);
    bool routes = RoutesRange(rel, ms_range_id) || RoutesRangeAfterRebuild(rel, ms_range_id);
    table_close(rel, NoLock);
    if (routes)
        return true;
    // Missing, or attached by a session whose commit is not visible yet: create_partition makes
    // it, or waits for that session and finds it. (It attaches, which needs the parent closed.)
    CreatePartition(table_name, ms_range_id);
    rel = table_open(parent, NoLock);
    routes = RoutesRangeAfterRebuild(rel, ms_range_id);
    table_close(rel, NoLock);
    return routes;
}

} // namespace permanode::ledger

/* permanode.ensure_partition(table_name name, ms_range_id int) returns boolean */
extern "C" Datum permanode_ensure_partition(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            bool routes = false;
            permanode::pg::CallPg(
                [&]
                {
                    const char *table_name = NameStr(*PG_GETARG_NAME(0));
                    int32 ms_range_id = PG_GETARG_INT32(1);
                    SPI_connect();
                    routes = permanode::ledger::EnsurePartition(table_name, ms_range_id);
                    SPI_finish();
                });
            return BoolGetDatum(routes);
        });
}
