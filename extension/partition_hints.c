/*
 * partition_hints.c
 *	  A planner hook that lets a keyed lookup touch only the partitions holding its key.
 *
 *	  Ledger tables are range-partitioned on ms_range_id, but most lookups are by another key:
 *	  an ID, an address, a tag. Without help, PostgreSQL probes the index of every partition.
 *	  The seed's answer is hint tables (which ranges hold a key); ours is to apply them in the
 *	  planner: for a query with `key = constant` (or a bound parameter of a custom plan) on a
 *	  column listed in permanode.partition_hints, this hook runs that column's hint query and adds
 *	  `ms_range_id = ANY('{...}')` to the query, which plan-time partition pruning then uses.
 *	  Queries through a lookup view work too: the view is a subquery over its table at this
 *	  point, and the qual is added inside it.
 *
 *	  Rules that keep results exact:
 *	  - only reads use hints: an UPDATE or DELETE reaches every partition it names;
 *	  - a query that already constrains ms_range_id is left alone (the user knows the range);
 *	  - only constants and parameters flagged PARAM_FLAG_CONST are used, so a generic plan never
 *	    bakes in one value's ranges;
 *	  - a plan that used hints is marked transient, so a cached plan is rebuilt once newer
 *	    transactions (new milestones) are visible, instead of missing their ranges.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "access/stratnum.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "permanode.h"

/* One row of permanode.partition_hints, resolved. */
typedef struct HintEntry
{
    Oid relid;                /* the partitioned ledger table */
    AttrNumber key_attnum;    /* the keyed column */
    Oid key_type;             /* its type, the hint query's $1 */
    AttrNumber range_attnum;  /* the table's ms_range_id column */
    char *hint_query;         /* returns the ranges holding $1 */
    SPIPlanPtr plan;          /* prepared on first use, kept */
    SPIPlanPtr page_plans[2]; /* a page of ranges in order: [0] ascending, [1] descending */
} HintEntry;

static planner_hook_type previous_planner_hook = NULL;
static HintEntry *hint_entries = NULL; /* in CacheMemoryContext */
static int hint_count = 0;
static Oid hints_relid = InvalidOid; /* permanode.partition_hints the entries came from */
static bool hints_valid = false;
static bool in_hint_query = false;

bool permanode_partition_hints = true;

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
        if (hint_entries[i].plan != NULL)
            SPI_freeplan(hint_entries[i].plan);
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
        ret = SPI_execute(
            "SELECT format('permanode.%I', h.table_name)::regclass::oid, a.attnum, "
            "a.atttypid, r.attnum, h.hint_query "
            "FROM permanode.partition_hints h "
            "JOIN pg_attribute a ON a.attrelid = format('permanode.%I', h.table_name)::regclass "
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
            e->plan = NULL;
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
 * Follows a Var of `query` to a column of a base table: directly, or through a simple view (a
 * subquery whose target entry is a plain column of its table). On success sets *target_query
 * and *target_rti to where the table's range-table entry lives and *attnum to the column.
 */
static bool ResolveColumn(Query *query, Var *var, Query **target_query, Index *target_rti,
                          AttrNumber *attnum)
{
    RangeTblEntry *rte;

    if (var->varlevelsup != 0 || var->varattno <= 0)
        return false;
    rte = rt_fetch(var->varno, query->rtable);
    if (rte->rtekind == RTE_RELATION)
    {
        *target_query = query;
        *target_rti = var->varno;
        *attnum = var->varattno;
        return true;
    }
    if (rte->rtekind == RTE_SUBQUERY && rte->subquery != NULL &&
        rte->subquery->commandType == CMD_SELECT && rte->subquery->setOperations == NULL &&
        !rte->subquery->hasAggs && !rte->subquery->hasWindowFuncs &&
        rte->subquery->groupClause == NIL && rte->subquery->limitCount == NULL &&
        rte->subquery->limitOffset == NULL)
    {
        TargetEntry *tle = get_tle_by_resno(rte->subquery->targetList, var->varattno);

        if (tle != NULL && IsA(tle->expr, Var))
            return ResolveColumn(rte->subquery, (Var *)tle->expr, target_query, target_rti, attnum);
    }
    return false;
}

/* The hint entry for a Var of query, with where its table lives; NULL when not hinted. */
static HintEntry *ResolveKeyVar(Query *query, Var *var, Query **target_query, Index *target_rti)
{
    AttrNumber attnum;

    if (!ResolveColumn(query, var, target_query, target_rti, &attnum))
        return NULL;
    return FindHint(rt_fetch(*target_rti, (*target_query)->rtable)->relid, attnum);
}

/* The value of a Const or of a constant bound parameter; false when there is none. */
static bool ValueOf(Node *node, ParamListInfo params, Datum *value, bool *isnull)
{
    while (IsA(node, RelabelType))
        node = (Node *)((RelabelType *)node)->arg;
    if (IsA(node, Const))
    {
        *value = ((Const *)node)->constvalue;
        *isnull = ((Const *)node)->constisnull;
        return true;
    }
    if (IsA(node, Param) && params != NULL && ((Param *)node)->paramkind == PARAM_EXTERN)
    {
        Param *param = (Param *)node;
        ParamExternData workspace;
        ParamExternData *prm;

        if (param->paramid <= 0 || param->paramid > params->numParams)
            return false;
        prm = params->paramFetch != NULL
                  ? params->paramFetch(params, param->paramid, false, &workspace)
                  : &params->params[param->paramid - 1];
        if (prm == NULL || !(prm->pflags & PARAM_FLAG_CONST) || prm->ptype != param->paramtype)
            return false;
        *value = prm->value;
        *isnull = prm->isnull;
        return true;
    }
    return false;
}

/*
 * Whether a conjunct of quals of query pins the range column of (target_query, rti) to given
 * values (= or = ANY), through views too: the user named the ranges, so hints stay out.
 */
static bool PinsRange(Query *query, Node *quals, Query *target_query, Index rti,
                      AttrNumber range_attnum)
{
    ListCell *lc;

    if (quals == NULL)
        return false;
    foreach (lc, make_ands_implicit((Expr *)quals))
    {
        Node *conjunct = lfirst(lc);
        List *args;
        Oid opno;
        ListCell *ac;

        if (IsA(conjunct, OpExpr))
            args = ((OpExpr *)conjunct)->args, opno = ((OpExpr *)conjunct)->opno;
        else if (IsA(conjunct, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *)conjunct)->useOr)
            args = ((ScalarArrayOpExpr *)conjunct)->args,
            opno = ((ScalarArrayOpExpr *)conjunct)->opno;
        else
            continue;
        if (get_oprrest(opno) != F_EQSEL)
            continue;
        foreach (ac, args)
        {
            Node *arg = strip_implicit_coercions(lfirst(ac));
            Query *q;
            Index r;
            AttrNumber attnum;

            if (IsA(arg, Var) && ResolveColumn(query, (Var *)arg, &q, &r, &attnum) &&
                q == target_query && r == rti && attnum == range_attnum)
                return true;
        }
    }
    return false;
}

/* A range named by a hint, with its row count for the key (-1 when unknown). */
typedef struct HintedRange
{
    int32 range;
    int64 rows;
} HintedRange;

/* Runs the hint query for value; returns the ranges and sets *n. */
static HintedRange *HintedRanges(HintEntry *e, Datum value, int *n)
{
    MemoryContext caller = CurrentMemoryContext;
    HintedRange *ranges = NULL;
    int ret;

    *n = 0;
    in_hint_query = true;
    PG_TRY();
    {
        SPI_connect();
        if (e->plan == NULL)
        {
            /* A generic plan: a hint query must not be replanned for every key. */
            SPIPlanPtr plan =
                SPI_prepare_cursor(e->hint_query, 1, &e->key_type, CURSOR_OPT_GENERIC_PLAN);

            if (plan == NULL)
                elog(ERROR, "cannot prepare partition hint query \"%s\": %s", e->hint_query,
                     SPI_result_code_string(SPI_result));
            SPI_keepplan(plan);
            e->plan = plan;
        }
        ret = SPI_execute_plan(e->plan, &value, NULL, true, 0);
        if (ret != SPI_OK_SELECT)
            elog(ERROR, "partition hint query failed: %s", SPI_result_code_string(ret));
        ranges = MemoryContextAlloc(caller, sizeof(HintedRange) * Max(SPI_processed, 1));
        for (uint64 i = 0; i < SPI_processed; i++)
        {
            HeapTuple tuple = SPI_tuptable->vals[i];
            TupleDesc desc = SPI_tuptable->tupdesc;
            bool isnull;
            Datum d = SPI_getbinval(tuple, desc, 1, &isnull);

            if (isnull)
                continue;
            ranges[*n].range = DatumGetInt32(d);
            ranges[*n].rows = -1;
            if (desc->natts >= 2)
            {
                Datum rows = SPI_getbinval(tuple, desc, 2, &isnull);

                if (!isnull)
                    ranges[*n].rows = DatumGetInt64(rows);
            }
            (*n)++;
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

/* The ranges as an int4[] constant. */
static Const *RangesConst(HintedRange *ranges, int n)
{
    Datum *values = palloc(sizeof(Datum) * Max(n, 1));
    ArrayType *array;

    for (int i = 0; i < n; i++)
        values[i] = Int32GetDatum(ranges[i].range);
    array = construct_array(values, n, INT4OID, sizeof(int32), true, TYPALIGN_INT);
    return makeConst(INT4ARRAYOID, -1, InvalidOid, -1, PointerGetDatum(array), false, false);
}

/*
 * First pages newest first.
 *
 * A query `WHERE key = v ORDER BY ms_range_id DESC, ... LIMIT n` needs only the newest ranges
 * whose rows add up to n. When the hints know their row counts, only those ranges are kept, so
 * planning touches a few partitions however many hold the key. It applies only when nothing but
 * the range column can filter rows: the key qual, IS NOT NULL tests, and bounds on ms_range_id
 * (a keyset cursor, also as a row comparison led by ms_range_id); a range on a cursor's boundary
 * is kept but not counted, since the cursor filters part of it.
 */
typedef struct RangeBound
{
    int strategy; /* BTLessStrategyNumber ... BTGreaterStrategyNumber */
    int32 value;
    bool partial; /* a row comparison: the boundary range itself is partly filtered */
} RangeBound;

/* Whether node is a Var that resolves to the range column of (target_query, rti). */
static bool IsRangeVar(Query *query, Node *node, Query *target_query, Index rti,
                       AttrNumber range_attnum)
{
    Query *q;
    Index r;
    AttrNumber attnum;

    node = strip_implicit_coercions(node);
    return IsA(node, Var) && ResolveColumn(query, (Var *)node, &q, &r, &attnum) &&
           q == target_query && r == rti && attnum == range_attnum;
}

/* Collects a conjunct that bounds the range column; false when it is anything else. */
static bool CollectBound(Query *query, Node *conjunct, Query *target_query, Index rti,
                         AttrNumber range_attnum, RangeBound *bound)
{
    if (IsA(conjunct, OpExpr) && list_length(((OpExpr *)conjunct)->args) == 2)
    {
        OpExpr *op = (OpExpr *)conjunct;
        Node *left = strip_implicit_coercions(linitial(op->args));
        Node *right = strip_implicit_coercions(lsecond(op->args));
        int strategy = get_op_opfamily_strategy(op->opno, INTEGER_BTREE_FAM_OID);

        if (strategy == 0 || strategy == BTEqualStrategyNumber)
            return false;
        if (IsRangeVar(query, left, target_query, rti, range_attnum) && IsA(right, Const) &&
            !((Const *)right)->constisnull)
        {
            bound->strategy = strategy;
            bound->value = DatumGetInt32(((Const *)right)->constvalue);
            bound->partial = false;
            return true;
        }
        return false;
    }
    if (IsA(conjunct, RowCompareExpr))
    {
        RowCompareExpr *rc = (RowCompareExpr *)conjunct;
        Node *first = strip_implicit_coercions(linitial(rc->rargs));

        if (IsRangeVar(query, linitial(rc->largs), target_query, rti, range_attnum) &&
            IsA(first, Const) && !((Const *)first)->constisnull &&
            (rc->rctype == ROWCOMPARE_LT || rc->rctype == ROWCOMPARE_LE ||
             rc->rctype == ROWCOMPARE_GT || rc->rctype == ROWCOMPARE_GE))
        {
            /* (r, ...) < (c, ...) keeps ranges < c wholly and part of range c. */
            bound->strategy = (rc->rctype == ROWCOMPARE_LT || rc->rctype == ROWCOMPARE_LE)
                                  ? BTLessEqualStrategyNumber
                                  : BTGreaterEqualStrategyNumber;
            bound->value = DatumGetInt32(((Const *)first)->constvalue);
            bound->partial = true;
            return true;
        }
    }
    return false;
}

/* Whether range passes bound; *partial says it passes only in part. */
static bool PassesBound(int32 range, const RangeBound *bound, bool *partial)
{
    bool pass = false;

    switch (bound->strategy)
    {
        case BTLessStrategyNumber:
            pass = range < bound->value;
            break;
        case BTLessEqualStrategyNumber:
            pass = range <= bound->value;
            break;
        case BTGreaterEqualStrategyNumber:
            pass = range >= bound->value;
            break;
        case BTGreaterStrategyNumber:
            pass = range > bound->value;
            break;
    }
    if (pass && bound->partial && range == bound->value)
        *partial = true;
    return pass;
}

static int CompareRangesDesc(const void *a, const void *b)
{
    int32 x = ((const HintedRange *)a)->range, y = ((const HintedRange *)b)->range;

    return x < y ? 1 : (x > y ? -1 : 0);
}

static int CompareRangesAsc(const void *a, const void *b)
{
    return -CompareRangesDesc(a, b);
}

/*
 * Collects the range bounds among the quals of a plain single-table SELECT level; false when the
 * level is not plain or a qual other than the key, IS NOT NULL or a range bound could filter rows.
 */
static bool CollectLevelBounds(Query *level, Query *target_query, Index rti,
                               AttrNumber range_attnum, Node *key_qual, RangeBound *bounds,
                               int *nbounds, int max_bounds)
{
    ListCell *lc;

    if (level->commandType != CMD_SELECT || level->hasAggs || level->hasWindowFuncs ||
        level->groupClause != NIL || level->distinctClause != NIL || level->setOperations != NULL ||
        level->hasTargetSRFs || level->havingQual != NULL || level->jointree == NULL ||
        list_length(level->jointree->fromlist) != 1 ||
        !IsA(linitial(level->jointree->fromlist), RangeTblRef))
        return false;
    if (level->jointree->quals == NULL)
        return true;
    foreach (lc, make_ands_implicit((Expr *)level->jointree->quals))
    {
        Node *conjunct = lfirst(lc);

        if (IsA(conjunct, NullTest) || equal(conjunct, key_qual))
            continue;
        if (*nbounds == max_bounds ||
            !CollectBound(level, conjunct, target_query, rti, range_attnum, &bounds[*nbounds]))
            return false;
        (*nbounds)++;
    }
    return true;
}

/*
 * Keeps only the ranges a first page needs (see above); returns the new count, or n unchanged
 * when the query is not such a page or a count is unknown.
 */
static int PruneForLimit(Query *query, Query *target_query, Index rti, AttrNumber range_attnum,
                         Node *key_qual, HintedRange *ranges, int n)
{
    RangeBound bounds[8];
    int nbounds = 0;
    SortGroupClause *first_sort;
    TargetEntry *tle;
    bool descending;
    Node *limit;
    Node *offset;
    int64 needed;
    int64 gathered = 0;
    int kept = 0;

    if (query->limitCount == NULL || query->sortClause == NIL ||
        query->limitOption != LIMIT_OPTION_COUNT)
        return n;
    /* LIMIT 100 is int8(100) until constants are folded. */
    limit = eval_const_expressions(NULL, copyObject(query->limitCount));
    offset =
        query->limitOffset ? eval_const_expressions(NULL, copyObject(query->limitOffset)) : NULL;
    if (!IsA(limit, Const) || ((Const *)limit)->constisnull ||
        (offset != NULL && (!IsA(offset, Const) || ((Const *)offset)->constisnull)))
        return n;
    needed = DatumGetInt64(((Const *)limit)->constvalue);
    if (offset != NULL)
        needed += DatumGetInt64(((Const *)offset)->constvalue);
    first_sort = linitial(query->sortClause);
    tle = get_sortgroupclause_tle(first_sort, query->targetList);
    if (!IsRangeVar(query, (Node *)tle->expr, target_query, rti, range_attnum))
        return n;
    descending = get_op_opfamily_strategy(first_sort->sortop, INTEGER_BTREE_FAM_OID) ==
                 BTGreaterStrategyNumber;

    if (!CollectLevelBounds(query, target_query, rti, range_attnum, key_qual, bounds, &nbounds,
                            lengthof(bounds)) ||
        (target_query != query &&
         !CollectLevelBounds(target_query, target_query, rti, range_attnum, key_qual, bounds,
                             &nbounds, lengthof(bounds))))
        return n;

    qsort(ranges, n, sizeof(HintedRange), descending ? CompareRangesDesc : CompareRangesAsc);
    for (int i = 0; i < n && gathered < needed; i++)
    {
        bool partial = false;
        bool pass = true;

        for (int b = 0; b < nbounds && pass; b++)
            pass = PassesBound(ranges[i].range, &bounds[b], &partial);
        if (!pass)
            continue;
        if (ranges[i].rows < 0)
            return n; /* a count is unknown: keep every range */
        ranges[kept++] = ranges[i];
        if (!partial)
            gathered += ranges[i].rows;
    }
    return kept;
}

/* Adds `ms_range_id = ANY(ranges)` to the WHERE clause of query for range-table entry rti. */
static void AddRangeQual(Query *query, Index rti, AttrNumber range_attnum, Const *ranges)
{
    ScalarArrayOpExpr *saop = makeNode(ScalarArrayOpExpr);
    Var *range_var = makeVar(rti, range_attnum, INT4OID, -1, InvalidOid, 0);

    saop->opno = Int4EqualOperator;
    saop->opfuncid = F_INT4EQ;
    saop->useOr = true;
    saop->inputcollid = InvalidOid;
    saop->args = list_make2(range_var, ranges);
    saop->location = -1;
    query->jointree->quals = (Node *)make_and_qual(query->jointree->quals, (Node *)saop);
}

/* Applies hints to one query level and its subqueries; returns whether any was applied. */
static bool ApplyHints(Query *query, ParamListInfo params);

static bool ApplyHintsToQuals(Query *query, ParamListInfo params)
{
    List *conjuncts;
    ListCell *lc;
    bool applied = false;

    if (query->jointree == NULL || query->jointree->quals == NULL)
        return false;
    conjuncts = make_ands_implicit((Expr *)copyObject(query->jointree->quals));
    foreach (lc, conjuncts)
    {
        OpExpr *op = lfirst(lc);
        Node *left, *right;
        Var *var;
        Node *other;
        Query *target_query;
        Index target_rti;
        HintEntry *e;
        Datum value;
        bool isnull;
        HintedRange *ranges;
        int n;

        if (!IsA(op, OpExpr) || list_length(op->args) != 2 || get_oprrest(op->opno) != F_EQSEL)
            continue;
        left = strip_implicit_coercions(linitial(op->args));
        right = strip_implicit_coercions(lsecond(op->args));
        if (IsA(left, Var))
            var = (Var *)left, other = right;
        else if (IsA(right, Var))
            var = (Var *)right, other = left;
        else
            continue;
        e = ResolveKeyVar(query, var, &target_query, &target_rti);
        if (e == NULL || !ValueOf(other, params, &value, &isnull) || isnull)
            continue;
        /* The value's type must be the column's (or a domain over the same base). */
        if (getBaseType(exprType(other)) != getBaseType(e->key_type))
            continue;
        if (PinsRange(query, query->jointree->quals, target_query, target_rti, e->range_attnum) ||
            (target_query != query && PinsRange(target_query, target_query->jointree->quals,
                                                target_query, target_rti, e->range_attnum)))
            continue;
        ranges = HintedRanges(e, value, &n);
        n = PruneForLimit(query, target_query, target_rti, e->range_attnum, (Node *)op, ranges, n);
        AddRangeQual(target_query, target_rti, e->range_attnum, RangesConst(ranges, n));
        applied = true;
    }
    return applied;
}

static bool ApplyHints(Query *query, ParamListInfo params)
{
    bool applied = false;
    ListCell *lc;

    /*
     * Only reads use hints. An UPDATE or DELETE must reach every row it names, and a direct
     * write (not through ingest) may not have maintained the hints.
     */
    if (query->commandType == CMD_SELECT)
        applied |= ApplyHintsToQuals(query, params);
    foreach (lc, query->rtable)
    {
        RangeTblEntry *rte = lfirst(lc);

        if (rte->rtekind == RTE_SUBQUERY && rte->subquery != NULL)
            applied |= ApplyHints(rte->subquery, params);
    }
    foreach (lc, query->cteList)
    {
        CommonTableExpr *cte = lfirst(lc);

        if (IsA(cte->ctequery, Query))
            applied |= ApplyHints((Query *)cte->ctequery, params);
    }
    return applied;
}

/* Whether any range-table entry, at any level, is a hinted table. */
static bool TouchesHintedTable(Query *query)
{
    ListCell *lc;

    foreach (lc, query->rtable)
    {
        RangeTblEntry *rte = lfirst(lc);

        if (rte->rtekind == RTE_RELATION && HasHintsFor(rte->relid))
            return true;
        if (rte->rtekind == RTE_SUBQUERY && rte->subquery != NULL &&
            TouchesHintedTable(rte->subquery))
            return true;
    }
    foreach (lc, query->cteList)
    {
        CommonTableExpr *cte = lfirst(lc);

        if (IsA(cte->ctequery, Query) && TouchesHintedTable((Query *)cte->ctequery))
            return true;
    }
    return false;
}

static PlannedStmt *PartitionHintsPlanner(Query *parse, const char *query_string,
                                          int cursor_options, ParamListInfo bound_params)
{
    bool applied = false;
    PlannedStmt *result;

    /* Plain SELECTs are left to the range scan, which reads the hints at execution. */
    if (permanode_partition_hints && !in_hint_query &&
        !(permanode_range_scan && parse->commandType == CMD_SELECT && parse->rowMarks == NIL &&
          !parse->hasModifyingCTE) &&
        EnsureHints())
    {
        if (hint_count > 0 && TouchesHintedTable(parse))
            applied = ApplyHints(parse, bound_params);
    }
    if (previous_planner_hook)
        result = previous_planner_hook(parse, query_string, cursor_options, bound_params);
    else
        result = standard_planner(parse, query_string, cursor_options, bound_params);
    /* Hints are data: a cached plan that used them is rebuilt once newer rows are visible. */
    if (applied)
        result->transientPlan = true;
    return result;
}

void permanode_install_partition_hints(void)
{
    previous_planner_hook = planner_hook;
    planner_hook = PartitionHintsPlanner;
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
