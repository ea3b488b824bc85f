/*
 * hint_catalog.c
 *	  The hint catalog: permanode.partition_hints, read once per backend and kept until it changes.
 *
 *	  Ledger tables are range-partitioned on ms_range_id (the legacy era's on month_id: each
 *	  hint names its table's range column), but most lookups are by another key: an
 *	  ID, an address, a tag. For each such keyed column, the catalog holds a query that takes the
 *	  key as $1 and names the ranges holding it, from a locator (output_locator, block_locator,
 *	  ...) or a hint table (addresses_hints, tag_hints). The Range Scan (range_scan_plan.c) asks
 *	  here whether a column is keyed, and at execution reads the key's ranges a page at a time.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "lookup/lookup.h"

/* One row of permanode.partition_hints, resolved. */
typedef struct HintEntry
{
    Oid relid;                /* the partitioned ledger table */
    AttrNumber key_attnum;    /* the keyed column */
    Oid key_type;             /* its type, the hint query's $1 */
    AttrNumber range_attnum;  /* the table's range column (ms_range_id, month_id) */
    char *hint_query;         /* returns the ranges holding $1 */
    SPIPlanPtr page_plans[2]; /* a page of ranges in order: [0] ascending, [1] descending */
} HintEntry;

static HintEntry *hint_entries = NULL; /* in CacheMemoryContext */
static int hint_count = 0;
static Oid hints_relid = InvalidOid; /* permanode.partition_hints the entries came from */
static bool hints_valid = false;
static bool in_hint_query = false;

/* Forget the cached entries when the hints catalog, or everything, is invalidated. */
static void InvalidateHints(Datum arg, Oid relid)
{
    if (relid == InvalidOid || relid == hints_relid)
        hints_valid = false;
}

static void FreeHints(void)
{
    for (int i = 0; i < hint_count; i++)
    {
        for (int d = 0; d < 2; d++)
            if (hint_entries[i].page_plans[d] != NULL)
                SPI_freeplan(hint_entries[i].page_plans[d]);
        pfree(hint_entries[i].hint_query);
    }
    if (hint_entries != NULL)
        pfree(hint_entries);
    hint_entries = NULL;
    hint_count = 0;
}

/* The oid of permanode.partition_hints in this database, or InvalidOid without the extension. */
static Oid LookupHintsRelid(void)
{
    Oid nsp = get_namespace_oid("permanode", true);

    return OidIsValid(nsp) ? get_relname_relid("partition_hints", nsp) : InvalidOid;
}

/* (Re)loads permanode.partition_hints into the cache. */
static void LoadHints(Oid relid)
{
    MemoryContext old;
    int ret;

    FreeHints();
    hints_relid = relid;
    if (!OidIsValid(relid))
    {
        hints_valid = true;
        return;
    }
    /* The catalog query is planned too: keep the hook out of it. */
    in_hint_query = true;
    PG_TRY();
    {
        SPI_connect();
        /* Before 0.6.0 every hinted table was permanode's, partitioned on ms_range_id. */
        ret = SPI_execute(
            get_attnum(relid, "table_schema") != InvalidAttrNumber
                ? "SELECT c.oid, a.attnum, a.atttypid, r.attnum, h.hint_query "
                  "FROM permanode.partition_hints h "
                  "JOIN pg_namespace n ON n.nspname = h.table_schema "
                  "JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = h.table_name "
                  "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = h.column_name "
                  "JOIN pg_attribute r ON r.attrelid = c.oid AND r.attname = h.range_column"
                : "SELECT format('permanode.%I', h.table_name)::regclass::oid, a.attnum, "
                  "a.atttypid, r.attnum, h.hint_query "
                  "FROM permanode.partition_hints h "
                  "JOIN pg_attribute a ON a.attrelid = format('permanode.%I', "
                  "h.table_name)::regclass "
                  " AND a.attname = h.column_name "
                  "JOIN pg_attribute r ON r.attrelid = a.attrelid AND r.attname = 'ms_range_id'",
            true, 0);
        if (ret != SPI_OK_SELECT)
            elog(ERROR, "cannot read permanode.partition_hints: %s", SPI_result_code_string(ret));
        old = MemoryContextSwitchTo(CacheMemoryContext);
        hint_entries = palloc0(sizeof(HintEntry) * Max(SPI_processed, 1));
        for (uint64 i = 0; i < SPI_processed; i++)
        {
            HeapTuple tuple = SPI_tuptable->vals[i];
            TupleDesc desc = SPI_tuptable->tupdesc;
            bool isnull;
            HintEntry *e = &hint_entries[hint_count++];

            e->relid = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
            e->key_attnum = DatumGetInt16(SPI_getbinval(tuple, desc, 2, &isnull));
            e->key_type = DatumGetObjectId(SPI_getbinval(tuple, desc, 3, &isnull));
            e->range_attnum = DatumGetInt16(SPI_getbinval(tuple, desc, 4, &isnull));
            e->hint_query = TextDatumGetCString(SPI_getbinval(tuple, desc, 5, &isnull));
            e->page_plans[0] = e->page_plans[1] = NULL;
        }
        MemoryContextSwitchTo(old);
        SPI_finish();
    }
    PG_FINALLY();
    {
        in_hint_query = false;
    }
    PG_END_TRY();
    hints_valid = true;
}

static HintEntry *FindHint(Oid relid, AttrNumber attnum)
{
    for (int i = 0; i < hint_count; i++)
        if (hint_entries[i].relid == relid && hint_entries[i].key_attnum == attnum)
            return &hint_entries[i];
    return NULL;
}

/* Loads the hint entries if they are stale; false when there is no transaction to read them in. */
static bool EnsureHints(void)
{
    Oid relid;

    if (!IsTransactionState())
        return false;
    relid = LookupHintsRelid();
    if (!hints_valid || relid != hints_relid)
        LoadHints(relid);
    return true;
}

static bool HasHintsFor(Oid relid)
{
    for (int i = 0; i < hint_count; i++)
        if (hint_entries[i].relid == relid)
            return true;
    return false;
}

/*
 * A statement trigger on permanode.partition_hints: a change of its rows (a new keyed column, a
 * hint query rewritten by an upgrade) reaches every backend's cache as a relcache invalidation.
 */
PG_FUNCTION_INFO_V1(permanode_partition_hints_changed);
Datum permanode_partition_hints_changed(PG_FUNCTION_ARGS)
{
    TriggerData *trigger = (TriggerData *)fcinfo->context;

    if (!CALLED_AS_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("partition_hints_changed() must be called as a trigger")));
    CacheInvalidateRelcacheByRelid(RelationGetRelid(trigger->tg_relation));
    return PointerGetDatum(NULL);
}

void permanode_install_hint_catalog(void)
{
    CacheRegisterRelcacheCallback(InvalidateHints, (Datum)0);
}

/* Whether the backend is running a hint query (the hooks keep out of its planning). */
bool permanode_in_hint_query(void)
{
    return in_hint_query;
}

/*
 * Whether (relid, attnum) is a hinted column; sets *range_attnum to the table's ms_range_id.
 * Loads the hints first if they are stale.
 */
bool permanode_hint_lookup(Oid relid, AttrNumber attnum, AttrNumber *range_attnum)
{
    HintEntry *e;

    if (in_hint_query || !EnsureHints())
        return false;
    e = FindHint(relid, attnum);
    if (e == NULL)
        return false;
    *range_attnum = e->range_attnum;
    return true;
}

/* Whether relid has any hinted column. */
bool permanode_hints_for(Oid relid)
{
    return !in_hint_query && EnsureHints() && HasHintsFor(relid);
}

/*
 * A page of the ranges that hold value in (relid, attnum), in reading order: at most limit
 * ranges beyond `after` (below it when descending, above it otherwise). A key with rows in
 * hundreds of ranges needs only its newest few for a first page, and the hint tables' primary
 * keys end in ms_range_id, so each page is a short index range scan. Returns NULL (and *n -1)
 * when the column is no longer hinted.
 */
int32 *permanode_hint_ranges_page(Oid relid, AttrNumber attnum, Datum value, bool descending,
                                  int64 after, int limit, int *n)
{
    MemoryContext caller = CurrentMemoryContext;
    HintEntry *e;
    int32 *ranges = NULL;

    *n = -1;
    if (!EnsureHints() || (e = FindHint(relid, attnum)) == NULL)
        return NULL;
    *n = 0;
    in_hint_query = true;
    PG_TRY();
    {
        SPIPlanPtr *plan = &e->page_plans[descending ? 1 : 0];
        Datum args[3] = {value, Int64GetDatum(after), Int32GetDatum(limit)};
        int ret;

        SPI_connect();
        if (*plan == NULL)
        {
            Oid types[3] = {e->key_type, INT8OID, INT4OID};
            char *sql =
                psprintf("SELECT h.r FROM (%s) AS h(r) WHERE h.r %s $2 "
                         "ORDER BY h.r %s LIMIT $3",
                         e->hint_query, descending ? "<" : ">", descending ? "DESC" : "ASC");
            SPIPlanPtr prepared = SPI_prepare_cursor(sql, 3, types, CURSOR_OPT_GENERIC_PLAN);

            if (prepared == NULL)
                elog(ERROR, "cannot prepare partition hint query \"%s\": %s", sql,
                     SPI_result_code_string(SPI_result));
            SPI_keepplan(prepared);
            *plan = prepared;
        }
        ret = SPI_execute_plan(*plan, args, NULL, true, 0);
        if (ret != SPI_OK_SELECT)
            elog(ERROR, "partition hint query failed: %s", SPI_result_code_string(ret));
        ranges = MemoryContextAlloc(caller, sizeof(int32) * Max(SPI_processed, 1));
        for (uint64 i = 0; i < SPI_processed; i++)
        {
            bool isnull;
            Datum d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

            if (!isnull)
                ranges[(*n)++] = DatumGetInt32(d);
        }
        SPI_finish();
    }
    PG_FINALLY();
    {
        in_hint_query = false;
    }
    PG_END_TRY();
    return ranges;
}
