/*
 * dictionary_choice.cpp
 *	  Which columns of an archive are dictionary-encoded: the variable-length ones outside the row
 *	  key whose values are wide and repeat, as the planner's statistics of the partitions tell.
 *	  Partitions never analyzed are analyzed first (a sample, like autovacuum would take).
 */
extern "C"
{
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

namespace
{

/* Distinct non-null values per non-null row at most, for a column to be worth a dictionary. */
constexpr double kMaxDistinctRatio = 0.5;

double RelTuples(Oid relid)
{
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tuple))
        elog(ERROR, "cache lookup failed for relation %u", relid);
    double reltuples = ((Form_pg_class)GETSTRUCT(tuple))->reltuples;
    ReleaseSysCache(tuple);
    return reltuples;
}

/* Runs ANALYZE on relid unless it has statistics. Ereports: call through CallPg. */
void AnalyzeIfNeverAnalyzed(Oid relid, const std::vector<std::string> &analyze)
{
    if (RelTuples(relid) >= 0)
        return;
    ExecuteStatements(analyze);
    CommandCounterIncrement(); /* the new statistics become visible */
}

/* A column's statistics over the partitions: non-null rows, distinct values, bytes. */
struct ColumnStats
{
    double rows = 0;
    double distinct = 0;
    double width = 0;
};

/* Adds relid's statistics of the column to *stats. Ereports: call through CallPg. */
void AddColumnStats(Oid relid, const char *column, ColumnStats *stats)
{
    AttrNumber attnum = get_attnum(relid, column);
    HeapTuple tuple = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attnum),
                                      BoolGetDatum(false));
    if (!HeapTupleIsValid(tuple))
        return;
    auto *stats_row = (Form_pg_statistic)GETSTRUCT(tuple);
    double reltuples = std::max(RelTuples(relid), 0.0);
    double nonnull = reltuples * (1.0 - stats_row->stanullfrac);
    /* negative: minus the ratio of distinct values to rows */
    double d =
        stats_row->stadistinct < 0 ? -stats_row->stadistinct * reltuples : stats_row->stadistinct;
    stats->rows += nonnull;
    stats->distinct += std::min(d, nonnull);
    stats->width += nonnull * stats_row->stawidth;
    ReleaseSysCache(tuple);
}

} // namespace

void ChooseDictionaryColumns(Manifest *m, const std::vector<Oid> &relids)
{
    std::vector<bool> in_rowkey(m->columns.size(), false);
    for (const auto &k : m->rows.key)
        in_rowkey[k.column] = true;
    for (Oid relid : relids)
    {
        std::vector<std::string> analyze = {
            std::string("ANALYZE ") +
            pg::CallPg(
                [&]
                {
                    return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
                                                      get_rel_name(relid));
                })};
        pg::CallPg([&] { AnalyzeIfNeverAnalyzed(relid, analyze); });
    }
    for (size_t c = 0; c < m->columns.size(); c++)
    {
        ManifestColumn &col = m->columns[c];
        if (in_rowkey[c] || col.kind != KeyKind::kBytes)
            continue;
        ColumnStats stats;
        for (Oid relid : relids)
            pg::CallPg([&] { AddColumnStats(relid, col.name.c_str(), &stats); });
        col.dictionary = stats.rows > 0 && stats.distinct <= kMaxDistinctRatio * stats.rows &&
                         stats.width / stats.rows >= static_cast<double>(kDictMinValueBytes);
    }
}

} // namespace permanode::fdw
