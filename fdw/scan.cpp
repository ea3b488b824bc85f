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
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
}

#include <algorithm>
#include <iterator>

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
    Oid value_type;    /* type of the value (an IN list's: of its elements) */
    bool array;        /* "column = ANY (array)": a key range per element */
    int member;        /* member of a row comparison (a keyset cursor), or -1 */
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
    /* the key ranges to read, in key order ([lower, upper), empty strings unbounded): one,
     * or one per element of an IN list; read from the last when backward */
    std::vector<std::pair<std::string, std::string>> ranges;
    size_t next_range = 0; /* ranges started so far */
    int64 prune_lo = 0;    /* partition key bounds of every range */
    int64 prune_hi = 0;
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
 * Encodes a condition's value as a segment of key column kc. False when the value lies outside
 * the column's values; *never then says whether the condition holds for no row at all.
 */
bool EncodeSegment(const KeyColumn &kc, const ScanCondition &c, int strategy, Datum value,
                   std::string *segment, bool *never)
{
    segment->clear();
    if (kc.kind == KeyKind::kFixed)
    {
        EncodeBytes(*segment, kc, DatumGetPointer(value), kc.fixed_len);
        return true;
    }
    if (kc.kind == KeyKind::kBytes)
    {
        EncodeBytes(*segment, kc, VARDATA_ANY(DatumGetPointer(value)),
                    VARSIZE_ANY_EXHDR(DatumGetPointer(value)));
        return true;
    }
    int64 v = IntegerValue(value, c.value_type);
    bool below = v < IntMin(kc.kind);
    bool above = v > IntMax(kc.kind);
    if (below || above)
    {
        /* out of the column's range: always or never true */
        *never =
            strategy == BTEqualStrategyNumber ||
            (above &&
             (strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber)) ||
            (below && (strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber));
        return false;
    }
    EncodeInt(*segment, kc, v);
    return true;
}

/* The elements of an IN list's array, detoasted (NULLs included), in palloc'd memory. (pg) */
pg_noinline void DeconstructArray(const ScanCondition &c, Datum array, Datum **elements,
                                  bool **nulls, int *n)
{
    int16 typlen;
    bool typbyval;
    char typalign;
    get_typlenbyvalalign(c.value_type, &typlen, &typbyval, &typalign);
    deconstruct_array(DatumGetArrayTypeP(array), c.value_type, typlen, typbyval, typalign, elements,
                      nulls, n);
    for (int i = 0; typlen == -1 && i < *n; i++)
        if (!(*nulls)[i])
            (*elements)[i] = PointerGetDatum(
                pg_detoast_datum_packed((struct varlena *)DatumGetPointer((*elements)[i])));
}

/* The elements of an IN list's array, without NULLs (which equal nothing). */
std::vector<Datum> ArrayElements(const ScanCondition &c, Datum array)
{
    Datum *elements = nullptr;
    bool *nulls = nullptr;
    int n = 0;
    pg::CallPg([&] { DeconstructArray(c, array, &elements, &nulls, &n); });
    std::vector<Datum> values;
    for (int i = 0; i < n; i++)
        if (!nulls[i])
            values.push_back(elements[i]);
    return values;
}

/* Keeps in *kept the segments also in `other` (both sorted). */
void Intersect(std::vector<std::string> *kept, const std::vector<std::string> &other)
{
    std::vector<std::string> both;
    std::set_intersection(kept->begin(), kept->end(), other.begin(), other.end(),
                          std::back_inserter(both));
    *kept = std::move(both);
}

/* What the conditions ask of the scanned family's key, before it becomes key ranges. */
struct KeyBounds
{
    explicit KeyBounds(size_t ncolumns) : eq(ncolumns), has_eq(ncolumns, false) {}

    /* per key column, the encoded values an equality (or an IN list) allows, sorted */
    std::vector<std::vector<std::string>> eq;
    std::vector<bool> has_eq;
    int range_column = -1; /* the column bounded by a range condition, or -1 */
    std::string start;     /* its bounds as bare segments, completed with the equality prefix */
    std::string end;
    bool has_start = false;
    bool has_end = false;
};

/* True for the types whose values IntegerValue reads. */
bool ReadsAsInteger(Oid typid)
{
    return typid == INT2OID || typid == INT4OID || typid == INT8OID || typid == DATEOID ||
           typid == TIMESTAMPOID || typid == TIMESTAMPTZOID || typid == TIMEOID || typid == BOOLOID;
}

/* Narrows the partition key bounds s->prune_lo/hi by "partition key OP v". */
void PrunePartitionKey(ArchiveScanState *s, int strategy, int64 v)
{
    switch (strategy)
    {
        case BTLessStrategyNumber:
            s->prune_hi = std::min(s->prune_hi, v == INT64_MIN ? v : v - 1);
            if (v == INT64_MIN)
                s->empty = true;
            break;
        case BTLessEqualStrategyNumber:
            s->prune_hi = std::min(s->prune_hi, v);
            break;
        case BTEqualStrategyNumber:
            s->prune_lo = std::max(s->prune_lo, v);
            s->prune_hi = std::min(s->prune_hi, v);
            break;
        case BTGreaterEqualStrategyNumber:
            s->prune_lo = std::max(s->prune_lo, v);
            break;
        case BTGreaterStrategyNumber:
            s->prune_lo = std::max(s->prune_lo, v == INT64_MAX ? v : v + 1);
            if (v == INT64_MAX)
                s->empty = true;
            break;
    }
}

/* Adds "column = value" (or "column = ANY (value)") on key column kc; false when it allows no
 * value at all. */
bool AddEquality(const KeyColumn &kc, const ScanCondition &c, Datum value, KeyBounds *b)
{
    std::vector<Datum> values;
    if (c.array)
        values = ArrayElements(c, value);
    else
        values.push_back(value);
    std::vector<std::string> segments;
    std::string segment;
    for (Datum v : values)
    {
        bool never = false;
        if (EncodeSegment(kc, c, c.strategy, v, &segment, &never))
            segments.push_back(segment);
    }
    std::sort(segments.begin(), segments.end());
    segments.erase(std::unique(segments.begin(), segments.end()), segments.end());
    if (b->has_eq[c.column])
        Intersect(&b->eq[c.column], segments);
    else
        b->eq[c.column] = std::move(segments);
    b->has_eq[c.column] = true;
    return !b->eq[c.column].empty();
}

/* Bounds the key at `column` by an encoded segment, strategy as seen in encoded order. */
void AddBoundSegment(int column, int strategy, const std::string &segment, KeyBounds *b)
{
    b->range_column = column;
    if (strategy == BTGreaterEqualStrategyNumber || strategy == BTGreaterStrategyNumber)
    {
        std::string bound =
            strategy == BTGreaterStrategyNumber ? PrefixSuccessor(segment) : segment;
        if (!b->has_start || bound > b->start)
            b->start = bound;
        b->has_start = true;
    }
    else
    {
        std::string bound =
            strategy == BTLessEqualStrategyNumber ? PrefixSuccessor(segment) : segment;
        if (!b->has_end || bound < b->end)
            b->end = bound;
        b->has_end = true;
    }
}

/* Adds "column OP value", OP an inequality, on key column kc; false when it holds for no row. */
bool AddRangeBound(const KeyColumn &kc, const ScanCondition &c, Datum value, KeyBounds *b)
{
    std::string segment;
    bool never = false;
    if (!EncodeSegment(kc, c, c.strategy, value, &segment, &never))
        return !never;
    AddBoundSegment(c.column, EncodedStrategy(c.strategy, kc.desc), segment, b);
    return true;
}

/*
 * A row comparison on key columns column.. (a keyset cursor), gathered member by member: the
 * members' encodings, concatenated, compare as the row does (the planner took only members of
 * one direction), so they bound the key as one segment. A NULL or unencodable member leaves
 * the bound out (the executor rechecks every row).
 */
struct RowBound
{
    int column = -1;
    int strategy = 0;
    bool desc = false;
    bool usable = true;
    std::string segment;
};

/* Adds member c of a row comparison, its value `value` (isnull: NULL), to row. */
void AddRowMember(const KeyColumn &kc, const ScanCondition &c, Datum value, bool isnull,
                  RowBound *row)
{
    std::string segment;
    bool never = false;
    if (c.member == 0)
    {
        *row = RowBound();
        row->column = c.column;
        row->strategy = c.strategy;
        row->desc = kc.desc;
    }
    if (isnull || !EncodeSegment(kc, c, c.strategy, value, &segment, &never))
        row->usable = false;
    else
        row->segment += segment;
}

/* Evaluates each condition into the partition key bounds and the key bounds b; sets s->empty
 * when one of them can hold for no row. */
void GatherConditions(ArchiveScanState *s, const std::vector<KeyColumn> &columns, KeyBounds *b)
{
    RowBound row;
    for (ScanCondition &c : s->conditions)
    {
        bool isnull = false;
        Datum value = pg::CallPg([&] { return EvaluateValue(c, s->econtext, &isnull); });
        if (c.member >= 0)
        {
            AddRowMember(columns[c.column], c, value, isnull, &row);
            continue;
        }
        if (isnull)
        {
            s->empty = true; /* comparisons with NULL are never true */
            return;
        }
        if (c.attnum == s->opts->partition_attnum && ReadsAsInteger(c.value_type) && !c.array)
            PrunePartitionKey(s, c.strategy, IntegerValue(value, c.value_type));
        if (c.column < 0)
            continue;
        const KeyColumn &kc = columns[c.column];
        bool possible = c.strategy == BTEqualStrategyNumber ? AddEquality(kc, c, value, b)
                                                            : AddRangeBound(kc, c, value, b);
        if (!possible)
            s->empty = true;
    }
    if (row.column >= 0 && row.usable)
        AddBoundSegment(row.column, EncodedStrategy(row.strategy, row.desc), row.segment, b);
}

/* The equality prefixes, in key order (the planner lets one column have several values); *neq
 * is the number of leading key columns they fix. */
std::vector<std::string> EqualityPrefixes(const KeyBounds &b, size_t *neq)
{
    std::vector<std::string> prefixes{std::string()};
    for (*neq = 0; *neq < b.eq.size() && b.has_eq[*neq]; (*neq)++)
    {
        std::vector<std::string> longer;
        for (const std::string &prefix : prefixes)
            for (const std::string &value : b.eq[*neq])
                longer.push_back(prefix + value);
        prefixes = std::move(longer);
    }
    return prefixes;
}

/* Turns the key bounds into s->ranges, one per equality prefix, in key order. */
void BuildRanges(ArchiveScanState *s, const KeyBounds &b)
{
    size_t neq = 0;
    std::vector<std::string> prefixes = EqualityPrefixes(b, &neq);
    /* a range on any column but the one after the prefix cannot come from the planner; rechecked
     * anyway */
    bool ranged = b.range_column >= 0 && static_cast<size_t>(b.range_column) == neq;
    /* a ranged column is never NULL: stay within its value marker */
    std::string marker(1, static_cast<char>(kMarkerValue));
    for (const std::string &prefix : prefixes)
    {
        if (!ranged)
        {
            s->ranges.emplace_back(prefix,
                                   prefix.empty() ? std::string() : PrefixSuccessor(prefix));
            continue;
        }
        std::string lower = prefix + (b.has_start ? b.start : marker);
        std::string upper = prefix + (b.has_end ? b.end : PrefixSuccessor(marker));
        if (lower < upper)
            s->ranges.emplace_back(std::move(lower), std::move(upper));
    }
}

/*
 * Computes the key ranges and pruning bounds from the conditions' values, into s->ranges (in key
 * order) and s->prune_lo/hi. Sets s->empty when nothing can match.
 */
void ComputeRanges(ArchiveScanState *s)
{
    const Manifest &m = s->cursor->manifest();
    const ManifestFamily &family = s->family == 0 ? m.rows : m.indexes[s->family - 1];
    std::vector<KeyColumn> columns = FamilyKeyColumns(m, family);
    s->ranges.clear();
    s->prune_lo = s->opts->range_from;
    s->prune_hi = s->opts->range_to - 1;
    KeyBounds bounds(columns.size());
    GatherConditions(s, columns, &bounds);
    if (s->prune_lo > s->prune_hi)
        s->empty = true;
    if (s->empty)
        return;
    BuildRanges(s, bounds);
    if (s->ranges.empty())
        s->empty = true;
}

/* Starts reading the next key range (from the last one, backward); false when none is left. */
bool StartNextRange(ArchiveScanState *s)
{
    if (s->next_range >= s->ranges.size())
        return false;
    size_t i = s->backward ? s->ranges.size() - 1 - s->next_range : s->next_range;
    s->next_range++;
    s->cursor->Start(s->family, s->backward, s->ranges[i].first, s->ranges[i].second, s->prune_lo,
                     s->prune_hi, s->index_only);
    return true;
}

/* Starts (or restarts) the scan for the current parameter values. */
void StartScan(ArchiveScanState *s)
{
    s->empty = false;
    s->next_range = 0;
    ComputeRanges(s);
    s->started = true;
    if (s->empty || !StartNextRange(s))
    {
        s->empty = true;
        s->cursor->Close();
    }
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
        int member = list_nth_int(cond, FdwConditionRowMember);
        /* "column OP value", "value OP column", "column = ANY (array)" or a row's member */
        Expr *value;
        if (member >= 0)
            value = (Expr *)list_nth(((RowCompareExpr *)lfirst(lc_expr))->rargs, member);
        else
        {
            List *args = IsA(lfirst(lc_expr), OpExpr)
                             ? ((OpExpr *)lfirst(lc_expr))->args
                             : ((ScalarArrayOpExpr *)lfirst(lc_expr))->args;
            bool var_on_left = list_nth_int(cond, FdwConditionVarOnLeft) != 0;
            value = (Expr *)(var_on_left ? lsecond(args) : linitial(args));
        }
        ScanCondition c;
        c.member = member;
        c.column = list_nth_int(cond, FdwConditionColumn);
        c.attnum = static_cast<AttrNumber>(list_nth_int(cond, FdwConditionAttnum));
        c.strategy = list_nth_int(cond, FdwConditionStrategy);
        c.value_type = static_cast<Oid>(list_nth_int(cond, FdwConditionValueType));
        c.array = list_nth_int(cond, FdwConditionArray) != 0;
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
    CheckManifestDescribes(s->cursor->manifest(), opts->indexes_text, opts->range_from,
                           opts->range_to, opts->partition_attnum);
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
    if (s->empty)
        return slot;
    while (!s->cursor->Next())
        if (!StartNextRange(s))
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
    StringInfoData keys, prune, seek;
    initStringInfo(&keys);
    initStringInfo(&prune);
    initStringInfo(&seek);
    ListCell *lc_expr, *lc_cond;
    forboth (lc_expr, plan->fdw_exprs, lc_cond, conditions)
    {
        List *cond = (List *)lfirst(lc_cond);
        int member = list_nth_int(cond, FdwConditionRowMember);
        if (member > 0)
            continue; /* a row comparison shows once */
        char *text = deparse_expression((Node *)lfirst(lc_expr), context, useprefix, false);
        if (member == 0)
            appendStringInfoString(&seek, text);
        else if (list_nth_int(cond, FdwConditionColumn) >= 0)
            appendStringInfo(&keys, "%s%s", keys.len > 0 ? " AND " : "", text);
        if (member < 0 && list_nth_int(cond, FdwConditionAttnum) == opts->partition_attnum)
            appendStringInfo(&prune, "%s%s", prune.len > 0 ? " AND " : "", text);
    }
    if (keys.len > 0)
        ExplainPropertyText("Archive Key", keys.data, es);
    if (seek.len > 0)
        ExplainPropertyText("Archive Seek", seek.data, es);
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
