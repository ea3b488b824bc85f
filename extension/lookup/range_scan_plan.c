/*
 * range_scan_plan.c
 *	  Permanode Range Scan, planning: reads a keyed lookup on a partitioned ledger table range by
 *	  range, choosing the ranges at execution time.
 *
 *	  Planning a lookup over the partitions that hold a key costs ~25-100 us per partition and
 *	  must be redone for every key. This node plans in O(1) instead: for a SELECT with
 *	  `key = Const/Param` on a hinted column, the table is not expanded into its partitions
 *	  (its range-table entry is marked inh = false) and the parent gets one CustomPath. At
 *	  execution the node evaluates the key, runs the column's hint query, orders the ranges
 *	  (newest first, or oldest first), and reads them one at a time through each partition's
 *	  index on the key, opening a partition only when the previous one is exhausted, so a LIMIT
 *	  above stops early. The plan does not depend on the key, so it can be a cached generic plan.
 *	  An IN list (`key = ANY (array)`) is read the same way, from the ranges of all its keys, in
 *	  no particular order.
 *	  A keyset cursor, a row comparison on the index's columns after the key in the direction of
 *	  the read (`(ms_range_id, ms_timestamp, ...) < ($2, $3, ...)` newest first), is added to
 *	  each partition's index scan and to an archive's query: a deep page starts at the cursor
 *	  instead of reading and discarding every row of its range newer than the cursor.
 *
 *	  This file plans the node (range_scan_exec.c runs it). Rules that keep results exact:
 *	  - every restriction of the query (the key too) is re-checked on each row;
 *	  - a query pinning ms_range_id with = or = ANY, a locking SELECT or a write is left alone;
 *	  - a range without a partition is skipped; a foreign (archived) partition is read through
 *	    SPI, in index order; a partition without a usable index is read sequentially;
 *	  - when the column is no longer hinted at execution, every partition is read.
 *	  With permanode.range_scan off, PostgreSQL plans every lookup over all partitions.
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

#include "lookup/lookup.h"
#include "permanode.h"

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

static Plan *RangeScanPlanPath(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
                               List *tlist, List *clauses, List *custom_plans);

static const CustomPathMethods range_scan_path_methods = {
    .CustomName = RANGE_SCAN_NAME,
    .PlanCustomPath = RangeScanPlanPath,
};
static const CustomScanMethods range_scan_plan_methods = {
    .CustomName = RANGE_SCAN_NAME,
    .CreateCustomScanState = permanode_range_scan_create_state,
};

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

/*
 * For `Var(rel) = value`, or `Var(rel) = ANY (array)` (an IN list; *is_array set), the Var and
 * the value, when the value is of the column's type (domains compare as their base types);
 * false for any other clause.
 */
static bool SplitKeyClause(Node *clause, Index relid, Var **var, Node **value, bool *is_array)
{
    List *args;
    Oid opno;
    Oid value_type;

    if (IsA(clause, OpExpr))
        args = ((OpExpr *)clause)->args, opno = ((OpExpr *)clause)->opno, *is_array = false;
    else if (IsA(clause, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *)clause)->useOr)
        args = ((ScalarArrayOpExpr *)clause)->args, opno = ((ScalarArrayOpExpr *)clause)->opno,
        *is_array = true;
    else
        return false;
    if (list_length(args) != 2 || get_oprrest(opno) != F_EQSEL)
        return false;
    if ((*var = RelVar(linitial(args), relid)) != NULL && IsScanConstant(lsecond(args)))
        *value = lsecond(args);
    else if (!*is_array && (*var = RelVar(lsecond(args), relid)) != NULL &&
             IsScanConstant(linitial(args)))
        *value = linitial(args);
    else
        return false;
    value_type = getBaseType(exprType(*value));
    if (*is_array)
        value_type = getBaseType(get_element_type(value_type));
    return value_type == getBaseType((*var)->vartype) && !contain_volatile_functions(*value);
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
    if (!permanode_range_scan || !inhparent || rel->reloptkind != RELOPT_BASEREL ||
        parse->commandType != CMD_SELECT || parse->rowMarks != NIL || parse->hasModifyingCTE ||
        permanode_in_hint_query() || get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE ||
        !permanode_hints_for(relid))
        return;
    rte = planner_rt_fetch(rel->relid, root);
    if (rte->rtekind != RTE_RELATION || !rte->inh || rte->tablesample != NULL)
        return;

    CollectConjuncts((Node *)parse->jointree, &conjuncts);
    /* A key equality; else an IN list on a keyed column. */
    for (int want_array = 0; want_array <= 1 && key_attnum == InvalidAttrNumber; want_array++)
        foreach (lc, conjuncts)
        {
            Var *var;
            Node *value;
            bool is_array;
            AttrNumber r;

            if (SplitKeyClause(lfirst(lc), rel->relid, &var, &value, &is_array) &&
                is_array == (want_array != 0) && key_attnum == InvalidAttrNumber &&
                permanode_hint_lookup(relid, var->varattno, &r))
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
 * Where the table has no such partitioned index (tags and parents: their lookup order is each
 * partition's unique key, which a parent with archived partitions cannot have), a hot
 * partition's index led by (key, ms_range_id), without a predicate, whose columns have the
 * parent's numbers: every range's partition has one alike (range_scan_exec.c finds it by its
 * columns), so it orders the rows as a parent index would.
 */
static Oid FindRangeIndexTemplate(Relation parent, AttrNumber key_attnum, AttrNumber range_attnum)
{
    PartitionDesc partdesc = RelationGetPartitionDesc(parent, true);
    TupleDesc parent_desc = RelationGetDescr(parent);
    Oid found = InvalidOid;

    for (int p = 0; p < partdesc->nparts && !OidIsValid(found); p++)
    {
        Relation part;
        TupleDesc part_desc;
        List *indexes;
        ListCell *lc;

        if (get_rel_relkind(partdesc->oids[p]) != RELKIND_RELATION)
            continue;
        part = table_open(partdesc->oids[p], AccessShareLock);
        part_desc = RelationGetDescr(part);
        indexes = RelationGetIndexList(part);
        foreach (lc, indexes)
        {
            Relation index = index_open(lfirst_oid(lc), AccessShareLock);
            Form_pg_index form = index->rd_index;
            bool usable = form->indisvalid && form->indnkeyatts >= 2 &&
                          index->rd_rel->relam == BTREE_AM_OID &&
                          form->indkey.values[0] == key_attnum &&
                          form->indkey.values[1] == range_attnum &&
                          heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL);

            /* The same column under the same number in the parent and the partition. */
            for (int i = 0; usable && i < form->indnkeyatts; i++)
            {
                AttrNumber attnum = form->indkey.values[i];

                usable = attnum > 0 && attnum <= parent_desc->natts && attnum <= part_desc->natts &&
                         strcmp(NameStr(TupleDescAttr(parent_desc, attnum - 1)->attname),
                                NameStr(TupleDescAttr(part_desc, attnum - 1)->attname)) == 0;
            }
            index_close(index, NoLock);
            if (usable)
            {
                found = lfirst_oid(lc);
                break;
            }
        }
        list_free(indexes);
        table_close(part, NoLock);
        break; /* one hot partition tells: they are all made alike */
    }
    return found;
}

/*
 * The partitioned index to read the key through: its first column is the key, its second
 * ms_range_id, and its predicate (if any) is implied by the query's restrictions; else a
 * partition's index of that shape (FindRangeIndexTemplate).
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
    if (!OidIsValid(found))
        found = FindRangeIndexTemplate(parent, key_attnum, range_attnum);
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

/*
 * Whether clause is a keyset cursor the index read in this direction can start at: a row
 * comparison of the index's columns after the key, in order (a prefix of them), with values fixed
 * for the scan, of the index's operators, whose rows come after the cursor in reading order (a
 * newest-first read of DESC columns and `<`, say). Mixed directions are left to the recheck.
 */
static bool IsSeek(Node *clause, Index relid, Relation index, bool backward)
{
    Expr *guard;
    RowCompareExpr *rc = permanode_seek_row(clause, &guard);
    int i = 0;
    ListCell *l, *r, *o, *c;

    if (rc == NULL || (guard != NULL && !IsScanConstant((Node *)guard)))
        return false;
    if (rc->rctype == ROWCOMPARE_EQ || rc->rctype == ROWCOMPARE_NE ||
        list_length(rc->largs) >= index->rd_index->indnkeyatts)
        return false;
    forfour(l, rc->largs, r, rc->rargs, o, rc->opnos, c, rc->inputcollids)
    {
        int column = ++i; /* the index's column after the key, 0-based */
        Var *var = RelVar(lfirst(l), relid);
        bool descending = ((index->rd_indoption[column] & INDOPTION_DESC) != 0) != backward;
        Oid collation = index->rd_indcollation[column];

        if (var == NULL || var->varattno != index->rd_index->indkey.values[column] ||
            !IsScanConstant(lfirst(r)) || contain_volatile_functions(lfirst(r)) ||
            get_op_opfamily_strategy(lfirst_oid(o), index->rd_opfamily[column]) !=
                (int)rc->rctype ||
            (OidIsValid(collation) && lfirst_oid(c) != collation))
            return false;
        /* rows after the cursor: smaller ones read descending, larger ones ascending */
        if (descending != (rc->rctype == ROWCOMPARE_LT || rc->rctype == ROWCOMPARE_LE))
            return false;
    }
    return true;
}

/* The first restriction the index read can start at (IsSeek), or NULL. */
static Node *FindSeek(List *clauses, Index relid, Relation index, bool backward)
{
    ListCell *lc;

    foreach (lc, clauses)
        if (IsSeek(lfirst(lc), relid, index, backward))
            return lfirst(lc);
    return NULL;
}

/*
 * The row comparison of a keyset cursor's clause: the clause itself, or in `x IS NULL OR row op
 * (...)`, a cursor that may be absent (a function's parameters give it so), the row comparison,
 * *guard then x: when x is NULL there is no cursor. NULL for any other clause.
 */
RowCompareExpr *permanode_seek_row(Node *clause, Expr **guard)
{
    *guard = NULL;
    if (IsA(clause, RowCompareExpr))
        return (RowCompareExpr *)clause;
    if (is_orclause(clause) && list_length(((BoolExpr *)clause)->args) == 2)
    {
        List *args = ((BoolExpr *)clause)->args;

        for (int i = 0; i < 2; i++)
        {
            Node *test = list_nth(args, i);
            Node *row = list_nth(args, 1 - i);

            if (IsA(test, NullTest) && ((NullTest *)test)->nulltesttype == IS_NULL &&
                !((NullTest *)test)->argisrow && IsA(row, RowCompareExpr))
            {
                *guard = ((NullTest *)test)->arg;
                return (RowCompareExpr *)row;
            }
        }
    }
    return NULL;
}

/* Adds our path (newest first and oldest first when an index orders them) to a marked rel. */
static void RangeScanSetRelPathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
                                    RangeTblEntry *rte)
{
    RangeScanRel *mark;
    Node *key_expr = NULL;
    bool key_array = false;
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
        bool is_array;
        int strategy;

        if (rinfo->pseudoconstant)
            continue;
        clauses = lappend(clauses, rinfo->clause);
        if (SplitKeyClause((Node *)rinfo->clause, rel->relid, &var, &value, &is_array) &&
            var->varattno == mark->key_attnum)
        {
            /* a single key rather than a list */
            if (key_expr == NULL || (key_array && !is_array))
                key_expr = value, key_array = is_array;
        }
        else if (RangeBoundOf((Node *)rinfo->clause, rel->relid, mark->range_attnum, &strategy,
                              &value))
        {
            bound_exprs = lappend(bound_exprs, value);
            bound_strategies = lappend_int(bound_strategies, strategy);
        }
    }

    parent = table_open(rte->relid, NoLock);
    /* The rows of several keys interleave in each partition: a list reads in no useful order. */
    if (key_expr != NULL && !key_array)
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
        Node *seek = NULL;

        for (int i = 0; i < RS_NSETTINGS; i++)
            settings = lappend_int(settings, 0);
        list_nth_cell(settings, RS_KEY_ATTNUM)->int_value = mark->key_attnum;
        list_nth_cell(settings, RS_RANGE_ATTNUM)->int_value = mark->range_attnum;
        list_nth_cell(settings, RS_PARENT_INDEX)->int_value = (int)parent_index;
        list_nth_cell(settings, RS_BACKWARD)->int_value = backward;
        list_nth_cell(settings, RS_KEYED)->int_value = key_expr != NULL;
        list_nth_cell(settings, RS_KEY_ARRAY)->int_value = key_array;

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
            /* ms_range_id DESC (the lookups') read forward, or ASC (unique keys) backward:
             * newest first. */
            bool range_desc = (index->rd_indoption[1] & INDOPTION_DESC) != 0;

            list_nth_cell(settings, RS_OLDEST_FIRST)->int_value = backward == range_desc;
            path->path.pathkeys = IndexPathkeys(root, rel, index, backward);
            seek = FindSeek(clauses, rel->relid, index, backward);
            index_close(index, NoLock);
        }
        if (seek != NULL)
            list_nth_cell(settings, RS_SEEK)->int_value = 1;
        path->flags = 0;
        path->custom_paths = NIL;
        path->custom_private = list_make3(
            settings,
            list_concat(
                list_make1(key_expr ? key_expr : (Node *)makeNullConst(INT4OID, -1, InvalidOid)),
                seek ? lappend(list_copy(bound_exprs), seek) : bound_exprs),
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

void permanode_install_range_scan(void)
{
    RegisterCustomScanMethods(&range_scan_plan_methods);
    previous_get_relation_info_hook = get_relation_info_hook;
    get_relation_info_hook = RangeScanGetRelationInfo;
    previous_set_rel_pathlist_hook = set_rel_pathlist_hook;
    set_rel_pathlist_hook = RangeScanSetRelPathlist;
}
