/*
 * range_scan_exec.c
 *	  Permanode Range Scan, execution: evaluates the key and the bounds on ms_range_id, fetches
 *	  the key's ranges from the hint catalog a page at a time (newest or oldest first), and reads
 *	  the partitions holding them one after another: a partition's index on the key when it has
 *	  one, a kept SPI statement for a foreign (archived) partition (range_scan_archived.c), a
 *	  sequential scan otherwise. See range_scan_plan.c for the plan it runs and the rules that
 *	  keep results exact.
 */
#include "postgres.h"

#include "access/attmap.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "rewrite/rewriteManip.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "lookup/lookup.h"

#define RS_MAX_SHOWN 16 /* partitions named by EXPLAIN ANALYZE */

typedef struct RangeScanState
{
    CustomScanState css;

    /* from the plan */
    AttrNumber key_attnum;
    AttrNumber range_attnum;
    Oid parent_index;
    bool backward;     /* the partitions' index read backward */
    bool oldest_first; /* ranges in ascending order */
    bool keyed;
    bool key_array; /* the key is an IN list: an array of keys */
    ExprState *key_state;
    Oid key_type;       /* the key column's type */
    Oid key_value_type; /* the key value's: the column's, or an array of it for an IN list */
    int16 key_typlen;   /* of key_value_type */
    bool key_typbyval;
    List *bound_states;
    List *bound_strategies;
    Node *seek_clause;     /* a keyset cursor the index read starts at, or NULL */
    RowCompareExpr *seek;  /* its row comparison */
    List *seek_states;     /* its values */
    ExprState *seek_guard; /* NULL, or x of `x IS NULL OR row`: no cursor when x is NULL */
    Bitmapset *needed;     /* the parent's columns the plan reads; NULL: all (a whole-row Var) */

    /* the partitions, fixed for the query */
    PartitionDesc partdesc;
    PartitionKey partkey;

    /* one scan (reset by a rescan) */
    MemoryContext scan_cxt;
    bool started;
    Datum key_value;
    int *parts; /* indexes into partdesc, in reading order */
    int nparts;
    int next_part;
    bool *seen;    /* partitions already in parts */
    Datum *bounds; /* the range column's bounds, evaluated */
    bool *bound_nulls;
    Datum *seek_values; /* the cursor's values; NULL when one is NULL (then only rechecked) */
    bool hints_open;    /* more hinted ranges may follow those fetched */
    bool hints_whole;   /* every range read was named by the hints (hinted holds them) */
    int32 *hinted;      /* the hinted ranges fetched that pass the bounds, in reading order, */
    int *hinted_part;   /* with the partition of each */
    int nhinted;
    int64 hint_after; /* the last hinted range fetched (exclusive start of the next page) */
    int hint_page;    /* ranges to fetch next */

    /* the partition being read */
    Relation part_rel;
    Relation part_index;
    IndexScanDesc index_scan;
    TableScanDesc table_scan;
    ArchivedRead *archived; /* a foreign partition's read, through SPI */
    TupleTableSlot *part_slot;
    AttrMap *map; /* partition to parent columns; NULL when the same */

    /* for EXPLAIN ANALYZE, over all loops */
    int64 ranges_hinted;
    int64 partitions_read;
    Oid shown[RS_MAX_SHOWN];
    int nshown;
    bool more_shown;
    char *remote_sql; /* the first remote partition's query on its node (VERBOSE) */
} RangeScanState;

static void RangeScanBegin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *RangeScanExec(CustomScanState *node);
static void RangeScanEnd(CustomScanState *node);
static void RangeScanReScan(CustomScanState *node);
static void RangeScanExplain(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomExecMethods range_scan_exec_methods = {
    .CustomName = RANGE_SCAN_NAME,
    .BeginCustomScan = RangeScanBegin,
    .ExecCustomScan = RangeScanExec,
    .EndCustomScan = RangeScanEnd,
    .ReScanCustomScan = RangeScanReScan,
    .ExplainCustomScan = RangeScanExplain,
};

Node *permanode_range_scan_create_state(CustomScan *cscan)
{
    RangeScanState *state = (RangeScanState *)newNode(sizeof(RangeScanState), T_CustomScanState);

    state->css.methods = &range_scan_exec_methods;
    return (Node *)state;
}

/* The parent's columns the plan's output and quals read; NULL when it reads whole rows. */
static Bitmapset *NeededColumns(CustomScan *cscan)
{
    Bitmapset *offsets = NULL;
    Bitmapset *needed = NULL;
    int offset = -1;

    pull_varattnos((Node *)cscan->scan.plan.targetlist, cscan->scan.scanrelid, &offsets);
    pull_varattnos((Node *)cscan->scan.plan.qual, cscan->scan.scanrelid, &offsets);
    while ((offset = bms_next_member(offsets, offset)) >= 0)
    {
        AttrNumber attnum = offset + FirstLowInvalidHeapAttributeNumber;

        if (attnum == InvalidAttrNumber)
            return NULL;
        if (attnum > 0)
            needed = bms_add_member(needed, attnum);
    }
    return needed;
}

static void RangeScanBegin(CustomScanState *node, EState *estate, int eflags)
{
    RangeScanState *state = (RangeScanState *)node;
    CustomScan *cscan = (CustomScan *)node->ss.ps.plan;
    List *settings = linitial(cscan->custom_private);
    Relation parent = node->ss.ss_currentRelation;
    ListCell *lc;

    state->key_attnum = list_nth_int(settings, RS_KEY_ATTNUM);
    state->range_attnum = list_nth_int(settings, RS_RANGE_ATTNUM);
    state->parent_index = (Oid)list_nth_int(settings, RS_PARENT_INDEX);
    state->backward = list_nth_int(settings, RS_BACKWARD) != 0;
    state->oldest_first = list_nth_int(settings, RS_OLDEST_FIRST) != 0;
    state->keyed = list_nth_int(settings, RS_KEYED) != 0;
    state->key_array = list_nth_int(settings, RS_KEY_ARRAY) != 0;
    state->bound_strategies = lsecond(cscan->custom_private);
    state->key_state = ExecInitExpr(linitial(cscan->custom_exprs), &node->ss.ps);
    for_each_from (lc, cscan->custom_exprs, 1)
    {
        if (foreach_current_index(lc) > list_length(state->bound_strategies))
            break; /* the seek's row comparison */
        state->bound_states = lappend(state->bound_states, ExecInitExpr(lfirst(lc), &node->ss.ps));
    }
    if (list_nth_int(settings, RS_SEEK) > 0)
    {
        Expr *guard;

        state->seek_clause = llast(cscan->custom_exprs);
        state->seek = permanode_seek_row(state->seek_clause, &guard);
        state->seek_states = ExecInitExprList(state->seek->rargs, &node->ss.ps);
        state->seek_guard = guard ? ExecInitExpr(guard, &node->ss.ps) : NULL;
    }
    state->key_type = TupleDescAttr(RelationGetDescr(parent), state->key_attnum - 1)->atttypid;
    state->key_value_type =
        state->key_array ? exprType(linitial(cscan->custom_exprs)) : state->key_type;
    get_typlenbyval(state->key_value_type, &state->key_typlen, &state->key_typbyval);
    state->needed = NeededColumns(cscan);

    if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
        return;
    if (estate->es_partition_directory == NULL)
        estate->es_partition_directory = CreatePartitionDirectory(estate->es_query_cxt, true);
    state->partdesc = PartitionDirectoryLookup(estate->es_partition_directory, parent);
    state->partkey = RelationGetPartitionKey(parent);
    state->scan_cxt =
        AllocSetContextCreate(estate->es_query_cxt, "permanode range scan", ALLOCSET_DEFAULT_SIZES);
}

/* The partition holding range, as an index into partdesc; -1 when there is none. */
static int PartitionOfRange(RangeScanState *state, int32 range)
{
    PartitionBoundInfo bounds = state->partdesc->boundinfo;
    Datum value = Int32GetDatum(range);
    bool equal;
    int offset;
    int index;

    if (bounds == NULL)
        return -1;
    offset = partition_range_datum_bsearch(
        state->partkey->partsupfunc, state->partkey->partcollation, bounds, 1, &value, &equal);
    index = bounds->indexes[offset + 1];
    return index >= 0 ? index : bounds->default_index;
}

/* Whether range passes every bound on the range column that evaluated to a value. */
static bool PassesBounds(RangeScanState *state, int32 range, Datum *bounds, bool *nulls)
{
    int i = 0;
    ListCell *lc;

    foreach (lc, state->bound_strategies)
    {
        int32 b = DatumGetInt32(bounds[i]);
        bool pass = true;

        if (!nulls[i])
        {
            switch (lfirst_int(lc))
            {
                case BTLessStrategyNumber:
                    pass = range < b;
                    break;
                case BTLessEqualStrategyNumber:
                    pass = range <= b;
                    break;
                case BTGreaterEqualStrategyNumber:
                    pass = range >= b;
                    break;
                case BTGreaterStrategyNumber:
                    pass = range > b;
                    break;
            }
        }
        if (!pass)
            return false;
        i++;
    }
    return true;
}

/* Evaluates the key and the bounds, runs the hint query, and lists the partitions to read. */
/* Appends every partition not in the reading order yet, in bound order. */
static void AddAllPartitions(RangeScanState *state)
{
    PartitionBoundInfo b = state->partdesc->boundinfo;

    for (int d = 0; b != NULL && d <= b->ndatums; d++)
    {
        int index = b->indexes[state->oldest_first ? b->ndatums - d : d];

        if (index >= 0 && !state->seen[index])
            state->seen[index] = true, state->parts[state->nparts++] = index;
    }
    for (int p = 0; p < state->partdesc->nparts; p++)
        if (!state->seen[p])
            state->seen[p] = true, state->parts[state->nparts++] = p;
}

/* Appends the partition holding range to the reading order, once. */
static void AddRange(RangeScanState *state, int32 range)
{
    int index;

    if (!PassesBounds(state, range, state->bounds, state->bound_nulls))
        return;
    index = PartitionOfRange(state, range);
    if (index >= 0 && !state->seen[index])
        state->seen[index] = true, state->parts[state->nparts++] = index;
}

/*
 * Fetches the next page of the key's hinted ranges into the reading order; false when there are
 * no more. Pages grow (16, 64, 256, ...): a first page newest first usually needs only the
 * newest ranges of a key, however many hold it, and a thin key spread thin costs a few pages.
 */
static bool FetchHintedRanges(RangeScanState *state)
{
    MemoryContext old;
    int32 *ranges;
    int n;

    if (!state->hints_open)
        return false;
    old = MemoryContextSwitchTo(state->scan_cxt);
    ranges = permanode_hint_ranges_page(RelationGetRelid(state->css.ss.ss_currentRelation),
                                        state->key_attnum, state->key_value, !state->oldest_first,
                                        state->hint_after, state->hint_page, &n);
    if (n < 0)
    {
        /* The column is no longer hinted: every partition not read yet. */
        AddAllPartitions(state);
        state->hints_open = false;
        state->hints_whole = false;
        MemoryContextSwitchTo(old);
        return true;
    }
    state->ranges_hinted += n;
    state->hinted = state->hinted == NULL
                        ? palloc(sizeof(int32) * n)
                        : repalloc(state->hinted, sizeof(int32) * (state->nhinted + n));
    state->hinted_part = state->hinted_part == NULL
                             ? palloc(sizeof(int) * n)
                             : repalloc(state->hinted_part, sizeof(int) * (state->nhinted + n));
    for (int r = 0; r < n; r++)
    {
        AddRange(state, ranges[r]);
        if (PassesBounds(state, ranges[r], state->bounds, state->bound_nulls))
        {
            state->hinted[state->nhinted] = ranges[r];
            state->hinted_part[state->nhinted++] = PartitionOfRange(state, ranges[r]);
        }
    }
    if (n > 0)
        state->hint_after = ranges[n - 1];
    state->hints_open = n == state->hint_page;
    state->hint_page = Min(state->hint_page * 4, 65536);
    MemoryContextSwitchTo(old);
    return n > 0;
}

/*
 * Appends the partitions of every range that holds a key of the IN list. The rows of several
 * keys interleave in each partition, so there is no order to keep and no page to stop at: every
 * range of every key is fetched at once.
 */
static void AddListRanges(RangeScanState *state)
{
    Oid relid = RelationGetRelid(state->css.ss.ss_currentRelation);
    Oid element_type = get_element_type(state->key_value_type);
    int16 typlen;
    bool typbyval;
    char typalign;
    Datum *keys;
    bool *nulls;
    int nkeys;

    get_typlenbyvalalign(element_type, &typlen, &typbyval, &typalign);
    deconstruct_array(DatumGetArrayTypeP(state->key_value), element_type, typlen, typbyval,
                      typalign, &keys, &nulls, &nkeys);
    for (int k = 0; k < nkeys; k++)
    {
        int64 after = (int64)PG_INT32_MIN - 1;
        int n = 0;

        if (nulls[k])
            continue; /* NULL equals nothing */
        do
        {
            int32 *ranges = permanode_hint_ranges_page(relid, state->key_attnum, keys[k], false,
                                                       after, 65536, &n);

            if (n < 0)
            {
                /* The column is no longer hinted: every partition. */
                AddAllPartitions(state);
                return;
            }
            state->ranges_hinted += n;
            for (int r = 0; r < n; r++)
                AddRange(state, ranges[r]);
            if (n > 0)
                after = ranges[n - 1];
        } while (n == 65536);
    }
}

/* Evaluates the cursor's values into seek_values (in the current context), or leaves it NULL. */
static void EvaluateSeek(RangeScanState *state)
{
    ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
    ListCell *lc, *arg;
    Datum *values;

    state->seek_values = NULL;
    if (state->seek == NULL)
        return;
    if (state->seek_guard != NULL)
    {
        bool isnull;

        (void)ExecEvalExprSwitchContext(state->seek_guard, econtext, &isnull);
        if (isnull)
            return; /* no cursor: the first page */
    }
    values = palloc(sizeof(Datum) * list_length(state->seek_states));
    forboth (lc, state->seek_states, arg, state->seek->rargs)
    {
        bool isnull;
        Datum value = ExecEvalExprSwitchContext(lfirst(lc), econtext, &isnull);
        int16 typlen;
        bool typbyval;

        /* a NULL member may still let rows through (decided by earlier members): no seek */
        if (isnull)
            return;
        get_typlenbyval(exprType(lfirst(arg)), &typlen, &typbyval);
        values[foreach_current_index(lc)] = datumCopy(value, typbyval, typlen);
    }
    state->seek_values = values;
}

static void StartScan(RangeScanState *state)
{
    ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
    MemoryContext old = MemoryContextSwitchTo(state->scan_cxt);
    int nbounds = list_length(state->bound_states);
    int i = 0;
    ListCell *lc;

    state->started = true;
    state->nparts = 0;
    state->next_part = 0;
    state->hints_open = false;
    state->parts = palloc(sizeof(int) * Max(state->partdesc->nparts, 1));
    state->seen = palloc0(sizeof(bool) * Max(state->partdesc->nparts, 1));
    state->hinted = NULL;
    state->hinted_part = NULL;
    state->nhinted = 0;
    state->hints_whole = false;
    state->seek_values = NULL;
    state->bounds = palloc(sizeof(Datum) * Max(nbounds, 1));
    state->bound_nulls = palloc(sizeof(bool) * Max(nbounds, 1));
    if (state->keyed)
    {
        bool isnull;
        Datum key = ExecEvalExprSwitchContext(state->key_state, econtext, &isnull);

        if (isnull)
        {
            /* key = NULL holds for no row. */
            MemoryContextSwitchTo(old);
            return;
        }
        state->key_value = datumCopy(key, state->key_typbyval, state->key_typlen);
        foreach (lc, state->bound_states)
        {
            state->bounds[i] =
                ExecEvalExprSwitchContext(lfirst(lc), econtext, &state->bound_nulls[i]);
            i++;
        }
        EvaluateSeek(state);
        if (state->key_array)
        {
            AddListRanges(state);
            MemoryContextSwitchTo(old);
            return;
        }
        /* Ranges are int4: start beyond either end, or at a bound on the range column. */
        state->hints_open = true;
        state->hint_after = state->oldest_first ? (int64)PG_INT32_MIN - 1 : (int64)PG_INT32_MAX + 1;
        i = 0;
        foreach (lc, state->bound_strategies)
        {
            int64 b = DatumGetInt32(state->bounds[i]);
            int strategy = lfirst_int(lc);

            if (!state->bound_nulls[i] && !state->oldest_first && strategy == BTLessStrategyNumber)
                state->hint_after = Min(state->hint_after, b);
            else if (!state->bound_nulls[i] && !state->oldest_first &&
                     strategy == BTLessEqualStrategyNumber)
                state->hint_after = Min(state->hint_after, b + 1);
            else if (!state->bound_nulls[i] && state->oldest_first &&
                     strategy == BTGreaterStrategyNumber)
                state->hint_after = Max(state->hint_after, b);
            else if (!state->bound_nulls[i] && state->oldest_first &&
                     strategy == BTGreaterEqualStrategyNumber)
                state->hint_after = Max(state->hint_after, b - 1);
            i++;
        }
        state->hint_page = 16;
        state->hints_whole = true;
        MemoryContextSwitchTo(old);
        FetchHintedRanges(state);
        return;
    }
    AddAllPartitions(state);
    MemoryContextSwitchTo(old);
}

/* Ends the reading of the current partition; its lock is kept until the transaction ends. */
static void ClosePartition(RangeScanState *state)
{
    if (state->index_scan != NULL)
        index_endscan(state->index_scan);
    if (state->table_scan != NULL)
        table_endscan(state->table_scan);
    if (state->part_index != NULL)
        index_close(state->part_index, NoLock);
    if (state->part_slot != NULL)
        ExecDropSingleTupleTableSlot(state->part_slot);
    if (state->archived != NULL)
        permanode_archived_close(state->archived);
    if (state->part_rel != NULL)
        table_close(state->part_rel, NoLock);
    if (state->map != NULL)
        free_attrmap(state->map);
    state->index_scan = NULL;
    state->table_scan = NULL;
    state->part_index = NULL;
    state->part_slot = NULL;
    state->archived = NULL;
    state->part_rel = NULL;
    state->map = NULL;
}

/*
 * Which index of a partition is attached to a parent index. index_get_partition() answers with
 * a pg_inherits scan per index of the partition, which would cost more than reading a thin
 * key's rows; the answers are kept per backend and forgotten on any relcache invalidation (DDL
 * such as a new partition or index).
 */
typedef struct ChildIndexKey
{
    Oid partition;
    Oid parent_index;
} ChildIndexKey;

typedef struct ChildIndexEntry
{
    ChildIndexKey key;
    Oid child_index;
} ChildIndexEntry;

static HTAB *child_index_cache = NULL;
static bool child_index_callback_registered = false;

static void ForgetChildIndexes(Datum arg, Oid relid)
{
    if (child_index_cache != NULL)
    {
        hash_destroy(child_index_cache);
        child_index_cache = NULL;
    }
}

static bool IsPartitionedIndex(Oid index)
{
    return get_rel_relkind(index) == RELKIND_PARTITIONED_INDEX;
}

/*
 * The partition's index with the columns and orders of `model`, another partition's index
 * (range_scan_plan.c, FindRangeIndexTemplate); InvalidOid when it has none.
 */
static Oid IndexLike(Relation part, Oid model)
{
    Relation model_index = index_open(model, AccessShareLock);
    Form_pg_index want = model_index->rd_index;
    List *indexes = RelationGetIndexList(part);
    ListCell *lc;
    Oid found = InvalidOid;

    foreach (lc, indexes)
    {
        Relation index = index_open(lfirst_oid(lc), AccessShareLock);
        Form_pg_index form = index->rd_index;
        bool alike = form->indnkeyatts == want->indnkeyatts &&
                     index->rd_rel->relam == model_index->rd_rel->relam &&
                     heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL);

        for (int i = 0; alike && i < form->indnkeyatts; i++)
            alike = form->indkey.values[i] == want->indkey.values[i] &&
                    index->rd_indoption[i] == model_index->rd_indoption[i];
        index_close(index, NoLock);
        if (alike)
        {
            found = lfirst_oid(lc);
            break;
        }
    }
    list_free(indexes);
    index_close(model_index, NoLock);
    return found;
}

static Oid ChildIndex(Relation part, Oid parent_index)
{
    ChildIndexKey key;
    ChildIndexEntry *entry;
    bool found;

    if (child_index_cache == NULL)
    {
        HASHCTL ctl;

        if (!child_index_callback_registered)
        {
            CacheRegisterRelcacheCallback(ForgetChildIndexes, (Datum)0);
            child_index_callback_registered = true;
        }

        ctl.keysize = sizeof(ChildIndexKey);
        ctl.entrysize = sizeof(ChildIndexEntry);
        ctl.hcxt = CacheMemoryContext;
        child_index_cache = hash_create("permanode child indexes", 256, &ctl,
                                        HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
    }
    memset(&key, 0, sizeof(key));
    key.partition = RelationGetRelid(part);
    key.parent_index = parent_index;
    entry = hash_search(child_index_cache, &key, HASH_FIND, NULL);
    if (entry != NULL)
        return entry->child_index;
    {
        Oid child = IsPartitionedIndex(parent_index) ? index_get_partition(part, parent_index)
                                                     : IndexLike(part, parent_index);

        /* The cache may have been reset by an invalidation during the catalog scan. */
        if (child_index_cache == NULL)
            return child;
        entry = hash_search(child_index_cache, &key, HASH_ENTER, &found);
        entry->child_index = child;
        return child;
    }
}

/* A partitioned index by its name; a partition's index that models each range's by its columns. */
static const char *IndexDescription(Oid index_oid)
{
    StringInfoData text;
    Relation index;

    if (IsPartitionedIndex(index_oid))
        return get_rel_name(index_oid);
    index = index_open(index_oid, AccessShareLock);
    initStringInfo(&text);
    appendStringInfoString(&text, "each range's (");
    for (int i = 0; i < index->rd_index->indnkeyatts; i++)
        appendStringInfo(
            &text, "%s%s", i ? ", " : "",
            get_attname(index->rd_index->indrelid, index->rd_index->indkey.values[i], false));
    appendStringInfoChar(&text, ')');
    index_close(index, NoLock);
    return text.data;
}

/* The partition's index to read the key through; NULL when it has none. */
static Relation OpenPartitionIndex(RangeScanState *state, Relation part, AttrNumber part_key_attnum)
{
    List *indexes;
    ListCell *lc;
    Relation found = NULL;

    if (OidIsValid(state->parent_index))
    {
        Oid child = ChildIndex(part, state->parent_index);

        if (OidIsValid(child))
        {
            Relation index = index_open(child, AccessShareLock);

            if (index->rd_index->indisvalid)
                return index;
            index_close(index, NoLock);
        }
        /* The ordered index is missing here: the rows will not come in order. */
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("partition \"%s\" has no valid index attached to \"%s\"",
                               RelationGetRelationName(part), get_rel_name(state->parent_index)),
                        errhint("Set permanode.range_scan to off, or rebuild the index.")));
    }
    /* A point lookup: any valid, complete btree index led by the key. */
    indexes = RelationGetIndexList(part);
    foreach (lc, indexes)
    {
        Relation index = index_open(lfirst_oid(lc), AccessShareLock);

        if (index->rd_index->indisvalid && index->rd_rel->relam == BTREE_AM_OID &&
            index->rd_index->indkey.values[0] == part_key_attnum &&
            heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL) &&
            (found == NULL || (index->rd_index->indisunique && !found->rd_index->indisunique)))
        {
            if (found != NULL)
                index_close(found, NoLock);
            found = index;
        }
        else
            index_close(index, NoLock);
    }
    list_free(indexes);
    return found;
}

/*
 * The hinted ranges of partition `index` as an int4[] (a partition of several ranges: a remote
 * run), or (Datum) 0 when the hints do not name every range read. Hint pages are fetched until
 * one names a range past the partition, so that the list is whole.
 */
static Datum HintedRangesOf(RangeScanState *state, int index)
{
    Datum *values;
    int n = 0;

    while (state->hints_open && state->nhinted > 0 &&
           state->hinted_part[state->nhinted - 1] == index)
        FetchHintedRanges(state);
    if (!state->hints_whole)
        return (Datum)0;
    values = palloc(sizeof(Datum) * Max(state->nhinted, 1));
    for (int i = 0; i < state->nhinted; i++)
        if (state->hinted_part[i] == index)
            values[n++] = Int32GetDatum(state->hinted[i]);
    return PointerGetDatum(construct_array(values, n, INT4OID, 4, true, TYPALIGN_INT));
}

/* Starts reading a foreign (or otherwise unindexable) partition's rows for the key. */
static void ReadArchived(RangeScanState *state, Relation part, int index)
{
    Relation parent = state->css.ss.ss_currentRelation;
    ArchivedReadSpec spec;

    spec.key_attnum = state->key_attnum;
    spec.range_attnum = state->range_attnum;
    spec.parent_index = state->parent_index;
    spec.key_value_type = state->key_value_type;
    spec.keyed = state->keyed;
    spec.key_array = state->key_array;
    spec.backward = state->backward;
    spec.bound_strategies = state->bound_strategies;
    spec.seek = state->seek_values != NULL && !state->key_array ? state->seek : NULL;
    spec.needed = state->needed;
    spec.ranges = state->keyed && !state->key_array ? HintedRangesOf(state, index) : (Datum)0;
    state->archived = permanode_archived_open(parent, part, &spec, state->key_value, state->bounds,
                                              state->bound_nulls, state->seek_values);
    state->part_slot = MakeSingleTupleTableSlot(RelationGetDescr(parent), &TTSOpsMinimalTuple);
}

/*
 * The cursor as a btree row comparison key on index columns 2..n+1 (as nodeIndexscan.c builds
 * one): the read starts just past the cursor instead of at the key's newest row. Its members
 * compare with the opfamily's comparison function; btree commutes them for DESC columns.
 */
static void SeekKey(RangeScanState *state, Relation index, ScanKey header)
{
    RowCompareExpr *rc = state->seek;
    int n = list_length(rc->largs);
    ScanKey members = palloc(sizeof(ScanKeyData) * n); /* lives as long as the scan */
    ListCell *o, *c;

    forboth (o, rc->opnos, c, rc->inputcollids)
    {
        int i = foreach_current_index(o);
        int column = i + 1; /* 0-based index column: the one after the key */
        Oid opfamily = index->rd_opfamily[column];
        int strategy;
        Oid lefttype, righttype;
        RegProcedure proc;

        get_op_opfamily_properties(lfirst_oid(o), opfamily, false, &strategy, &lefttype,
                                   &righttype);
        proc = get_opfamily_proc(opfamily, lefttype, righttype, BTORDER_PROC);
        if (!RegProcedureIsValid(proc))
            elog(ERROR, "missing support function %d(%u,%u) in opfamily %u", BTORDER_PROC, lefttype,
                 righttype, opfamily);
        ScanKeyEntryInitialize(&members[i], SK_ROW_MEMBER | (i == n - 1 ? SK_ROW_END : 0),
                               column + 1, strategy, righttype, lfirst_oid(c), proc,
                               state->seek_values[i]);
    }
    /* a header holds no function: it is not ScanKeyEntryInitialize'd */
    MemSet(header, 0, sizeof(ScanKeyData));
    header->sk_flags = SK_ROW_HEADER;
    header->sk_attno = members[0].sk_attno;
    header->sk_strategy = rc->rctype;
    header->sk_argument = PointerGetDatum(members);
}

/* Opens the partition at parts[next_part] and starts reading it. */
static void OpenPartition(RangeScanState *state, int index)
{
    Relation parent = state->css.ss.ss_currentRelation;
    EState *estate = state->css.ss.ps.state;
    Oid oid = state->partdesc->oids[index];
    MemoryContext old = MemoryContextSwitchTo(state->scan_cxt);
    Relation part = try_table_open(oid, AccessShareLock);
    AttrNumber part_key_attnum;

    state->partitions_read++;
    if (state->nshown < RS_MAX_SHOWN)
    {
        bool known = false;

        for (int i = 0; i < state->nshown; i++)
            known |= state->shown[i] == oid;
        if (!known)
            state->shown[state->nshown++] = oid;
    }
    else
        state->more_shown = true;
    if (part == NULL)
    {
        /* Dropped since the partition descriptor was read. */
        MemoryContextSwitchTo(old);
        return;
    }
    state->part_rel = part;
    if (part->rd_rel->relkind != RELKIND_RELATION && part->rd_rel->relkind != RELKIND_MATVIEW)
    {
        ReadArchived(state, part, index);
        MemoryContextSwitchTo(old);
        return;
    }
    state->map = build_attrmap_by_name_if_req(RelationGetDescr(part), RelationGetDescr(parent));
    part_key_attnum = state->map ? state->map->attnums[state->key_attnum - 1] : state->key_attnum;
    state->part_slot = table_slot_create(part, NULL);
    if (state->keyed)
        state->part_index = OpenPartitionIndex(state, part, part_key_attnum);
    if (state->part_index != NULL)
    {
        Relation index = state->part_index;
        ScanKeyData keys[2];
        int nkeys = 1;
        Oid opno = get_opfamily_member(index->rd_opfamily[0], index->rd_opcintype[0],
                                       index->rd_opcintype[0], BTEqualStrategyNumber);

        if (!OidIsValid(opno))
            elog(ERROR, "missing equality operator for index \"%s\"",
                 RelationGetRelationName(index));
        /* An IN list is one array key: the btree reads each of its keys in turn. */
        ScanKeyEntryInitialize(&keys[0], state->key_array ? SK_SEARCHARRAY : 0, 1,
                               BTEqualStrategyNumber, index->rd_opcintype[0],
                               index->rd_indcollation[0], get_opcode(opno), state->key_value);
        if (state->seek_values != NULL && !state->key_array)
            SeekKey(state, index, &keys[nkeys++]);
        state->index_scan = index_beginscan(part, index, estate->es_snapshot, nkeys, 0);
        index_rescan(state->index_scan, keys, nkeys, NULL, 0);
    }
    else
        state->table_scan = table_beginscan(part, estate->es_snapshot, 0, NULL);
    MemoryContextSwitchTo(old);
}

/* The next row of the current partition in the scan slot, as a row of the parent. */
static bool FetchRow(RangeScanState *state)
{
    TupleTableSlot *out = state->css.ss.ss_ScanTupleSlot;
    TupleTableSlot *in = state->part_slot;
    bool found;
    int natts = out->tts_tupleDescriptor->natts;

    if (in == NULL)
        return false;
    if (state->index_scan != NULL)
        found = index_getnext_slot(
            state->index_scan, state->backward ? BackwardScanDirection : ForwardScanDirection, in);
    else if (state->table_scan != NULL)
        found = table_scan_getnextslot(state->table_scan, ForwardScanDirection, in);
    else
    {
        found = permanode_archived_next(state->archived, in);
        if (state->remote_sql == NULL && permanode_archived_remote_sql(state->archived) != NULL)
            state->remote_sql = MemoryContextStrdup(state->css.ss.ps.state->es_query_cxt,
                                                    permanode_archived_remote_sql(state->archived));
    }
    if (!found)
        return false;

    ExecClearTuple(out);
    slot_getallattrs(in);
    if (state->map == NULL)
    {
        memcpy(out->tts_values, in->tts_values, sizeof(Datum) * natts);
        memcpy(out->tts_isnull, in->tts_isnull, sizeof(bool) * natts);
    }
    else
    {
        for (int i = 0; i < natts; i++)
        {
            AttrNumber from = state->map->attnums[i];

            out->tts_values[i] = from > 0 ? in->tts_values[from - 1] : (Datum)0;
            out->tts_isnull[i] = from <= 0 || in->tts_isnull[from - 1];
        }
    }
    ExecStoreVirtualTuple(out);
    out->tts_tableOid = RelationGetRelid(state->part_rel);
    out->tts_tid = in->tts_tid;
    return true;
}

static TupleTableSlot *RangeScanNext(ScanState *node)
{
    RangeScanState *state = (RangeScanState *)node;

    if (!state->started)
        StartScan(state);
    for (;;)
    {
        CHECK_FOR_INTERRUPTS();
        if (state->part_rel != NULL)
        {
            if (FetchRow(state))
                return node->ss_ScanTupleSlot;
            ClosePartition(state);
        }
        if (state->next_part >= state->nparts && !FetchHintedRanges(state))
            return ExecClearTuple(node->ss_ScanTupleSlot);
        if (state->next_part < state->nparts)
            OpenPartition(state, state->parts[state->next_part++]);
    }
}

static bool RangeScanRecheck(ScanState *node, TupleTableSlot *slot)
{
    return true;
}

static TupleTableSlot *RangeScanExec(CustomScanState *node)
{
    return ExecScan(&node->ss, RangeScanNext, RangeScanRecheck);
}

static void RangeScanEnd(CustomScanState *node)
{
    RangeScanState *state = (RangeScanState *)node;

    ClosePartition(state);
    if (state->scan_cxt != NULL)
        MemoryContextDelete(state->scan_cxt);
    state->scan_cxt = NULL;
}

/* A rescan starts over; the key (a parameter of an outer plan) is evaluated again. */
static void RangeScanReScan(CustomScanState *node)
{
    RangeScanState *state = (RangeScanState *)node;

    ClosePartition(state);
    if (state->scan_cxt != NULL)
        MemoryContextReset(state->scan_cxt);
    state->started = false;
    state->parts = NULL;
    state->nparts = state->next_part = 0;
    ExecScanReScan(&node->ss);
}

static void RangeScanExplain(CustomScanState *node, List *ancestors, ExplainState *es)
{
    RangeScanState *state = (RangeScanState *)node;
    CustomScan *cscan = (CustomScan *)node->ss.ps.plan;
    Relation parent = node->ss.ss_currentRelation;
    const char *column =
        NameStr(TupleDescAttr(RelationGetDescr(parent), state->key_attnum - 1)->attname);

    if (state->keyed)
    {
        List *context = set_deparse_context_plan(es->deparse_cxt, (Plan *)cscan, ancestors);
        char *value = deparse_expression(linitial(cscan->custom_exprs), context, false, false);

        ExplainPropertyText("Key",
                            psprintf(state->key_array ? "%s = ANY (%s)" : "%s = %s",
                                     quote_identifier(column), value),
                            es);
    }
    else
        ExplainPropertyText("Key", "none: every partition", es);
    ExplainPropertyText("Hint Column", column, es);
    if (OidIsValid(state->parent_index))
    {
        ExplainPropertyText("Index", IndexDescription(state->parent_index), es);
        ExplainPropertyText("Order", state->oldest_first ? "oldest first" : "newest first", es);
    }
    if (state->seek_clause != NULL)
    {
        List *context = set_deparse_context_plan(es->deparse_cxt, (Plan *)cscan, ancestors);

        ExplainPropertyText("Seek", deparse_expression(state->seek_clause, context, false, false),
                            es);
    }
    if (es->analyze)
    {
        StringInfoData names;

        ExplainPropertyInteger("Ranges Hinted", NULL, state->ranges_hinted, es);
        ExplainPropertyInteger("Partitions Read", NULL, state->partitions_read, es);
        initStringInfo(&names);
        for (int i = 0; i < state->nshown; i++)
        {
            char *name = get_rel_name(state->shown[i]);

            appendStringInfo(&names, "%s%s", i ? " " : "", name ? name : "(dropped)");
        }
        if (state->more_shown)
            appendStringInfoString(&names, " ...");
        if (state->nshown > 0)
            ExplainPropertyText("Read", names.data, es);
        if (es->verbose && state->remote_sql != NULL)
            ExplainPropertyText("Remote SQL", state->remote_sql, es);
    }
}
