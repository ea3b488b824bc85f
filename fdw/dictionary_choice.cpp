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

void AnalyzeIfNeverAnalyzed(Oid relid)
{
    if (RelTuples(relid) >= 0)
        return;
    char *name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
                                            get_rel_name(relid));
    ExecuteStatements({std::string("ANALYZE ") + name});
    CommandCounterIncrement(); /* the new statistics become visible */
}

} // namespace

void ChooseDictionaryColumns(Manifest *m, const std::vector<Oid> &relids)
{
    std::vector<bool> in_rowkey(m->columns.size(), false);
    for (const auto &k : m->rows.key)
        in_rowkey[k.column] = true;
    for (Oid relid : relids)
        AnalyzeIfNeverAnalyzed(relid);
    for (size_t c = 0; c < m->columns.size(); c++)
    {
        ManifestColumn &col = m->columns[c];
        if (in_rowkey[c] || col.kind != KeyKind::kBytes)
            continue;
        double rows = 0, distinct = 0, width = 0;
        for (Oid relid : relids)
        {
            AttrNumber attnum = get_attnum(relid, col.name.c_str());
            HeapTuple tuple = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid),
                                              Int16GetDatum(attnum), BoolGetDatum(false));
            if (!HeapTupleIsValid(tuple))
                continue;
            auto *stats = (Form_pg_statistic)GETSTRUCT(tuple);
            double reltuples = std::max(RelTuples(relid), 0.0);
            double nonnull = reltuples * (1.0 - stats->stanullfrac);
            /* negative: minus the ratio of distinct values to rows */
            double d =
                stats->stadistinct < 0 ? -stats->stadistinct * reltuples : stats->stadistinct;
            rows += nonnull;
            distinct += std::min(d, nonnull);
            width += nonnull * stats->stawidth;
            ReleaseSysCache(tuple);
        }
        col.dictionary = rows > 0 && distinct <= kMaxDistinctRatio * rows &&
                         width / rows >= static_cast<double>(kDictMinValueBytes);
    }
}

} // namespace permanode::fdw
