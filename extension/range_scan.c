/*
 * range_scan.c
 *	  Permanode Range Scan: reads a keyed lookup on a partitioned ledger table range by range,
 *	  choosing the ranges at execution time.
 *
 *	  Planning a lookup over the partitions that hold a key costs ~25-100 us per partition and
 *	  must be redone for every key. This node plans in O(1) instead: for a SELECT with
 *	  `key = Const/Param` on a hinted column, the table is not expanded into its partitions
 *	  (its range-table entry is marked inh = false) and the parent gets one CustomPath. At
 *	  execution the node evaluates the key, runs the column's hint query, orders the ranges
 *	  (newest first, or oldest first), and reads them one at a time through each partition's
 *	  index on the key, opening a partition only when the previous one is exhausted, so a LIMIT
 *	  above stops early. The plan does not depend on the key, so it can be a cached generic plan.
 *
 *	  Rules that keep results exact:
 *	  - every restriction of the query (the key too) is re-checked on each row;
 *	  - a query pinning ms_range_id with = or = ANY, a locking SELECT or a write is left alone;
 *	  - a range without a partition is skipped; a foreign (archived) partition is read through
 *	    SPI, in index order; a partition without a usable index is read sequentially;
 *	  - when the column is no longer hinted at execution, every partition is read.
 */
#include "postgres.h"

#include "access/attmap.h"
#include "access/genam.h"
#include "access/htup_details.h"
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
#include "executor/spi.h"
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
#include "utils/tuplestore.h"

#include "permanode.h"

bool permanode_range_scan = true;

static get_relation_info_hook_type previous_get_relation_info_hook = NULL;
static set_rel_pathlist_hook_type previous_set_rel_pathlist_hook = NULL;

/* Marks a RelOptInfo (in fdw_private, unused for tables) whose partitions we read ourselves. */
typedef struct RangeScanRel
{
    NodeTag magic; /* T_Invalid; the address of range_scan_magic identifies us */
    const void *tag;
    AttrNumber key_attnum;   /* the hinted key column */
    AttrNumber range_attnum; /* ms_range_id */
} RangeScanRel;

static const char range_scan_magic[] = "permanode range scan";

/* The plan's integer settings, in custom_private as an integer list, in this order. */
enum
{
    RS_KEY_ATTNUM,
    RS_RANGE_ATTNUM,
    RS_PARENT_INDEX, /* partitioned index (key, ms_range_id, ...), or InvalidOid */
    RS_BACKWARD,     /* read oldest first (the index backward) */
    RS_KEYED,        /* 0: no key was found, read every partition */
    RS_NSETTINGS
};
/* custom_exprs: the key expression, then one bound per element of the bound strategy list. */

static CustomPathMethods range_scan_path_methods;
static CustomScanMethods range_scan_plan_methods;
static CustomExecMethods range_scan_exec_methods;

/* ------------------------------------------------------------------------------------------ */
/* Planning                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A bare Var of rel (through relabelings), or NULL. */
static Var *RelVar(Node *node, Index relid)
{
    while (node != NULL && IsA(node, RelabelType))
        node = (Node *)((RelabelType *)node)->arg;
    if (node != NULL && IsA(node, Var) && (Index)((Var *)node)->varno == relid &&
        ((Var *)node)->varlevelsup == 0)
        return (Var *)node;
    return NULL;
}

/* Whether node is a value fixed for one execution of the scan: a Const or a Param. */
static bool IsScanConstant(Node *node)
{
    while (node != NULL && IsA(node, RelabelType))
        node = (Node *)((RelabelType *)node)->arg;
    return node != NULL && (IsA(node, Const) || IsA(node, Param));
}

/* For `Var(rel) = value`, the Var and the value; false for any other clause. */
static bool SplitEquality(Node *clause, Index relid, Var **var, Node **value)
{
    OpExpr *op;
    Node *left, *right;

    if (!IsA(clause, OpExpr) || list_length(((OpExpr *)clause)->args) != 2)
        return false;
    op = (OpExpr *)clause;
    if (get_oprrest(op->opno) != F_EQSEL)
        return false;
    left = linitial(op->args);
    right = lsecond(op->args);
    if ((*var = RelVar(left, relid)) != NULL && IsScanConstant(right))
        *value = right;
    else if ((*var = RelVar(right, relid)) != NULL && IsScanConstant(left))
        *value = left;
    else
        return false;
    return true;
}

/* The conjuncts of a qual: preprocessed quals are implicit-AND lists already. */
static List *Conjuncts(Node *quals)
{
    if (quals != NULL && IsA(quals, List))
        return list_copy((List *)quals);
    return make_ands_implicit((Expr *)quals);
}

/* Collects the conjuncts that restrict every row of the query: WHERE and inner-join ON quals. */
static void CollectConjuncts(Node *node, List **conjuncts)
{
    if (node == NULL)
        return;
    if (IsA(node, FromExpr))
    {
        FromExpr *f = (FromExpr *)node;
        ListCell *lc;

        *conjuncts = list_concat(*conjuncts, Conjuncts(f->quals));
        foreach (lc, f->fromlist)
            CollectConjuncts(lfirst(lc), conjuncts);
    }
    else if (IsA(node, JoinExpr))
    {
        JoinExpr *j = (JoinExpr *)node;

        if (j->jointype == JOIN_INNER)
            *conjuncts = list_concat(*conjuncts, Conjuncts(j->quals));
        CollectConjuncts(j->larg, conjuncts);
        CollectConjuncts(j->rarg, conjuncts);
    }
}

/* Whether a conjunct pins the range column with = or = ANY (the user named the ranges). */
static bool PinsRangeColumn(Node *conjunct, Index relid, AttrNumber range_attnum)
{
    List *args;
    Oid opno;
    ListCell *lc;

    if (IsA(conjunct, OpExpr))
        args = ((OpExpr *)conjunct)->args, opno = ((OpExpr *)conjunct)->opno;
    else if (IsA(conjunct, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *)conjunct)->useOr)
        args = ((ScalarArrayOpExpr *)conjunct)->args, opno = ((ScalarArrayOpExpr *)conjunct)->opno;
    else
        return false;
    if (get_oprrest(opno) != F_EQSEL)
        return false;
    foreach (lc, args)
    {
        Var *var = RelVar(lfirst(lc), relid);

        if (var != NULL && var->varattno == range_attnum)
            return true;
    }
    return false;
}

/* Whether parent is range-partitioned on one int4 column, the one named range_attnum. */
static bool PartitionedOnRange(Relation parent, AttrNumber range_attnum)
{
    PartitionKey key;

    if (parent->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
        return false;
    key = RelationGetPartitionKey(parent);
    return key != NULL && key->strategy == PARTITION_STRATEGY_RANGE && key->partnatts == 1 &&
           key->partattrs[0] == range_attnum && key->parttypid[0] == INT4OID;
}

/*
 * Called for each base relation once its catalog information is read, before partitions are
 * expanded: a keyed SELECT on a hinted partitioned table keeps the parent alone.
 */
static void RangeScanGetRelationInfo(PlannerInfo *root, Oid relid, bool inhparent, RelOptInfo *rel)
{
    Query *parse = root->parse;
    RangeTblEntry *rte;
    List *conjuncts = NIL;
    ListCell *lc;
    AttrNumber key_attnum = InvalidAttrNumber;
    AttrNumber range_attnum = InvalidAttrNumber;
    Relation parent;
    bool partitioned;

    if (previous_get_relation_info_hook)
        previous_get_relation_info_hook(root, relid, inhparent, rel);
    if (!permanode_range_scan || !permanode_partition_hints || !inhparent ||
        rel->reloptkind != RELOPT_BASEREL || parse->commandType != CMD_SELECT ||
        parse->rowMarks != NIL || parse->hasModifyingCTE || permanode_in_hint_query() ||
        get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE || !permanode_hints_for(relid))
        return;
    rte = planner_rt_fetch(rel->relid, root);
    if (rte->rtekind != RTE_RELATION || !rte->inh || rte->tablesample != NULL)
        return;

    CollectConjuncts((Node *)parse->jointree, &conjuncts);
    foreach (lc, conjuncts)
    {
        Var *var;
        Node *value;
        AttrNumber r;

        if (SplitEquality(lfirst(lc), rel->relid, &var, &value) &&
            key_attnum == InvalidAttrNumber && permanode_hint_lookup(relid, var->varattno, &r) &&
            getBaseType(exprType(value)) == getBaseType(var->vartype))
        {
            key_attnum = var->varattno;
            range_attnum = r;
        }
    }
    if (key_attnum == InvalidAttrNumber)
        return;
    foreach (lc, conjuncts)
        if (PinsRangeColumn(lfirst(lc), rel->relid, range_attnum))
            return;

    parent = table_open(relid, NoLock);
    partitioned = PartitionedOnRange(parent, range_attnum);
    table_close(parent, NoLock);
    if (!partitioned)
        return;

    /* From here on the parent is a plain relation to the planner; its paths are ours. */
    {
        RangeScanRel *mark = palloc0(sizeof(RangeScanRel));

        mark->magic = T_Invalid;
        mark->tag = range_scan_magic;
        mark->key_attnum = key_attnum;
        mark->range_attnum = range_attnum;
        rel->fdw_private = mark;
    }
    rte->inh = false;
    rel->part_scheme = NULL;
    rel->nparts = -1;
    rel->boundinfo = NULL;
    rel->partexprs = NULL;
    rel->nullable_partexprs = NULL;
}

static RangeScanRel *GetMark(RelOptInfo *rel)
{
    RangeScanRel *mark = rel->fdw_private;

    if (rel->rtekind == RTE_RELATION && rel->fdwroutine == NULL && mark != NULL &&
        mark->magic == T_Invalid && mark->tag == range_scan_magic)
        return mark;
    return NULL;
}

/*
 * The partitioned index to read the key through: its first column is the key, its second
 * ms_range_id, and its predicate (if any) is implied by the query's restrictions.
 */
static Oid FindParentIndex(Relation parent, RelOptInfo *rel, AttrNumber key_attnum,
                           AttrNumber range_attnum, List *clauses)
{
    List *indexes = RelationGetIndexList(parent);
    ListCell *lc;
    Oid found = InvalidOid;

    foreach (lc, indexes)
    {
        Relation index = index_open(lfirst_oid(lc), AccessShareLock);
        Form_pg_index form = index->rd_index;
        bool usable =
            form->indisvalid && form->indnkeyatts >= 2 && index->rd_rel->relam == BTREE_AM_OID &&
            form->indkey.values[0] == key_attnum && form->indkey.values[1] == range_attnum;

        if (usable)
        {
            List *pred = RelationGetIndexPredicate(index);

            if (pred != NIL)
            {
                pred = copyObject(pred);
                if (rel->relid != 1)
                    ChangeVarNodes((Node *)pred, 1, rel->relid, 0);
                usable = predicate_implied_by(pred, clauses, false);
            }
        }
        index_close(index, NoLock);
        if (usable)
        {
            found = lfirst_oid(lc);
            break;
        }
    }
    list_free(indexes);
    return found;
}

/* The pathkeys an index gives after its first column, read forward or backward. */
static List *IndexPathkeys(PlannerInfo *root, RelOptInfo *rel, Relation index, bool backward)
{
    List *pathkeys = NIL;
    Oid relid = index->rd_index->indrelid;

    for (int i = 1; i < index->rd_index->indnkeyatts; i++)
    {
        AttrNumber attnum = index->rd_index->indkey.values[i];
        int16 option = index->rd_indoption[i];
        bool desc = (option & INDOPTION_DESC) != 0;
        bool nulls_first = (option & INDOPTION_NULLS_FIRST) != 0;
        Oid type, collation, opno;
        int32 typmod;
        List *one;
        PathKey *pathkey;

        /* Expressions, and NULLS orders other than the defaults, end the usable prefix. */
        if (attnum == 0 || desc != nulls_first)
            break;
        get_atttypetypmodcoll(relid, attnum, &type, &typmod, &collation);
        opno = get_opfamily_member(
            index->rd_opfamily[i], index->rd_opcintype[i], index->rd_opcintype[i],
            (desc != backward) ? BTGreaterStrategyNumber : BTLessStrategyNumber);
        if (!OidIsValid(opno))
            break;
        one = build_expression_pathkey(
            root, (Expr *)makeVar(rel->relid, attnum, type, typmod, collation, 0), NULL, opno,
            rel->relids, false);
        if (one == NIL)
            break;
        pathkey = linitial(one);
        if (EC_MUST_BE_REDUNDANT(pathkey->pk_eclass) || list_member_ptr(pathkeys, pathkey))
            continue;
        pathkeys = lappend(pathkeys, pathkey);
    }
    return pathkeys;
}

/* A bound on the range column: `ms_range_id op value`, or a row comparison led by it. */
static bool RangeBoundOf(Node *clause, Index relid, AttrNumber range_attnum, int *strategy,
                         Node **value)
{
    if (IsA(clause, OpExpr) && list_length(((OpExpr *)clause)->args) == 2)
    {
        OpExpr *op = (OpExpr *)clause;
        Var *var = RelVar(linitial(op->args), relid);
        int s = get_op_opfamily_strategy(op->opno, INTEGER_BTREE_FAM_OID);

        if (var == NULL || var->varattno != range_attnum || s == 0 || s == BTEqualStrategyNumber ||
            !IsScanConstant(lsecond(op->args)) || exprType(lsecond(op->args)) != INT4OID)
            return false;
        *strategy = s;
        *value = lsecond(op->args);
        return true;
    }
    if (IsA(clause, RowCompareExpr))
    {
        RowCompareExpr *rc = (RowCompareExpr *)clause;
        Var *var = RelVar(linitial(rc->largs), relid);

        if (var == NULL || var->varattno != range_attnum || !IsScanConstant(linitial(rc->rargs)) ||
            exprType(linitial(rc->rargs)) != INT4OID ||
            get_op_opfamily_strategy(linitial_oid(rc->opnos), INTEGER_BTREE_FAM_OID) == 0)
            return false;
        /* (r, ...) < (c, ...) keeps ranges below c and part of range c. */
        if (rc->rctype == ROWCOMPARE_LT || rc->rctype == ROWCOMPARE_LE)
            *strategy = BTLessEqualStrategyNumber;
        else if (rc->rctype == ROWCOMPARE_GT || rc->rctype == ROWCOMPARE_GE)
            *strategy = BTGreaterEqualStrategyNumber;
        else
            return false;
        *value = linitial(rc->rargs);
        return true;
    }
    return false;
}

/* Adds our path (newest first and oldest first when an index orders them) to a marked rel. */
static void RangeScanSetRelPathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
                                    RangeTblEntry *rte)
{
    RangeScanRel *mark;
    Node *key_expr = NULL;
    List *bound_exprs = NIL;
    List *bound_strategies = NIL;
    List *clauses = NIL;
    ListCell *lc;
    Relation parent;
    Oid parent_index = InvalidOid;
    ParamPathInfo *param_info;

    if (previous_set_rel_pathlist_hook)
        previous_set_rel_pathlist_hook(root, rel, rti, rte);
    if ((mark = GetMark(rel)) == NULL)
        return;

    foreach (lc, rel->baserestrictinfo)
    {
        RestrictInfo *rinfo = lfirst(lc);
        Var *var;
        Node *value;
        int strategy;

        if (rinfo->pseudoconstant)
            continue;
        clauses = lappend(clauses, rinfo->clause);
        if (key_expr == NULL && SplitEquality((Node *)rinfo->clause, rel->relid, &var, &value) &&
            var->varattno == mark->key_attnum &&
            getBaseType(exprType(value)) == getBaseType(var->vartype) &&
            !contain_volatile_functions(value))
            key_expr = value;
        else if (RangeBoundOf((Node *)rinfo->clause, rel->relid, mark->range_attnum, &strategy,
                              &value))
        {
            bound_exprs = lappend(bound_exprs, value);
            bound_strategies = lappend_int(bound_strategies, strategy);
        }
    }

    parent = table_open(rte->relid, NoLock);
    if (key_expr != NULL)
        parent_index = FindParentIndex(parent, rel, mark->key_attnum, mark->range_attnum, clauses);

    /* Sizes: the parent's statistics are the inherited ones. */
    rel->tuples = Max(parent->rd_rel->reltuples, 1000.0);
    rte->inh = true;
    set_baserel_size_estimates(root, rel);
    rte->inh = false;

    /* The core paths read the parent alone (nothing): ours replace them. */
    rel->pathlist = NIL;
    rel->partial_pathlist = NIL;
    rel->cheapest_startup_path = rel->cheapest_total_path = NULL;
    rel->cheapest_unique_path = NULL;
    rel->cheapest_parameterized_paths = NIL;
    param_info = get_baserel_parampathinfo(root, rel, rel->lateral_relids);

    for (int backward = 0; backward <= (OidIsValid(parent_index) ? 1 : 0); backward++)
    {
        CustomPath *path = makeNode(CustomPath);
        List *settings = NIL;

        for (int i = 0; i < RS_NSETTINGS; i++)
            settings = lappend_int(settings, 0);
        list_nth_cell(settings, RS_KEY_ATTNUM)->int_value = mark->key_attnum;
        list_nth_cell(settings, RS_RANGE_ATTNUM)->int_value = mark->range_attnum;
        list_nth_cell(settings, RS_PARENT_INDEX)->int_value = (int)parent_index;
        list_nth_cell(settings, RS_BACKWARD)->int_value = backward;
        list_nth_cell(settings, RS_KEYED)->int_value = key_expr != NULL;

        path->path.pathtype = T_CustomScan;
        path->path.parent = rel;
        path->path.pathtarget = rel->reltarget;
        path->path.param_info = param_info;
        path->path.parallel_aware = false;
        path->path.parallel_safe = false;
        path->path.parallel_workers = 0;
        path->path.rows = param_info ? param_info->ppi_rows : rel->rows;
        /* The hint query, then an index probe per range and a fetch per row. */
        path->path.startup_cost = key_expr != NULL ? 2 * random_page_cost : 0;
        path->path.total_cost =
            key_expr != NULL
                ? path->path.startup_cost + path->path.rows * (random_page_cost + cpu_tuple_cost)
                : seq_page_cost * rel->tuples / 50 + rel->tuples * cpu_tuple_cost;
        if (OidIsValid(parent_index))
        {
            Relation index = index_open(parent_index, NoLock);

            path->path.pathkeys = IndexPathkeys(root, rel, index, backward);
            index_close(index, NoLock);
        }
        path->flags = 0;
        path->custom_paths = NIL;
        path->custom_private = list_make3(
            settings,
            list_concat(
                list_make1(key_expr ? key_expr : (Node *)makeNullConst(INT4OID, -1, InvalidOid)),
                bound_exprs),
            bound_strategies);
        path->methods = &range_scan_path_methods;
        add_path(rel, &path->path);
    }
    table_close(parent, NoLock);
}

static Plan *RangeScanPlanPath(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
                               List *tlist, List *clauses, List *custom_plans)
{
    CustomScan *cscan = makeNode(CustomScan);

    cscan->scan.plan.targetlist = tlist;
    /* Every restriction is checked on each row: the key too (foreign or unindexed ranges). */
    cscan->scan.plan.qual = extract_actual_clauses(clauses, false);
    cscan->scan.scanrelid = rel->relid;
    cscan->flags = best_path->flags;
    cscan->custom_plans = NIL;
    cscan->custom_exprs = lsecond(best_path->custom_private);
    cscan->custom_private =
        list_make2(linitial(best_path->custom_private), lthird(best_path->custom_private));
    cscan->custom_scan_tlist = NIL;
    cscan->methods = &range_scan_plan_methods;
    return &cscan->scan.plan;
}

/* ------------------------------------------------------------------------------------------ */
/* Execution                                                                                   */
/* ------------------------------------------------------------------------------------------ */

#define RS_MAX_SHOWN 16 /* partitions named by EXPLAIN ANALYZE */

typedef struct RangeScanState
{
    CustomScanState css;

    /* from the plan */
    AttrNumber key_attnum;
    AttrNumber range_attnum;
    Oid parent_index;
    bool backward;
    bool keyed;
    ExprState *key_state;
    Oid key_type; /* the key column's type */
    int16 key_typlen;
    bool key_typbyval;
    List *bound_states;
    List *bound_strategies;

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
    bool hints_open;  /* more hinted ranges may follow those fetched */
    int64 hint_after; /* the last hinted range fetched (exclusive start of the next page) */
    int hint_page;    /* ranges to fetch next */

    /* the partition being read */
    Relation part_rel;
    Relation part_index;
    IndexScanDesc index_scan;
    TableScanDesc table_scan;
    Tuplestorestate *rows; /* a foreign partition's rows, from SPI */
    TupleTableSlot *part_slot;
    AttrMap *map; /* partition to parent columns; NULL when the same */

    /* for EXPLAIN ANALYZE, over all loops */
    int64 ranges_hinted;
    int64 partitions_read;
    Oid shown[RS_MAX_SHOWN];
    int nshown;
    bool more_shown;
} RangeScanState;

static Node *RangeScanCreateState(CustomScan *cscan)
{
    RangeScanState *state = (RangeScanState *)newNode(sizeof(RangeScanState), T_CustomScanState);

    state->css.methods = &range_scan_exec_methods;
    return (Node *)state;
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
    state->keyed = list_nth_int(settings, RS_KEYED) != 0;
    state->bound_strategies = lsecond(cscan->custom_private);
    state->key_state = ExecInitExpr(linitial(cscan->custom_exprs), &node->ss.ps);
    for_each_from (lc, cscan->custom_exprs, 1)
    {
        state->bound_states = lappend(state->bound_states, ExecInitExpr(lfirst(lc), &node->ss.ps));
    }
    state->key_type = TupleDescAttr(RelationGetDescr(parent), state->key_attnum - 1)->atttypid;
    get_typlenbyval(state->key_type, &state->key_typlen, &state->key_typbyval);

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
        int index = b->indexes[state->backward ? b->ndatums - d : d];

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
                                        state->key_attnum, state->key_value, !state->backward,
                                        state->hint_after, state->hint_page, &n);
    if (n < 0)
    {
        /* The column is no longer hinted: every partition not read yet. */
        AddAllPartitions(state);
        state->hints_open = false;
        MemoryContextSwitchTo(old);
        return true;
    }
    state->ranges_hinted += n;
    for (int r = 0; r < n; r++)
        AddRange(state, ranges[r]);
    if (n > 0)
        state->hint_after = ranges[n - 1];
    state->hints_open = n == state->hint_page;
    state->hint_page = Min(state->hint_page * 4, 65536);
    MemoryContextSwitchTo(old);
    return n > 0;
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
        /* Ranges are int4: start beyond either end, or at a bound on the range column. */
        state->hints_open = true;
        state->hint_after = state->backward ? (int64)PG_INT32_MIN - 1 : (int64)PG_INT32_MAX + 1;
        i = 0;
        foreach (lc, state->bound_strategies)
        {
            int64 b = DatumGetInt32(state->bounds[i]);
            int strategy = lfirst_int(lc);

            if (!state->bound_nulls[i] && !state->backward && strategy == BTLessStrategyNumber)
                state->hint_after = Min(state->hint_after, b);
            else if (!state->bound_nulls[i] && !state->backward &&
                     strategy == BTLessEqualStrategyNumber)
                state->hint_after = Min(state->hint_after, b + 1);
            else if (!state->bound_nulls[i] && state->backward &&
                     strategy == BTGreaterStrategyNumber)
                state->hint_after = Max(state->hint_after, b);
            else if (!state->bound_nulls[i] && state->backward &&
                     strategy == BTGreaterEqualStrategyNumber)
                state->hint_after = Max(state->hint_after, b - 1);
            i++;
        }
        state->hint_page = 16;
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
    if (state->rows != NULL)
        tuplestore_end(state->rows);
    if (state->part_rel != NULL)
        table_close(state->part_rel, NoLock);
    if (state->map != NULL)
        free_attrmap(state->map);
    state->index_scan = NULL;
    state->table_scan = NULL;
    state->part_index = NULL;
    state->part_slot = NULL;
    state->rows = NULL;
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

static void ForgetChildIndexes(Datum arg, Oid relid)
{
    if (child_index_cache != NULL)
    {
        hash_destroy(child_index_cache);
        child_index_cache = NULL;
    }
}

static Oid ChildIndex(Relation part, Oid parent_index)
{
    ChildIndexKey key;
    ChildIndexEntry *entry;
    bool found;

    if (child_index_cache == NULL)
    {
        HASHCTL ctl;

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
        Oid child = index_get_partition(part, parent_index);

        /* The cache may have been reset by an invalidation during the catalog scan. */
        if (child_index_cache == NULL)
            return child;
        entry = hash_search(child_index_cache, &key, HASH_ENTER, &found);
        entry->child_index = child;
        return child;
    }
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

/* Reads a foreign (or otherwise unindexable) partition's rows for the key through SPI. */
static void ReadThroughSPI(RangeScanState *state, Relation part)
{
    Relation parent = state->css.ss.ss_currentRelation;
    TupleDesc desc = RelationGetDescr(parent);
    StringInfoData sql;
    bool first = true;
    int ret;
    Datum *values = palloc(sizeof(Datum) * desc->natts);
    bool *nulls = palloc(sizeof(bool) * desc->natts);
    Oid save_userid;
    int save_sec_context;

    initStringInfo(&sql);
    appendStringInfoString(&sql, "SELECT ");
    for (int i = 0; i < desc->natts; i++)
    {
        if (TupleDescAttr(desc, i)->attisdropped)
            continue;
        appendStringInfo(&sql, "%s%s", first ? "" : ", ",
                         quote_identifier(NameStr(TupleDescAttr(desc, i)->attname)));
        first = false;
    }
    /* ONLY keeps inheritance children of a foreign table out; a partitioned one needs its own. */
    appendStringInfo(&sql, " FROM %s%s",
                     part->rd_rel->relkind == RELKIND_PARTITIONED_TABLE ? "" : "ONLY ",
                     quote_qualified_identifier(get_namespace_name(RelationGetNamespace(part)),
                                                RelationGetRelationName(part)));
    if (state->keyed)
        appendStringInfo(
            &sql, " WHERE %s = $1",
            quote_identifier(NameStr(TupleDescAttr(desc, state->key_attnum - 1)->attname)));
    if (OidIsValid(state->parent_index))
    {
        Relation index = index_open(state->parent_index, AccessShareLock);

        for (int i = 1; i < index->rd_index->indnkeyatts; i++)
        {
            AttrNumber attnum = index->rd_index->indkey.values[i];
            bool desc_col = (index->rd_indoption[i] & INDOPTION_DESC) != 0;

            if (attnum == 0)
                break;
            appendStringInfo(&sql, "%s%s %s", i == 1 ? " ORDER BY " : ", ",
                             quote_identifier(NameStr(TupleDescAttr(desc, attnum - 1)->attname)),
                             desc_col != state->backward ? "DESC NULLS FIRST" : "ASC NULLS LAST");
        }
        index_close(index, NoLock);
    }

    state->rows = tuplestore_begin_heap(false, false, work_mem);
    SPI_connect();
    /*
     * The executor checked the user's right to read the parent. A partition read through its
     * parent needs no right of its own (PostgreSQL's own scans of partitions check none), so the
     * query on the partition runs as its owner: a reader of the ledger reads its cold ranges too.
     * An error on the way restores the user with the (sub)transaction's abort.
     */
    GetUserIdAndSecContext(&save_userid, &save_sec_context);
    SetUserIdAndSecContext(part->rd_rel->relowner,
                           save_sec_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
    ret = SPI_execute_with_args(sql.data, state->keyed ? 1 : 0, &state->key_type, &state->key_value,
                                NULL, true, 0);
    SetUserIdAndSecContext(save_userid, save_sec_context);
    if (ret != SPI_OK_SELECT)
        elog(ERROR, "cannot read partition \"%s\": %s", RelationGetRelationName(part),
             SPI_result_code_string(ret));
    for (uint64 r = 0; r < SPI_processed; r++)
    {
        int column = 1;

        CHECK_FOR_INTERRUPTS();
        for (int i = 0; i < desc->natts; i++)
        {
            if (TupleDescAttr(desc, i)->attisdropped)
            {
                values[i] = (Datum)0;
                nulls[i] = true;
                continue;
            }
            values[i] =
                SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, column++, &nulls[i]);
        }
        tuplestore_putvalues(state->rows, desc, values, nulls);
    }
    SPI_finish();
    state->part_slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
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
        ReadThroughSPI(state, part);
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
        ScanKeyData key;
        Oid opno = get_opfamily_member(index->rd_opfamily[0], index->rd_opcintype[0],
                                       index->rd_opcintype[0], BTEqualStrategyNumber);

        if (!OidIsValid(opno))
            elog(ERROR, "missing equality operator for index \"%s\"",
                 RelationGetRelationName(index));
        ScanKeyEntryInitialize(&key, 0, 1, BTEqualStrategyNumber, index->rd_opcintype[0],
                               index->rd_indcollation[0], get_opcode(opno), state->key_value);
        state->index_scan = index_beginscan(part, index, estate->es_snapshot, 1, 0);
        index_rescan(state->index_scan, &key, 1, NULL, 0);
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
        found = tuplestore_gettupleslot(state->rows, true, false, in);
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

        ExplainPropertyText("Key", psprintf("%s = %s", quote_identifier(column), value), es);
    }
    else
        ExplainPropertyText("Key", "none: every partition", es);
    ExplainPropertyText("Hint Column", column, es);
    if (OidIsValid(state->parent_index))
    {
        ExplainPropertyText("Index", get_rel_name(state->parent_index), es);
        ExplainPropertyText("Order", state->backward ? "oldest first" : "newest first", es);
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
    }
}

void permanode_install_range_scan(void)
{
    range_scan_path_methods.CustomName = "Permanode Range Scan";
    range_scan_path_methods.PlanCustomPath = RangeScanPlanPath;

    range_scan_plan_methods.CustomName = "Permanode Range Scan";
    range_scan_plan_methods.CreateCustomScanState = RangeScanCreateState;
    RegisterCustomScanMethods(&range_scan_plan_methods);

    range_scan_exec_methods.CustomName = "Permanode Range Scan";
    range_scan_exec_methods.BeginCustomScan = RangeScanBegin;
    range_scan_exec_methods.ExecCustomScan = RangeScanExec;
    range_scan_exec_methods.EndCustomScan = RangeScanEnd;
    range_scan_exec_methods.ReScanCustomScan = RangeScanReScan;
    range_scan_exec_methods.ExplainCustomScan = RangeScanExplain;

    previous_get_relation_info_hook = get_relation_info_hook;
    get_relation_info_hook = RangeScanGetRelationInfo;
    CacheRegisterRelcacheCallback(ForgetChildIndexes, (Datum)0);
    previous_set_rel_pathlist_hook = set_rel_pathlist_hook;
    set_rel_pathlist_hook = RangeScanSetRelPathlist;
}
