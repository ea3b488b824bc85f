/*
 * scan.cpp
 *	  Executing a scan of an archived foreign table, and its EXPLAIN.
 *
 *	  The scan state is a C++ object allocated with new and deleted by a reset callback of the
 *	  executor's memory context, so that it is freed on error as well. Every callback runs inside
 *	  GuardedArchive: C++ exceptions become PostgreSQL errors after the C++ frames are gone, and
 *	  PostgreSQL calls made from here go through pg::CallPg.
 */
extern "C"
{
#include "postgres.h"

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
}

#include <algorithm>

#include "archive_reader.hpp"

namespace permanode::fdw
{

namespace
{

/* A pushed-down condition, ready to evaluate. */
struct ScanCondition
{
    int column;        /* key column position in the family, or -1 (pruning only) */
    AttrNumber attnum; /* the column's attnum */
    int strategy;      /* btree strategy as "column OP value" */
    Oid value_type;    /* type of the value */
    ExprState *value;  /* the value operand */
};

/* State of one scan of an archived foreign table. */
struct ArchiveScanState
{
    std::string table;                     /* qualified name, for error messages */
    ArchiveOptions *opts = nullptr;        /* parsed table options (executor memory) */
    std::unique_ptr<ArchiveCursor> cursor; /* reads the archive */
    int family = 0;                        /* family scanned: 0 rows, n index n-1 */
    bool backward = false;                 /* iterate from the last key down */
    bool index_only = false;               /* rows come from index entries alone */
    std::vector<ScanCondition> conditions; /* pushed-down conditions */
    bool started = false;                  /* cursor positioned for this (re)scan */
    bool empty = false;                    /* the conditions select nothing */
    MemoryContext row_context = nullptr;   /* holds the current row's decoded values */
    ExprContext *econtext = nullptr;       /* evaluates condition values */
    std::string key_lower;                 /* key range of the current scan, for EXPLAIN */
    std::string key_upper;
};

/* Deletes the scan state when the executor's memory goes away (end of query or abort). */
void DeleteScanState(void *arg)
{
    delete static_cast<ArchiveScanState *>(arg);
}

/* The integer value of an integer Datum of type typid. */
int64 IntegerValue(Datum value, Oid typid)
{
    switch (typid)
    {
        case INT2OID:
            return DatumGetInt16(value);
        case INT4OID:
        case DATEOID:
            return DatumGetInt32(value);
        case BOOLOID:
            return DatumGetBool(value) ? 1 : 0;
        default:
            return DatumGetInt64(value);
    }
}

/* Evaluates a condition's value, detoasted. (pg) */
pg_noinline Datum EvaluateValue(const ScanCondition &c, ExprContext *econtext, bool *isnull)
{
    Datum d = ExecEvalExprSwitchContext(c.value, econtext, isnull);
    if (!*isnull && get_typlen(c.value_type) == -1)
        d = PointerGetDatum(pg_detoast_datum_packed((struct varlena *)DatumGetPointer(d)));
    return d;
}

/* Strategy seen in encoded (byte) order: a DESC column reverses the comparison. */
int EncodedStrategy(int strategy, bool desc)
{
    return desc ? BTCommuteStrategyNumber(strategy) : strategy;
}

/*
 * Computes the key range and pruning bounds from the conditions' values. Sets s->empty when
 * nothing can match. Returns the range as [lower, upper), empty strings unbounded.
 */
void ComputeRange(ArchiveScanState *s, std::string *lower, std::string *upper, int64 *prune_lo,
                  int64 *prune_hi)
{
    const Manifest &m = s->cursor->manifest();
    const ManifestFamily &family = s->family == 0 ? m.rows : m.indexes[s->family - 1];
    std::vector<KeyColumn> columns = FamilyKeyColumns(m, family);
    *prune_lo = s->opts->range_from;
    *prune_hi = s->opts->range_to - 1;

    /* encoded equality segment per key column, and the ranged column's bounds */
    std::vector<std::string> eq(columns.size());
    std::vector<bool> has_eq(columns.size(), false);
    int range_column = -1;
    std::string start, end;
    bool has_start = false, has_end = false;
    std::string segment;

    for (ScanCondition &c : s->conditions)
    {
        bool isnull = false;
        Datum value = pg::CallPg([&] { return EvaluateValue(c, s->econtext, &isnull); });
        if (isnull)
        {
            s->empty = true; /* comparisons with NULL are never true */
            return;
        }
        bool integer = c.value_type == INT2OID || c.value_type == INT4OID ||
                       c.value_type == INT8OID || c.value_type == DATEOID ||
                       c.value_type == TIMESTAMPOID || c.value_type == TIMESTAMPTZOID ||
                       c.value_type == TIMEOID || c.value_type == BOOLOID;
        if (c.attnum == s->opts->partition_attnum && integer)
        {
            int64 v = IntegerValue(value, c.value_type);
            switch (c.strategy)
            {
                case BTLessStrategyNumber:
                    *prune_hi = std::min(*prune_hi, v == INT64_MIN ? v : v - 1);
                    if (v == INT64_MIN)
                        s->empty = true;
                    break;
                case BTLessEqualStrategyNumber:
                    *prune_hi = std::min(*prune_hi, v);
                    break;
                case BTEqualStrategyNumber:
                    *prune_lo = std::max(*prune_lo, v);
                    *prune_hi = std::min(*prune_hi, v);
                    break;
                case BTGreaterEqualStrategyNumber:
                    *prune_lo = std::max(*prune_lo, v);
                    break;
                case BTGreaterStrategyNumber:
                    *prune_lo = std::max(*prune_lo, v == INT64_MAX ? v : v + 1);
                    if (v == INT64_MAX)
                        s->empty = true;
                    break;
            }
        }
        if (c.column < 0)
            continue;
        const KeyColumn &kc = columns[c.column];
        segment.clear();
        if (kc.kind == KeyKind::kFixed || kc.kind == KeyKind::kBytes)
        {
            if (kc.kind == KeyKind::kFixed)
                EncodeBytes(segment, kc, DatumGetPointer(value), kc.fixed_len);
            else
                EncodeBytes(segment, kc, VARDATA_ANY(DatumGetPointer(value)),
                            VARSIZE_ANY_EXHDR(DatumGetPointer(value)));
        }
        else
        {
            int64 v = IntegerValue(value, c.value_type);
            bool below = v < IntMin(kc.kind);
            bool above = v > IntMax(kc.kind);
            if (below || above)
            {
                /* out of the column's range: always or never true */
                bool never = c.strategy == BTEqualStrategyNumber ||
                             (above && (c.strategy == BTGreaterStrategyNumber ||
                                        c.strategy == BTGreaterEqualStrategyNumber)) ||
                             (below && (c.strategy == BTLessStrategyNumber ||
                                        c.strategy == BTLessEqualStrategyNumber));
                if (never)
                    s->empty = true;
                continue;
            }
            EncodeInt(segment, kc, v);
        }
        if (c.strategy == BTEqualStrategyNumber)
        {
            if (has_eq[c.column] && eq[c.column] != segment)
                s->empty = true;
            eq[c.column] = segment;
            has_eq[c.column] = true;
            continue;
        }
        range_column = c.column;
        /* bounds are completed with the equality prefix below; keep the bare segments */
        int strategy = EncodedStrategy(c.strategy, kc.desc);
        if (strategy == BTGreaterEqualStrategyNumber || strategy == BTGreaterStrategyNumber)
        {
            std::string bound =
                strategy == BTGreaterStrategyNumber ? PrefixSuccessor(segment) : segment;
            if (!has_start || bound > start)
                start = bound;
            has_start = true;
        }
        else
        {
            std::string bound =
                strategy == BTLessEqualStrategyNumber ? PrefixSuccessor(segment) : segment;
            if (!has_end || bound < end)
                end = bound;
            has_end = true;
        }
    }
    if (*prune_lo > *prune_hi)
        s->empty = true;

    std::string prefix;
    size_t neq = 0;
    while (neq < columns.size() && has_eq[neq])
        prefix += eq[neq++];
    if (range_column >= 0 && static_cast<size_t>(range_column) != neq)
        range_column = -1; /* cannot happen with the planner's choices; rechecked anyway */
    if (range_column < 0)
    {
        *lower = prefix;
        *upper = prefix.empty() ? std::string() : PrefixSuccessor(prefix);
        return;
    }
    /* a ranged column is never NULL: stay within its value marker */
    std::string marker(1, static_cast<char>(kMarkerValue));
    *lower = prefix + (has_start ? start : marker);
    *upper = prefix + (has_end ? end : PrefixSuccessor(marker));
    if (*lower >= *upper)
        s->empty = true;
}

/* Starts (or restarts) the scan for the current parameter values. */
void StartScan(ArchiveScanState *s)
{
    std::string lower, upper;
    int64 prune_lo, prune_hi;
    s->empty = false;
    ComputeRange(s, &lower, &upper, &prune_lo, &prune_hi);
    s->key_lower = lower;
    s->key_upper = upper;
    s->started = true;
    if (s->empty)
    {
        s->cursor->Close();
        return;
    }
    s->cursor->Start(s->family, s->backward, lower, upper, prune_lo, prune_hi, s->index_only);
}

} // namespace

void BeginForeignScan(ForeignScanState *node, int eflags)
{
    if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
        return;
    ForeignScan *plan = (ForeignScan *)node->ss.ps.plan;
    Relation rel = node->ss.ss_currentRelation;
    EState *estate = node->ss.ps.state;

    ArchiveOptions *opts = pg::CallPg([&] { return GetArchiveOptions(RelationGetRelid(rel)); });
    MemoryContextCallback *cb = pg::CallPg(
        [&]
        {
            return (MemoryContextCallback *)MemoryContextAlloc(estate->es_query_cxt,
                                                               sizeof(MemoryContextCallback));
        });
    auto *s = new ArchiveScanState();
    cb->func = DeleteScanState;
    cb->arg = s;
    MemoryContextRegisterResetCallback(estate->es_query_cxt, cb); /* cannot fail */
    node->fdw_state = s;
    s->opts = opts;
    s->table = pg::CallPg(
        [&]
        {
            return quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
                                              RelationGetRelationName(rel));
        });
    s->family = intVal(list_nth(plan->fdw_private, FdwScanPrivateIndexNumber));
    s->backward = intVal(list_nth(plan->fdw_private, FdwScanPrivateBackward)) != 0;
    s->index_only = intVal(list_nth(plan->fdw_private, FdwScanPrivateIndexOnly)) != 0;
    List *conditions = (List *)list_nth(plan->fdw_private, FdwScanPrivateConditions);
    ListCell *lc_expr, *lc_cond;
    forboth (lc_expr, plan->fdw_exprs, lc_cond, conditions)
    {
        List *cond = (List *)lfirst(lc_cond);
        OpExpr *clause = (OpExpr *)lfirst(lc_expr);
        bool var_on_left = list_nth_int(cond, FdwConditionVarOnLeft) != 0;
        Expr *value = (Expr *)(var_on_left ? lsecond(clause->args) : linitial(clause->args));
        ScanCondition c;
        c.column = list_nth_int(cond, FdwConditionColumn);
        c.attnum = static_cast<AttrNumber>(list_nth_int(cond, FdwConditionAttnum));
        c.strategy = list_nth_int(cond, FdwConditionStrategy);
        c.value_type = static_cast<Oid>(list_nth_int(cond, FdwConditionValueType));
        c.value = pg::CallPg([&] { return ExecInitExpr(value, (PlanState *)node); });
        s->conditions.push_back(c);
    }
    s->econtext = node->ss.ps.ps_ExprContext;
    s->row_context = pg::CallPg(
        [&]
        {
            return AllocSetContextCreate(estate->es_query_cxt, "permanode_fdw row",
                                         ALLOCSET_DEFAULT_SIZES);
        });
    s->cursor = std::make_unique<ArchiveCursor>(ArchiveDir(opts->archive));
    pg::CallPg(
        [&]
        {
            MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);
            s->cursor->Bind(RelationGetDescr(rel),
                            (List *)list_nth(plan->fdw_private, FdwScanPrivateNeeded));
            MemoryContextSwitchTo(old);
        });
}

TupleTableSlot *IterateForeignScan(ForeignScanState *node)
{
    auto *s = static_cast<ArchiveScanState *>(node->fdw_state);
    TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
    ExecClearTuple(slot);
    if (!s->started)
        StartScan(s);
    if (s->empty || !s->cursor->Next())
        return slot;
    pg::CallPg(
        [&]
        {
            MemoryContextReset(s->row_context);
            MemoryContext old = MemoryContextSwitchTo(s->row_context);
            s->cursor->Store(slot->tts_values, slot->tts_isnull);
            MemoryContextSwitchTo(old);
            ExecStoreVirtualTuple(slot);
        });
    return slot;
}

void ReScanForeignScan(ForeignScanState *node)
{
    auto *s = static_cast<ArchiveScanState *>(node->fdw_state);
    if (s == nullptr)
        return;
    s->cursor->Close();
    s->started = false;
}

void EndForeignScan(ForeignScanState *node)
{
    auto *s = static_cast<ArchiveScanState *>(node->fdw_state);
    if (s != nullptr)
        s->cursor->Close(); /* the state itself goes with the executor's memory */
}

void ExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
    ForeignScan *plan = (ForeignScan *)node->ss.ps.plan;
    Relation rel = node->ss.ss_currentRelation;
    ArchiveOptions *opts = GetArchiveOptions(RelationGetRelid(rel));
    int family = intVal(list_nth(plan->fdw_private, FdwScanPrivateIndexNumber));
    bool backward = intVal(list_nth(plan->fdw_private, FdwScanPrivateBackward)) != 0;
    List *conditions = (List *)list_nth(plan->fdw_private, FdwScanPrivateConditions);

    bool index_only = intVal(list_nth(plan->fdw_private, FdwScanPrivateIndexOnly)) != 0;
    if (family == 0)
        ExplainPropertyText("Archive Scan", psprintf("rows by %s", opts->indexes[0].name), es);
    else
        ExplainPropertyText(index_only ? "Archive Index Only" : "Archive Index",
                            opts->indexes[family].name, es);
    if (backward || es->verbose)
        ExplainPropertyText("Archive Direction", backward ? "Backward" : "Forward", es);

    List *context = set_deparse_context_plan(es->deparse_cxt, (Plan *)plan, NIL);
    bool useprefix = list_length(es->rtable) > 1 || es->verbose;
    StringInfoData keys, prune;
    initStringInfo(&keys);
    initStringInfo(&prune);
    ListCell *lc_expr, *lc_cond;
    forboth (lc_expr, plan->fdw_exprs, lc_cond, conditions)
    {
        List *cond = (List *)lfirst(lc_cond);
        char *text = deparse_expression((Node *)lfirst(lc_expr), context, useprefix, false);
        if (list_nth_int(cond, FdwConditionColumn) >= 0)
            appendStringInfo(&keys, "%s%s", keys.len > 0 ? " AND " : "", text);
        if (list_nth_int(cond, FdwConditionAttnum) == opts->partition_attnum)
            appendStringInfo(&prune, "%s%s", prune.len > 0 ? " AND " : "", text);
    }
    if (keys.len > 0)
        ExplainPropertyText("Archive Key", keys.data, es);
    if (prune.len > 0)
        ExplainPropertyText("Archive Range Pruning", prune.data, es);
    if (es->verbose)
    {
        ExplainPropertyText("Archive", opts->archive, es);
        ExplainPropertyInteger("Archive Ranges", nullptr, opts->range_to - opts->range_from, es);
    }
    auto *s = static_cast<ArchiveScanState *>(node->fdw_state);
    if (es->analyze && s != nullptr)
    {
        ExplainPropertyInteger("Archive Entries Read", nullptr,
                               static_cast<int64>(s->cursor->entries_read()), es);
        ExplainPropertyInteger("Archive Rows Fetched", nullptr,
                               static_cast<int64>(s->cursor->rows_returned()), es);
    }
}

} // namespace permanode::fdw
