/*
 * lookup.h
 *	  Keyed lookups on partitioned ledger tables: one mechanism, the Permanode Range Scan.
 *
 *	  hint_catalog.c     which columns are keyed, and the query naming the ranges that hold a key
 *	  range_scan_plan.c  the planner side: a keyed SELECT keeps the parent, with one CustomPath
 *	  range_scan_exec.c  the executor side: the key's ranges, read one partition at a time
 *	  range_scan_archived.c  the read of an archived (foreign) partition: a kept SPI statement
 *
 *	  Statements the Range Scan leaves alone (a locking SELECT, UPDATE, DELETE, a query naming
 *	  its ranges) are planned by PostgreSQL over every partition: slower, and exact.
 */
#ifndef PERMANODE_LOOKUP_H
#define PERMANODE_LOOKUP_H

#include "postgres.h"

#include "access/attnum.h"
#include "executor/tuptable.h"
#include "nodes/bitmapset.h"
#include "nodes/extensible.h"
#include "utils/relcache.h"

/* in hint_catalog.c */
extern void permanode_install_hint_catalog(void);
extern bool permanode_in_hint_query(void);
extern bool permanode_hint_lookup(Oid relid, AttrNumber attnum, AttrNumber *range_attnum);
extern bool permanode_hints_for(Oid relid);
extern int32 *permanode_hint_ranges_page(Oid relid, AttrNumber attnum, Datum value, bool descending,
                                         int64 after, int limit, int *n);

/*
 * The plan node's settings: custom_private is (settings, bound strategies), settings an integer
 * list in this order; custom_exprs is the key expression, then one bound on the range column per
 * strategy (BTLessStrategyNumber ... BTGreaterStrategyNumber), then, with RS_SEEK set, the
 * keyset cursor's clause the index read starts at (see permanode_seek_row).
 */
typedef enum RangeScanSetting
{
    RS_KEY_ATTNUM,
    RS_RANGE_ATTNUM,
    RS_PARENT_INDEX, /* partitioned index (key, ms_range_id, ...), or InvalidOid */
    RS_BACKWARD,     /* read the index backward */
    RS_KEYED,        /* 0: no key was found, read every partition */
    RS_KEY_ARRAY,    /* the key is an IN list (an array): its ranges all, unordered */
    RS_OLDEST_FIRST, /* ranges in ascending order: the index's ms_range_id read ascending */
    RS_SEEK,         /* 1: a keyset cursor's clause follows the bounds */
    RS_NSETTINGS
} RangeScanSetting;

#define RANGE_SCAN_NAME "Permanode Range Scan"

/* in range_scan_plan.c */
extern void permanode_install_range_scan(void);
extern RowCompareExpr *permanode_seek_row(Node *clause, Expr **guard);

/* in range_scan_exec.c */
extern Node *permanode_range_scan_create_state(CustomScan *cscan);

/* in range_scan_archived.c: what a Range Scan reads of a partition it cannot index-scan */
typedef struct ArchivedReadSpec
{
    AttrNumber key_attnum;   /* of the parent */
    AttrNumber range_attnum; /* of the parent */
    Oid parent_index;        /* the order to read in; InvalidOid: none */
    Oid key_value_type;      /* the key's type, or its array type for an IN list */
    bool keyed;              /* false: every row */
    bool key_array;
    bool backward;
    List *bound_strategies; /* one per bound on the range column (int4 values) */
    RowCompareExpr *seek;   /* a keyset cursor on the index's columns after the key, or NULL */
    Bitmapset *needed;      /* parent attnums the plan reads; NULL: every column */
    Datum ranges;           /* int4[]: the only ranges to read (a remote read); 0: unknown */
} ArchivedReadSpec;

typedef struct ArchivedRead ArchivedRead;

extern ArchivedRead *permanode_archived_open(Relation parent, Relation part,
                                             const ArchivedReadSpec *spec, Datum key,
                                             const Datum *bounds, const bool *bound_nulls,
                                             const Datum *seek_values);
extern bool permanode_archived_next(ArchivedRead *read, TupleTableSlot *slot);
extern void permanode_archived_close(ArchivedRead *read);
extern const char *permanode_archived_remote_sql(ArchivedRead *read);

#endif /* PERMANODE_LOOKUP_H */
