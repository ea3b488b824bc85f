/*
 * analyze.cpp
 *	  ANALYZE of archived foreign tables: a reservoir sample over the rows family, so that the
 *	  planner gets real row counts and column statistics.
 */
extern "C"
{
#include "postgres.h"

#include "access/htup_details.h"
#include "foreign/fdwapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sampling.h"
}

#include "archive_reader.hpp"

namespace permanode::fdw
{

namespace
{

/* Samples targrows rows of the archive (Vitter's reservoir, as file_fdw does). */
int AcquireSampleRows(Relation relation, int elevel, HeapTuple *rows, int targrows,
                      double *totalrows, double *totaldeadrows)
{
    const char *table = RelationGetRelationName(relation);
    int numrows = 0;
    double count = 0;
    double rowstoskip = -1;
    ArchiveOptions *opts = GetArchiveOptions(RelationGetRelid(relation));
    TupleDesc desc = RelationGetDescr(relation);
    MemoryContext caller = CurrentMemoryContext;
    MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "permanode_fdw analyze",
                                                      ALLOCSET_DEFAULT_SIZES);
    Datum *values = (Datum *)palloc(sizeof(Datum) * desc->natts);
    bool *nulls = (bool *)palloc(sizeof(bool) * desc->natts);
    ReservoirStateData rstate;
    reservoir_init_selection_state(&rstate, targrows);

    GuardedArchive(
        table,
        [&]() -> Datum
        {
            ArchiveCursor cursor(ArchiveDir(opts->archive));
            pg::CallPg([&] { cursor.Bind(desc); });
            cursor.Start(0, false, {}, {}, INT64_MIN, INT64_MAX);
            while (cursor.Next())
            {
                pg::CallPg(
                    [&]
                    {
                        MemoryContextReset(row_context);
                        MemoryContextSwitchTo(row_context);
                        cursor.Store(values, nulls);
                        MemoryContextSwitchTo(caller);
                        int slot = -1;
                        if (numrows < targrows)
                            slot = numrows++;
                        else
                        {
                            if (rowstoskip < 0)
                                rowstoskip = reservoir_get_next_S(&rstate, count, targrows);
                            if (rowstoskip <= 0)
                            {
                                slot = (int)(targrows * sampler_random_fract(&rstate.randstate));
                                heap_freetuple(rows[slot]);
                            }
                            rowstoskip -= 1;
                        }
                        if (slot >= 0)
                            rows[slot] = heap_form_tuple(desc, values, nulls);
                    });
                count += 1;
            }
            return 0;
        });
    MemoryContextDelete(row_context);
    *totalrows = count;
    *totaldeadrows = 0;
    ereport(elevel, (errmsg("\"%s\": archive holds %.0f rows; %d rows in sample",
                            RelationGetRelationName(relation), count, numrows)));
    return numrows;
}

} // namespace

bool AnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func, BlockNumber *totalpages)
{
    ArchiveOptions *opts = GetArchiveOptions(RelationGetRelid(relation));
    *func = AcquireSampleRows;
    *totalpages = static_cast<BlockNumber>(Max(1, opts->byte_size / BLCKSZ));
    return true;
}

} // namespace permanode::fdw
