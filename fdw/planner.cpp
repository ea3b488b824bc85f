/*
 * planner.cpp
 *	  Paths of archived foreign tables, chosen like an index AM chooses index paths.
 *
 *	  Every archived family (the rows, keyed by the row key, and each index) is a sorted key
 *	  space. For each family we take the equality quals on its leading key columns and the range
 *	  quals on the next one: they bound the iteration. A row comparison on the next ones, all of
 *	  one direction (a keyset cursor), bounds it as one range over those columns. One equality
 *	  may be an IN list ("column = ANY (array)"): the scan then reads one key range per element,
 *	  in key order. A family whose key order is useful to the query (ORDER BY, merge joins,
 *	  MergeAppend over partitions) also yields ordered paths, forward and backward. A join clause
 *	  "column = outer expression" on a family's first column yields a parameterized path for
 *	  nested-loop joins. Quals on the partition key prune inside the archive (rows whose row key
 *	  holds an ms_range_id outside the quals are skipped before their value is read).
 *
 *	  Pushed quals stay in the plan's qual list as well, so the executor rechecks every row:
 *	  pushdown only narrows what is read, it never decides what is returned.
 *
 *	  Row estimates come from the catalog (reltuples after ANALYZE, else the row_count option):
 *	  planning never opens an archive. This file is plain PostgreSQL code, without C++ objects.
 */
extern "C"
{
#include "postgres.h"

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "access/sysattr.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/typcache.h"
}

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

namespace
{

/* Positions in ForeignPath.fdw_private. */
enum FdwPathPrivateIndex
{
    FdwPathPrivateIndexNumber, /* Integer: family */
    FdwPathPrivateBackward,    /* Integer: 1 for a backward scan */
    FdwPathPrivateClauses,     /* RestrictInfos pushed down */
    FdwPathPrivateConditions,  /* IntList per clause, see FdwConditionIndex */
    FdwPathPrivateIndexOnly,   /* Integer: 1 when the family's entries hold every needed column */
};

/* A qual "column OP value" that a family can use. */
struct KeyQual
{
    RestrictInfo *rinfo;
    AttrNumber attnum;
    int strategy; /* BTLessStrategyNumber..BTGreaterStrategyNumber, as "column OP value" */
    bool var_on_left;
    Oid value_type; /* for an IN list, the element type */
    bool array;     /* "column = ANY (array)" */
};

bool IsIntegerType(Oid typid)
{
    return typid == INT2OID || typid == INT4OID || typid == INT8OID;
}

/* The default btree operator family of a type, or InvalidOid: from the type cache, since the
 * planner asks it for every archived partition of every plan (GetDefaultOpClass scans pg_opclass
 * each time). */
Oid DefaultBtreeFamily(Oid typid)
{
    return lookup_type_cache(typid, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
}

/* True when the archive's byte order of a column is the order of its default btree opclass. */
bool OrderIsBytewise(Oid typid, Oid collation)
{
    int fixed_len;
    KeyKind kind = KeyKindOfType(typid, &fixed_len);
    if (kind == KeyKind::kNone)
        return false;
    if (typid == TEXTOID || typid == VARCHAROID)
        return lc_collate_is_c(collation);
    return true;
}

/*
 * Matches "column OP value" or "value OP column" where the column belongs to baserel and value
 * does not; a restriction's value holds no Vars at all, a join clause's only other relations'.
 */
bool MatchKeyQual(PlannerInfo *root, RelOptInfo *baserel, RestrictInfo *rinfo, bool join,
                  KeyQual *out)
{
    List *args;
    Oid opno, inputcollid;
    bool array = false;
    if (IsA(rinfo->clause, OpExpr))
    {
        OpExpr *op = (OpExpr *)rinfo->clause;
        args = op->args, opno = op->opno, inputcollid = op->inputcollid;
    }
    else if (IsA(rinfo->clause, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *)rinfo->clause)->useOr)
    {
        /* "column = ANY (array)", the form IN (...) takes */
        ScalarArrayOpExpr *op = (ScalarArrayOpExpr *)rinfo->clause;
        args = op->args, opno = op->opno, inputcollid = op->inputcollid;
        array = true;
    }
    else
        return false;
    if (list_length(args) != 2)
        return false;
    Node *left = (Node *)linitial(args);
    Node *right = (Node *)lsecond(args);
    while (left && IsA(left, RelabelType))
        left = (Node *)((RelabelType *)left)->arg;
    while (right && IsA(right, RelabelType))
        right = (Node *)((RelabelType *)right)->arg;
    bool var_on_left;
    Var *var;
    Node *value;
    auto is_our_var = [&](Node *n)
    {
        return n != nullptr && IsA(n, Var) && ((Var *)n)->varno == (int)baserel->relid &&
               ((Var *)n)->varlevelsup == 0 && ((Var *)n)->varattno > 0;
    };
    if (is_our_var(left))
    {
        var = (Var *)left;
        value = right;
        var_on_left = true;
    }
    else if (is_our_var(right) && !array)
    {
        var = (Var *)right;
        value = left;
        var_on_left = false;
    }
    else
        return false;
    if (join ? bms_is_member(baserel->relid, pull_varnos(root, value)) : contain_var_clause(value))
        return false;
    if (contain_volatile_functions(value))
        return false;

    /* The ledger's ID columns are domains (block_id over hash32) compared with their base type's
     * operators, and the value is of the base type or the domain: match on base types. */
    Oid typid = getBaseType(var->vartype);
    int fixed_len;
    KeyKind kind = KeyKindOfType(typid, &fixed_len);
    if (kind == KeyKind::kNone)
        return false;
    Oid family = DefaultBtreeFamily(typid);
    if (!OidIsValid(family) || !op_in_opfamily(opno, family))
        return false;
    int strategy;
    Oid lefttype, righttype;
    get_op_opfamily_properties(opno, family, false, &strategy, &lefttype, &righttype);
    Oid value_type = exprType(value);
    if (array)
    {
        value_type = get_element_type(getBaseType(value_type));
        if (!OidIsValid(value_type) || strategy != BTEqualStrategyNumber)
            return false;
    }
    value_type = getBaseType(value_type);
    bool same_type = value_type == typid;
    bool integers = IsIntegerType(typid) && IsIntegerType(value_type);
    if (!same_type && !integers)
        return false;
    if (kind == KeyKind::kBool && strategy != BTEqualStrategyNumber)
        return false;
    if (!var_on_left)
        strategy = BTCommuteStrategyNumber(strategy);
    /* Equality on text needs a deterministic collation, order the C collation. */
    if (typid == TEXTOID || typid == VARCHAROID)
    {
        if (strategy == BTEqualStrategyNumber
                ? (OidIsValid(inputcollid) && !get_collation_isdeterministic(inputcollid))
                : !lc_collate_is_c(inputcollid))
            return false;
    }
    out->rinfo = rinfo;
    out->attnum = var->varattno;
    out->strategy = strategy;
    out->var_on_left = var_on_left;
    out->value_type = value_type;
    out->array = array;
    return true;
}

/* The quals of baserel's restrictions that could bound a key. */
List *CandidateQuals(PlannerInfo *root, RelOptInfo *baserel)
{
    List *quals = NIL;
    ListCell *lc;
    foreach (lc, baserel->baserestrictinfo)
    {
        KeyQual q;
        if (MatchKeyQual(root, baserel, (RestrictInfo *)lfirst(lc), false, &q))
        {
            KeyQual *copy = (KeyQual *)palloc(sizeof(KeyQual));
            *copy = q;
            quals = lappend(quals, copy);
        }
    }
    return quals;
}

/* Appends a pushed-down qual and its condition descriptor (member: of a row comparison). */
void PushQual(List **clauses, List **conditions, const KeyQual *q, int column, int member = -1)
{
    *clauses = lappend(*clauses, q->rinfo);
    List *condition =
        list_make5_int(column, q->attnum, q->strategy, q->var_on_left ? 1 : 0, (int)q->value_type);
    condition = lappend_int(condition, q->array ? 1 : 0);
    *conditions = lappend(*conditions, lappend_int(condition, member));
}

/* The restrictions that are row comparisons of baserel's columns with values: keyset cursors. */
List *RowQuals(RelOptInfo *baserel)
{
    List *rows = NIL;
    ListCell *lc;
    foreach (lc, baserel->baserestrictinfo)
    {
        RestrictInfo *rinfo = (RestrictInfo *)lfirst(lc);
        if (!IsA(rinfo->clause, RowCompareExpr))
            continue;
        RowCompareExpr *rc = (RowCompareExpr *)rinfo->clause;
        if (rc->rctype != ROWCOMPARE_EQ && rc->rctype != ROWCOMPARE_NE &&
            !contain_var_clause((Node *)rc->rargs) &&
            !contain_volatile_functions((Node *)rc->rargs))
            rows = lappend(rows, rinfo);
    }
    return rows;
}

/*
 * Matches member `member` of row comparison rc to key column `column` of family: its column, of
 * a type whose archive order is its btree order, in the direction of the member before.
 */
bool MatchRowMember(const ArchivedIndex *family, int column, RowCompareExpr *rc, int member,
                    RestrictInfo *rinfo, KeyQual *out)
{
    Node *left = (Node *)list_nth(rc->largs, member);
    while (left && IsA(left, RelabelType))
        left = (Node *)((RelabelType *)left)->arg;
    if (column >= family->ncolumns || left == nullptr || !IsA(left, Var) ||
        ((Var *)left)->varattno != family->attnums[column] ||
        family->desc[column] != family->desc[column - member])
        return false;
    Oid typid = getBaseType(((Var *)left)->vartype);
    Oid value_type = getBaseType(exprType((Node *)list_nth(rc->rargs, member)));
    Oid family_oid = DefaultBtreeFamily(typid);
    Oid opno = list_nth_oid(rc->opnos, member);
    int fixed_len;
    KeyKind kind = KeyKindOfType(typid, &fixed_len);
    if (kind == KeyKind::kNone || kind == KeyKind::kBool ||
        !OrderIsBytewise(typid, list_nth_oid(rc->inputcollids, member)) ||
        !OidIsValid(family_oid) ||
        get_op_opfamily_strategy(opno, family_oid) != static_cast<int>(rc->rctype) ||
        !(value_type == typid || (IsIntegerType(typid) && IsIntegerType(value_type))))
        return false;
    out->rinfo = rinfo;
    out->attnum = family->attnums[column];
    out->strategy = static_cast<int>(rc->rctype);
    out->var_on_left = true;
    out->value_type = value_type;
    out->array = false;
    return true;
}

/*
 * A keyset cursor on the key columns from `column` on, `(c, d, ...) < (v, w, ...)`: the scan
 * starts (or stops) at its encoded values, as at a range qual on several columns at once. Pushes
 * one condition per member, for the first row qual all of whose members match; false if none.
 */
bool ChooseRowQual(const ArchiveOptions *opts, int index, List *rows, int column, List **clauses,
                   List **conditions)
{
    const ArchivedIndex *family = &opts->indexes[index];
    ListCell *lc;
    foreach (lc, rows)
    {
        RestrictInfo *rinfo = (RestrictInfo *)lfirst(lc);
        RowCompareExpr *rc = (RowCompareExpr *)rinfo->clause;
        int n = list_length(rc->largs);
        KeyQual members[INDEX_MAX_KEYS];
        bool match = n <= INDEX_MAX_KEYS;
        for (int m = 0; match && m < n; m++)
            match = MatchRowMember(family, column + m, rc, m, rinfo, &members[m]);
        if (!match)
            continue;
        for (int m = 0; m < n; m++)
            PushQual(clauses, conditions, &members[m], column + m, m);
        return true;
    }
    return false;
}

/*
 * Whether the conditions bind every column family `index` holds only non-NULL values of (it
 * mirrors a partial index WHERE column IS NOT NULL): a key condition's operator is strict, so
 * the family then holds every row the conditions can match. Without one it would miss rows.
 */
bool CoversPartialFamily(const ArchiveOptions *opts, int index, List *conditions)
{
    const ArchivedIndex *family = &opts->indexes[index];
    for (int column = 0; column < family->ncolumns; column++)
    {
        if (!family->not_null[column])
            continue;
        bool bound = false;
        ListCell *lc;
        foreach (lc, conditions)
            bound = bound || linitial_int((List *)lfirst(lc)) == column;
        if (!bound)
            return false;
    }
    return true;
}

/*
 * Chooses the quals that bound family `index`, starting at key column `first` (earlier columns
 * are bound by the caller): equalities on leading columns, then ranges on the next, and a row
 * comparison (a keyset cursor) on the next and those after it. Adds the
 * partition key quals for pruning. Returns how many bound the key.
 */
int ChooseKeyQuals(const ArchiveOptions *opts, int index, List *quals, List *rows, int first,
                   List **clauses, List **conditions)
{
    const ArchivedIndex *family = &opts->indexes[index];
    int bound = 0;
    int column = first;
    bool has_array = false; /* the scan reads one range per element of one IN list at most */
    for (; column < family->ncolumns; column++)
    {
        KeyQual *eq = nullptr;
        ListCell *lc;
        foreach (lc, quals)
        {
            KeyQual *q = (KeyQual *)lfirst(lc);
            if (q->attnum == family->attnums[column] && q->strategy == BTEqualStrategyNumber &&
                !(q->array && has_array) && (eq == nullptr || (eq->array && !q->array)))
                eq = q; /* a single value rather than a list */
        }
        if (eq == nullptr)
            break;
        has_array = has_array || eq->array;
        PushQual(clauses, conditions, eq, column);
        bound++;
    }
    if (column < family->ncolumns)
    {
        ListCell *lc;
        foreach (lc, quals)
        {
            KeyQual *q = (KeyQual *)lfirst(lc);
            if (q->attnum == family->attnums[column] && q->strategy != BTEqualStrategyNumber)
            {
                PushQual(clauses, conditions, q, column);
                bound++;
            }
        }
        if (ChooseRowQual(opts, index, rows, column, clauses, conditions))
            bound++;
    }
    /* Partition key quals prune by the row key, whatever family is scanned. */
    ListCell *lc;
    foreach (lc, quals)
    {
        KeyQual *q = (KeyQual *)lfirst(lc);
        if (q->attnum == opts->partition_attnum && !q->array &&
            !list_member_ptr(*clauses, q->rinfo))
            PushQual(clauses, conditions, q, -1);
    }
    return bound;
}

/* Pathkeys of family `index` in a direction; stops at the first column we cannot describe. */
List *FamilyPathkeys(PlannerInfo *root, RelOptInfo *baserel, const ArchiveOptions *opts, int index,
                     bool backward)
{
    const ArchivedIndex *family = &opts->indexes[index];
    RangeTblEntry *rte = planner_rt_fetch(baserel->relid, root);
    List *pathkeys = NIL;
    for (int i = 0; i < family->ncolumns; i++)
    {
        Oid column_type, collation;
        int32 typmod;
        get_atttypetypmodcoll(rte->relid, family->attnums[i], &column_type, &typmod, &collation);
        Oid typid = getBaseType(column_type); /* a domain orders as its base type */
        /* build_expression_pathkey places NULLs first exactly for descending order */
        if (!OrderIsBytewise(typid, collation) || family->nulls_first[i] != family->desc[i])
            break;
        Oid opfamily = DefaultBtreeFamily(typid);
        bool descending = family->desc[i] != backward;
        Oid opno = get_opfamily_member(opfamily, typid, typid,
                                       descending ? BTGreaterStrategyNumber : BTLessStrategyNumber);
        if (!OidIsValid(opno))
            break;
        Var *var = makeVar(baserel->relid, family->attnums[i], column_type, typmod, collation, 0);
        List *one =
            build_expression_pathkey(root, (Expr *)var, nullptr, opno, baserel->relids, false);
        if (one == NIL)
            break;
        PathKey *pk = (PathKey *)linitial(one);
        if (EC_MUST_BE_REDUNDANT(pk->pk_eclass) || list_member_ptr(pathkeys, pk))
            continue;
        pathkeys = lappend(pathkeys, pk);
    }
    return pathkeys;
}

/*
 * True when the entries of index family `index` hold every column the scan needs: its
 * output, its quals and the given clauses. Then no row is looked up (an index-only scan).
 */
bool FamilyCovers(RelOptInfo *baserel, const ArchiveOptions *opts, int index, List *clauses)
{
    if (index == 0)
        return false;
    Bitmapset *needed = nullptr;
    pull_varattnos((Node *)baserel->reltarget->exprs, baserel->relid, &needed);
    ListCell *lc;
    foreach (lc, baserel->baserestrictinfo)
        pull_varattnos((Node *)((RestrictInfo *)lfirst(lc))->clause, baserel->relid, &needed);
    foreach (lc, clauses)
        pull_varattnos((Node *)((RestrictInfo *)lfirst(lc))->clause, baserel->relid, &needed);
    const ArchivedIndex *family = &opts->indexes[index];
    int member = -1;
    while ((member = bms_next_member(needed, member)) >= 0)
    {
        AttrNumber attnum = (AttrNumber)(member + FirstLowInvalidHeapAttributeNumber);
        if (attnum < 0)
            continue; /* system columns (tableoid) are the executor's */
        bool held = false;
        for (int i = 0; i < family->ncolumns && !held; i++)
            held = family->attnums[i] == attnum;
        for (int i = 0; i < family->ninclude && !held; i++)
            held = family->include_attnums[i] == attnum;
        if (!held) /* also a whole-row reference, attnum 0 */
            return false;
    }
    return true;
}

/* Cost of reading `scanned` entries of a family and returning `rows`. */
void EstimateCost(PlannerInfo *root, RelOptInfo *baserel, int index, bool index_only,
                  double scanned, double rows, Cost *startup, Cost *total)
{
    QualCost qual_cost;
    cost_qual_eval(&qual_cost, baserel->baserestrictinfo, root);
    /* iterating and decoding an entry; an index entry may also look its row up by key */
    Cost per_entry = 2 * cpu_tuple_cost + (index > 0 && !index_only ? 10 * cpu_tuple_cost : 0);
    *startup = qual_cost.startup + 10 * cpu_operator_cost;
    *total = *startup + scanned * (per_entry + qual_cost.per_tuple) +
             rows * baserel->reltarget->cost.per_tuple;
}

/* Adds a path over family `index` with the given pushed quals. */
void AddFamilyPath(PlannerInfo *root, RelOptInfo *baserel, int index, bool backward, List *clauses,
                   List *conditions, List *pathkeys, Relids required_outer, double rows)
{
    List *key_clauses = NIL;
    ListCell *lc1, *lc2;
    forboth (lc1, clauses, lc2, conditions)
        if (linitial_int((List *)lfirst(lc2)) >= 0)
            key_clauses = list_append_unique_ptr(key_clauses, lfirst(lc1)); /* a row's members */
    double selectivity =
        clauselist_selectivity(root, key_clauses, baserel->relid, JOIN_INNER, nullptr);
    double scanned = clamp_row_est(baserel->tuples * selectivity);
    bool index_only =
        FamilyCovers(baserel, (const ArchiveOptions *)baserel->fdw_private, index, clauses);
    Cost startup, total;
    EstimateCost(root, baserel, index, index_only, scanned, rows, &startup, &total);
    List *fdw_private = list_make5(makeInteger(index), makeInteger(backward ? 1 : 0), clauses,
                                   conditions, makeInteger(index_only ? 1 : 0));
    add_path(baserel,
             (Path *)create_foreignscan_path(root, baserel, nullptr, rows, startup, total, pathkeys,
                                             required_outer, nullptr, fdw_private));
}

/* Matches an equivalence member that is column attnum of baserel. */
bool MatchColumnMember(PlannerInfo *, RelOptInfo *baserel, EquivalenceClass *,
                       EquivalenceMember *em, void *arg)
{
    Node *expr = (Node *)em->em_expr;
    while (IsA(expr, RelabelType))
        expr = (Node *)((RelabelType *)expr)->arg;
    return IsA(expr, Var) && ((Var *)expr)->varno == (int)baserel->relid &&
           ((Var *)expr)->varattno == *(AttrNumber *)arg;
}

/* The relations a join qual needs besides baserel. */
Relids OuterRelids(RelOptInfo *baserel, const KeyQual *q)
{
    return bms_union(bms_difference(q->rinfo->clause_relids, baserel->relids),
                     baserel->lateral_relids);
}

/*
 * Parameterized paths: a join clause "column = outer expression" binds the first key column of
 * a family; further join clauses on the same outer relations bind later columns or prune by
 * the partition key, as restrictions do.
 */
void AddParameterizedPaths(PlannerInfo *root, RelOptInfo *baserel, const ArchiveOptions *opts,
                           List *quals)
{
    /* join quals usable as keys: plain join clauses, and those implied by equivalences */
    List *join_quals = NIL;
    auto add = [&](RestrictInfo *rinfo, AttrNumber only)
    {
        KeyQual q;
        if (MatchKeyQual(root, baserel, rinfo, true, &q) && (only == 0 || q.attnum == only) &&
            !bms_is_empty(bms_difference(rinfo->clause_relids, baserel->relids)))
        {
            KeyQual *copy = (KeyQual *)palloc(sizeof(KeyQual));
            *copy = q;
            join_quals = lappend(join_quals, copy);
        }
    };
    ListCell *lc;
    foreach (lc, baserel->joininfo)
        add((RestrictInfo *)lfirst(lc), 0);
    Bitmapset *attnums = nullptr;
    for (int index = 0; index < opts->nindexes; index++)
        for (int i = 0; i < opts->indexes[index].ncolumns; i++)
            attnums = bms_add_member(attnums, opts->indexes[index].attnums[i]);
    int attnum = -1;
    while ((attnum = bms_next_member(attnums, attnum)) >= 0)
    {
        AttrNumber column = (AttrNumber)attnum;
        List *implied = generate_implied_equalities_for_column(
            root, baserel, MatchColumnMember, &column, baserel->lateral_referencers);
        foreach (lc, implied)
            add((RestrictInfo *)lfirst(lc), column);
    }

    for (int index = 0; index < opts->nindexes; index++)
    {
        AttrNumber first = opts->indexes[index].attnums[0];
        foreach (lc, join_quals)
        {
            KeyQual *q = (KeyQual *)lfirst(lc);
            if (q->attnum != first || q->strategy != BTEqualStrategyNumber || q->array)
                continue;
            Relids required_outer = OuterRelids(baserel, q);
            List *usable = list_copy(quals);
            ListCell *lc2;
            foreach (lc2, join_quals)
            {
                KeyQual *other = (KeyQual *)lfirst(lc2);
                if (other != q && bms_is_subset(OuterRelids(baserel, other), required_outer))
                    usable = lappend(usable, other);
            }
            ParamPathInfo *ppi = get_baserel_parampathinfo(root, baserel, required_outer);
            List *clauses = NIL;
            List *conditions = NIL;
            PushQual(&clauses, &conditions, q, 0);
            ChooseKeyQuals(opts, index, usable, RowQuals(baserel), 1, &clauses, &conditions);
            if (!CoversPartialFamily(opts, index, conditions))
                continue;
            AddFamilyPath(root, baserel, index, false, clauses, conditions, NIL, required_outer,
                          ppi->ppi_rows);
        }
    }
}

/* The attnums a scan must fill: its output and its local quals (all, for a whole-row Var). */
List *NeededAttnums(RelOptInfo *baserel, List *scan_clauses)
{
    Bitmapset *attrs = nullptr;
    pull_varattnos((Node *)baserel->reltarget->exprs, baserel->relid, &attrs);
    ListCell *lc;
    foreach (lc, scan_clauses)
        pull_varattnos((Node *)((RestrictInfo *)lfirst(lc))->clause, baserel->relid, &attrs);
    List *needed = list_make1_int(0); /* a leading 0: never NIL, even when nothing is read */
    bool whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs);
    for (AttrNumber attnum = 1; attnum <= baserel->max_attr; attnum++)
        if (whole_row || bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attrs))
            needed = lappend_int(needed, attnum);
    return needed;
}

} // namespace

void GetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
    ArchiveOptions *opts = GetArchiveOptions(foreigntableid);
    baserel->fdw_private = opts;
    /* reltuples once ANALYZE ran, else the archive's row count; never the archive itself */
    if (baserel->tuples < 0)
        baserel->tuples = opts->row_count >= 0 ? opts->row_count : 1000;
    double selectivity =
        clauselist_selectivity(root, baserel->baserestrictinfo, 0, JOIN_INNER, nullptr);
    baserel->rows = clamp_row_est(baserel->tuples * selectivity);
}

void GetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid)
{
    const ArchiveOptions *opts = (const ArchiveOptions *)baserel->fdw_private;
    List *quals = CandidateQuals(root, baserel);
    for (int index = 0; index < opts->nindexes; index++)
    {
        List *clauses = NIL;
        List *conditions = NIL;
        int bound = ChooseKeyQuals(opts, index, quals, RowQuals(baserel), 0, &clauses, &conditions);
        if (!CoversPartialFamily(opts, index, conditions))
            continue;
        List *forward = truncate_useless_pathkeys(
            root, baserel, FamilyPathkeys(root, baserel, opts, index, false));
        List *backward = truncate_useless_pathkeys(
            root, baserel, FamilyPathkeys(root, baserel, opts, index, true));
        /* the rows family always gives a (full) scan; an index needs quals or a useful order */
        if (index == 0 || bound > 0 || forward != NIL)
            AddFamilyPath(root, baserel, index, false, clauses, conditions, forward, nullptr,
                          baserel->rows);
        if (backward != NIL)
            AddFamilyPath(root, baserel, index, true, clauses, conditions, backward, nullptr,
                          baserel->rows);
    }
    AddParameterizedPaths(root, baserel, opts, quals);
}

ForeignScan *GetForeignPlan(PlannerInfo *, RelOptInfo *baserel, Oid, ForeignPath *best_path,
                            List *tlist, List *scan_clauses, Plan *outer_plan)
{
    List *path_private = best_path->fdw_private;
    int index = intVal(list_nth(path_private, FdwPathPrivateIndexNumber));
    int backward = intVal(list_nth(path_private, FdwPathPrivateBackward));
    List *clauses = (List *)list_nth(path_private, FdwPathPrivateClauses);
    List *conditions = (List *)list_nth(path_private, FdwPathPrivateConditions);
    int index_only = intVal(list_nth(path_private, FdwPathPrivateIndexOnly));

    /* Every qual is rechecked locally; pushed ones also bound the archive scan. */
    List *local_quals = extract_actual_clauses(scan_clauses, false);
    List *fdw_exprs = NIL;
    ListCell *lc;
    foreach (lc, clauses)
        fdw_exprs = lappend(fdw_exprs, ((RestrictInfo *)lfirst(lc))->clause);
    List *fdw_private = NIL;
    fdw_private = lappend(fdw_private, makeInteger(index));      /* FdwScanPrivateIndexNumber */
    fdw_private = lappend(fdw_private, makeInteger(backward));   /* FdwScanPrivateBackward */
    fdw_private = lappend(fdw_private, conditions);              /* FdwScanPrivateConditions */
    fdw_private = lappend(fdw_private, makeInteger(index_only)); /* FdwScanPrivateIndexOnly */
    fdw_private = lappend(fdw_private, NeededAttnums(baserel, scan_clauses)); /* ...Needed */
    return make_foreignscan(tlist, local_quals, baserel->relid, fdw_exprs, fdw_private, NIL, NIL,
                            outer_plan);
}

} // namespace permanode::fdw
