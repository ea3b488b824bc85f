/*
 * heap_reader.cpp
 *	  Heap partitions as rows of the archive layout (plain PostgreSQL code, called through
 *	  pg::CallPg), and their digest.
 */
extern "C"
{
#include "postgres.h"

#include "access/detoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

#include "heap_reader.hpp"

namespace permanode::fdw
{

struct HeapCursor
{
    Relation rel;           /* the heap, locked by the caller */
    Snapshot snapshot;      /* latest snapshot, registered */
    TableScanDesc scan;     /* sequential scan */
    TupleTableSlot *slot;   /* current heap tuple */
    TupleDesc archive_desc; /* archive layout */
    AttrNumber *map;        /* per archive column: heap attnum, or 0 */
    Datum *values;          /* current row, archive layout */
    bool *nulls;
    MemoryContext row_context; /* detoasted values of the current row */
};

HeapCursor *OpenHeapCursor(Oid relid, TupleDesc archive_desc)
{
    HeapCursor *c = (HeapCursor *)palloc0(sizeof(HeapCursor));
    c->rel = table_open(relid, NoLock);
    c->archive_desc = archive_desc;
    TupleDesc heap_desc = RelationGetDescr(c->rel);
    int n = archive_desc->natts;
    c->map = (AttrNumber *)palloc0(sizeof(AttrNumber) * n);
    for (int i = 0; i < n; i++)
    {
        const char *name = NameStr(TupleDescAttr(archive_desc, i)->attname);
        for (int j = 0; j < heap_desc->natts; j++)
        {
            Form_pg_attribute att = TupleDescAttr(heap_desc, j);
            if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
                c->map[i] = att->attnum;
        }
    }
    c->values = (Datum *)palloc0(sizeof(Datum) * n);
    c->nulls = (bool *)palloc0(sizeof(bool) * n);
    c->row_context = AllocSetContextCreate(CurrentMemoryContext, "permanode_fdw heap row",
                                           ALLOCSET_DEFAULT_SIZES);
    /* The latest snapshot: rows committed before the caller locked the heap are all seen. */
    c->snapshot = RegisterSnapshot(GetLatestSnapshot());
    c->scan = table_beginscan(c->rel, c->snapshot, 0, nullptr);
    c->slot = table_slot_create(c->rel, nullptr);
    return c;
}

bool HeapCursorNext(HeapCursor *c)
{
    CHECK_FOR_INTERRUPTS();
    MemoryContextReset(c->row_context);
    if (!table_scan_getnextslot(c->scan, ForwardScanDirection, c->slot))
        return false;
    slot_getallattrs(c->slot);
    MemoryContext old = MemoryContextSwitchTo(c->row_context);
    for (int i = 0; i < c->archive_desc->natts; i++)
    {
        AttrNumber attnum = c->map[i];
        if (attnum == 0 || c->slot->tts_isnull[attnum - 1])
        {
            c->nulls[i] = true;
            c->values[i] = (Datum)0;
            continue;
        }
        Datum d = c->slot->tts_values[attnum - 1];
        /* canonical bytes: every varlena inline and uncompressed */
        if (TupleDescAttr(c->archive_desc, i)->attlen == -1)
            d = PointerGetDatum(pg_detoast_datum_packed((struct varlena *)DatumGetPointer(d)));
        c->values[i] = d;
        c->nulls[i] = false;
    }
    MemoryContextSwitchTo(old);
    return true;
}

Datum *HeapCursorValues(HeapCursor *cursor)
{
    return cursor->values;
}

bool *HeapCursorNulls(HeapCursor *cursor)
{
    return cursor->nulls;
}

void CloseHeapCursor(HeapCursor *c)
{
    ExecDropSingleTupleTableSlot(c->slot);
    table_endscan(c->scan);
    UnregisterSnapshot(c->snapshot);
    table_close(c->rel, NoLock);
    MemoryContextDelete(c->row_context);
}

HeapDigest DigestHeapRelations(const std::vector<Oid> &relids, RowCodec &codec)
{
    HeapDigest digest;
    std::string key, value;
    for (Oid relid : relids)
    {
        HeapCursor *cursor = pg::CallPg([&] { return OpenHeapCursor(relid, codec.desc()); });
        while (pg::CallPg([&] { return HeapCursorNext(cursor); }))
        {
            codec.EncodeKey(-1, cursor->values, cursor->nulls, key);
            pg::CallPg([&] { codec.EncodeValue(cursor->values, cursor->nulls, value); });
            digest.rows++;
            digest.checksum += RowHash(key, value);
        }
        pg::CallPg([&] { CloseHeapCursor(cursor); });
    }
    return digest;
}

} // namespace permanode::fdw
