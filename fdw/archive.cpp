/*
 * archive.cpp
 *	  permanode.archive_partitions(parent, from_range, to_range): moves the heap partitions of
 *	  a range-partitioned table whose bounds tile [from_range, to_range) into one RocksDB archive
 *	  and puts a foreign partition in their place.
 *
 *	  1. Read the partitions' bounds and index definitions: the row key is the primary key (or
 *	     first unique index); every other plain btree index present in all partitions becomes an
 *	     index family.
 *	  2. One sequential scan per heap (latest snapshot, writers blocked by a SHARE lock) feeds one
 *	     sorter per family; each family is then sorted and written into one SST by its own
 *	     helper thread, and the SSTs are ingested into a fresh database. Row count and
 *	     checksum are taken on the way, and every row's partition key is checked against the
 *	     range (PostgreSQL never validates a foreign partition's bounds).
 *	  3. The manifest is written atomically: the directory is sealed, never written again.
 *	  4. The archive is re-read: row count and checksum must match what the heap gave.
 *	  5. The archive is logged in the WAL (archive_wal.cpp), for standbys and backups, before
 *	     the commit that names it.
 *	  6. Detach the heaps, create and attach the foreign partition, drop the heaps: with the
 *	     other swaps of the archiving call, under locks taken together (archive_swap.cpp). All
 *	     of this runs in the caller's transaction, so a crash anywhere leaves either the heaps
 *	     (and an orphaned directory for archive_gc) or the foreign partition: every row exactly
 *	     once.
 *
 *	  PrepareArchive, at the end of the file, runs steps 1 to 5 in this order.
 */
extern "C"
{
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/relcache.h"
#include "partitioning/partbounds.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

    PG_FUNCTION_INFO_V1(permanode_archive_partitions);
    PG_FUNCTION_INFO_V1(permanode_archive_prepare);
}

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "archive_wal.hpp"
#include "archive_writer.hpp"
#include "heap_reader.hpp"

namespace permanode::fdw
{

namespace
{

/* A child partition and its bounds, as read from the catalog. */
struct ChildBound
{
    Oid relid;
    char relkind;
    bool bounded; /* both bounds are values (not MINVALUE/MAXVALUE) */
    int64 from;
    int64 to;
};

/* One index of a partition, as read from the catalog. */
struct IndexDef
{
    std::string name;
    bool primary = false;
    bool unique = false;
    bool plain_btree = false; /* btree, valid, no expressions, no predicate but NOT NULLs */
    std::vector<std::string> columns;
    std::vector<bool> not_null; /* per key column: WHERE column IS NOT NULL */
    std::vector<bool> desc;
    std::vector<bool> nulls_first;
    std::vector<std::string> include; /* INCLUDE columns */
    std::string own_definition; /* SQL that recreates it, when not inherited from the parent */
};

int64 ConstInt(Const *c)
{
    switch (c->consttype)
    {
        case INT2OID:
            return DatumGetInt16(c->constvalue);
        case INT4OID:
            return DatumGetInt32(c->constvalue);
        default:
            return DatumGetInt64(c->constvalue);
    }
}

/* True when an index (also a partitioned one) is unique. (pg) */
bool IndexIsUnique(Oid indexoid)
{
    HeapTuple tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexoid));
    if (!HeapTupleIsValid(tuple))
        elog(ERROR, "cache lookup failed for index %u", indexoid);
    bool unique = ((Form_pg_index)GETSTRUCT(tuple))->indisunique;
    ReleaseSysCache(tuple);
    return unique;
}

/* Checks that parent is partitioned by range on one integer column, under no unique index;
 * returns the partition key's attnum. (pg) */
AttrNumber CheckParent(Oid parent)
{
    Relation rel = table_open(parent, AccessShareLock);
    if (rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
        ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
                        errmsg("\"%s\" is not a partitioned table", RelationGetRelationName(rel))));
    PartitionKey key = RelationGetPartitionKey(rel);
    if (key->strategy != PARTITION_STRATEGY_RANGE || key->partnatts != 1 ||
        key->partattrs[0] == 0 ||
        (key->parttypid[0] != INT2OID && key->parttypid[0] != INT4OID &&
         key->parttypid[0] != INT8OID))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("table \"%s\" is not partitioned by range on one integer column",
                               RelationGetRelationName(rel))));
    AttrNumber partattnum = key->partattrs[0];
    /* PostgreSQL refuses a foreign partition under a unique index: say so before any work. */
    ListCell *lc;
    foreach (lc, RelationGetIndexList(rel))
        if (IndexIsUnique(lfirst_oid(lc)))
            ereport(ERROR,
                    (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                     errmsg("cannot archive partitions of \"%s\", which has a unique index",
                            RelationGetRelationName(rel)),
                     errdetail("A foreign partition cannot be attached under a unique index."),
                     errhint("Keep uniqueness per partition: give each partition its own primary "
                             "key instead.")));
    table_close(rel, NoLock);
    return partattnum;
}

/* A range bound's value; MINVALUE and MAXVALUE as the extremes, so that FROM (n) TO (MAXVALUE)
 * overlaps only ranges reaching n. */
int64 RangeDatumValue(PartitionRangeDatum *d)
{
    if (d->kind == PARTITION_RANGE_DATUM_VALUE)
        return ConstInt(castNode(Const, d->value));
    return d->kind == PARTITION_RANGE_DATUM_MINVALUE ? PG_INT64_MIN : PG_INT64_MAX;
}

/* A child partition with its bounds. (pg) */
ChildBound ReadChildBound(Oid child)
{
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(child));
    if (!HeapTupleIsValid(tuple))
        elog(ERROR, "cache lookup failed for relation %u", child);
    bool isnull;
    Datum bound = SysCacheGetAttr(RELOID, tuple, Anum_pg_class_relpartbound, &isnull);
    /* A default partition (or one we cannot read) overlaps every range. */
    ChildBound cb{child, ((Form_pg_class)GETSTRUCT(tuple))->relkind, false, PG_INT64_MIN,
                  PG_INT64_MAX};
    if (!isnull)
    {
        auto *spec = castNode(PartitionBoundSpec, stringToNode(TextDatumGetCString(bound)));
        if (!spec->is_default && spec->strategy == PARTITION_STRATEGY_RANGE)
        {
            auto *lo = castNode(PartitionRangeDatum, linitial(spec->lowerdatums));
            auto *hi = castNode(PartitionRangeDatum, linitial(spec->upperdatums));
            cb.bounded =
                lo->kind == PARTITION_RANGE_DATUM_VALUE && hi->kind == PARTITION_RANGE_DATUM_VALUE;
            cb.from = RangeDatumValue(lo);
            cb.to = RangeDatumValue(hi);
        }
    }
    ReleaseSysCache(tuple);
    return cb;
}

/* Checks the parent and lists its children with their bounds. (pg) */
void ReadChildren(Oid parent, std::vector<ChildBound> *children, AttrNumber *partattnum)
{
    *partattnum = CheckParent(parent);
    ListCell *lc;
    foreach (lc, find_inheritance_children(parent, AccessShareLock))
        children->push_back(ReadChildBound(lfirst_oid(lc)));
}

/* An index as read from the catalog, in palloc'd memory (no C++ object lives across ereport). */
struct CatalogIndex
{
    char *name;
    bool primary;
    bool unique;
    bool plain_btree; /* btree, valid, no expressions, no predicate but NOT NULLs */
    int nkeys;
    char *columns[INDEX_MAX_KEYS];
    bool not_null[INDEX_MAX_KEYS]; /* the predicate says WHERE column IS NOT NULL */
    bool desc[INDEX_MAX_KEYS];
    bool nulls_first[INDEX_MAX_KEYS];
    int ninclude;
    char *include[INDEX_MAX_KEYS];
    char *own_definition; /* NULL when inherited from a parent index */
};

/*
 * Whether the index's predicate, if any, only says that key columns are not NULL (the ledger's
 * lookup indexes: WHERE address IS NOT NULL): such an index is archived holding the rows it
 * holds, and not_null marks those columns. (pg)
 */
bool NotNullPredicate(Relation idx, bool *not_null)
{
    ListCell *lc;
    foreach (lc, RelationGetIndexPredicate(idx))
    {
        Node *clause = (Node *)lfirst(lc);
        if (!IsA(clause, NullTest))
            return false;
        NullTest *test = (NullTest *)clause;
        Node *arg = (Node *)test->arg;
        while (IsA(arg, RelabelType))
            arg = (Node *)((RelabelType *)arg)->arg;
        if (test->nulltesttype != IS_NOT_NULL || test->argisrow || !IsA(arg, Var))
            return false;
        int key = -1;
        for (int i = 0; i < IndexRelationGetNumberOfKeyAttributes(idx); i++)
            if (idx->rd_index->indkey.values[i] == ((Var *)arg)->varattno)
                key = i;
        if (key < 0)
            return false;
        not_null[key] = true;
    }
    return true;
}

/* Reads the indexes of a partition into a List of CatalogIndex. (pg) */
List *ReadCatalogIndexes(Oid relid)
{
    List *result = NIL;
    Relation rel = table_open(relid, NoLock);
    ListCell *lc;
    foreach (lc, RelationGetIndexList(rel))
    {
        Oid indexoid = lfirst_oid(lc);
        Relation idx = index_open(indexoid, AccessShareLock);
        Form_pg_index form = idx->rd_index;
        CatalogIndex *ci = (CatalogIndex *)palloc0(sizeof(CatalogIndex));
        ci->name = pstrdup(RelationGetRelationName(idx));
        ci->primary = form->indisprimary;
        ci->unique = form->indisunique;
        ci->plain_btree = idx->rd_rel->relam == BTREE_AM_OID && form->indisvalid &&
                          heap_attisnull(idx->rd_indextuple, Anum_pg_index_indexprs, nullptr) &&
                          NotNullPredicate(idx, ci->not_null);
        ci->nkeys = ci->plain_btree ? IndexRelationGetNumberOfKeyAttributes(idx) : 0;
        for (int i = 0; i < ci->nkeys; i++)
        {
            ci->columns[i] = get_attname(relid, form->indkey.values[i], false);
            ci->desc[i] = (idx->rd_indoption[i] & INDOPTION_DESC) != 0;
            ci->nulls_first[i] = (idx->rd_indoption[i] & INDOPTION_NULLS_FIRST) != 0;
        }
        for (int i = ci->nkeys; ci->plain_btree && i < IndexRelationGetNumberOfAttributes(idx); i++)
            ci->include[ci->ninclude++] = get_attname(relid, form->indkey.values[i], false);
        if (!has_superclass(indexoid))
        {
            Oid constraint = get_index_constraint(indexoid);
            ci->own_definition = OidIsValid(constraint) ? pg_get_constraintdef_command(constraint)
                                                        : pg_get_indexdef_string(indexoid);
        }
        index_close(idx, AccessShareLock);
        result = lappend(result, ci);
    }
    table_close(rel, NoLock);
    return result;
}

/* Reads the indexes of a partition. */
std::vector<IndexDef> ReadIndexes(Oid relid)
{
    List *catalog = pg::CallPg([&] { return ReadCatalogIndexes(relid); });
    std::vector<IndexDef> out;
    ListCell *lc;
    foreach (lc, catalog)
    {
        const CatalogIndex *ci = (const CatalogIndex *)lfirst(lc);
        IndexDef def;
        def.name = ci->name;
        def.primary = ci->primary;
        def.unique = ci->unique;
        def.plain_btree = ci->plain_btree;
        for (int i = 0; i < ci->nkeys; i++)
        {
            def.columns.push_back(ci->columns[i]);
            def.desc.push_back(ci->desc[i]);
            def.nulls_first.push_back(ci->nulls_first[i]);
            def.not_null.push_back(ci->not_null[i]);
        }
        for (int i = 0; i < ci->ninclude; i++)
            def.include.push_back(ci->include[i]);
        if (ci->own_definition != nullptr)
            def.own_definition = ci->own_definition;
        out.push_back(std::move(def));
    }
    return out;
}

/* A column of the parent as read from the catalog, in palloc'd memory. */
struct CatalogColumn
{
    char *name;
    Oid type_oid;
    char *type_name;
    int32 typmod;
    KeyKind kind;
    int fixed_len;
    bool partition_key;
};

/* Reads the parent's live columns into a List of CatalogColumn. (pg) */
List *ReadCatalogColumns(Oid parent, AttrNumber partattnum)
{
    List *result = NIL;
    Relation rel = table_open(parent, NoLock);
    TupleDesc desc = RelationGetDescr(rel);
    for (int i = 0; i < desc->natts; i++)
    {
        Form_pg_attribute att = TupleDescAttr(desc, i);
        if (att->attisdropped)
            continue;
        CatalogColumn *cc = (CatalogColumn *)palloc0(sizeof(CatalogColumn));
        cc->name = pstrdup(NameStr(att->attname));
        cc->type_oid = att->atttypid;
        cc->type_name = format_type_be(att->atttypid);
        cc->typmod = att->atttypmod;
        cc->kind = KeyKindOfType(att->atttypid, &cc->fixed_len);
        cc->partition_key = att->attnum == partattnum;
        result = lappend(result, cc);
    }
    table_close(rel, NoLock);
    return result;
}

bool SameKey(const IndexDef &a, const IndexDef &b)
{
    return a.plain_btree && b.plain_btree && a.columns == b.columns && a.desc == b.desc &&
           a.nulls_first == b.nulls_first && a.not_null == b.not_null;
}

/* The manifest's column index of a column name, or -1. */
int ColumnIndex(const Manifest &m, const std::string &name)
{
    for (size_t i = 0; i < m.columns.size(); i++)
        if (m.columns[i].name == name)
            return static_cast<int>(i);
    return -1;
}

/* Key columns of an index definition, or false when a column cannot be encoded. */
bool KeyOf(const Manifest &m, const IndexDef &def, std::vector<ManifestKeyColumn> *key)
{
    key->clear();
    for (size_t i = 0; i < def.columns.size(); i++)
    {
        int column = ColumnIndex(m, def.columns[i]);
        if (column < 0 || m.columns[column].kind == KeyKind::kNone)
            return false;
        key->push_back(ManifestKeyColumn{column, def.desc[i], def.nulls_first[i], def.not_null[i]});
    }
    return !key->empty();
}

std::string SafeName(const std::string &name)
{
    std::string out;
    for (char c : name)
        out += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return out.substr(0, 40);
}

/* schema.name, each quoted where SQL needs it. */
std::string Qualified(const std::string &schema, const std::string &name)
{
    return std::string(
        pg::CallPg([&] { return quote_qualified_identifier(schema.c_str(), name.c_str()); }));
}

/* What step 1 reads from the catalog: the partitions to archive and the archive's layout. */
struct ArchivePlan
{
    Manifest manifest;
    std::vector<ChildBound> partitions;         /* tiling the range, in bound order */
    std::vector<std::vector<IndexDef>> indexes; /* per partition */
    Oid parent_namespace = InvalidOid;
    std::string parent_qualified;                  /* the parent's name, quoted for SQL */
    std::vector<std::string> partitions_qualified; /* per partition */
};

/* Refuses a caller that is not a superuser and an empty range, checks that archives can change
 * here, and keeps archive_gc away from the archive about to be written. */
void BeginArchiving(int64 from, int64 to)
{
    pg::CallPg(
        [&]
        {
            if (!superuser())
                ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                                errmsg("only superuser can archive partitions")));
            if (from >= to)
                ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                                errmsg("empty range [%ld, %ld)", (long)from, (long)to)));
        });
    CheckArchiveWal();
    pg::CallPg(
        [] {
            DirectFunctionCall1(pg_advisory_xact_lock_shared_int8, Int64GetDatum(kArchiveLockKey));
        });
}

/* The children lying in [from, to), in bound order; errors on one that overlaps the range
 * without lying inside it, or that is not a plain table. */
std::vector<ChildBound> PartitionsInRange(const std::vector<ChildBound> &children, int64 from,
                                          int64 to)
{
    std::vector<ChildBound> chosen;
    for (const auto &c : children)
    {
        bool inside = c.bounded && c.from >= from && c.to <= to;
        bool overlaps = c.from < to && c.to > from;
        if (!overlaps)
            continue;
        if (!inside)
        {
            std::string child = std::string(pg::CallPg(get_rel_name, c.relid));
            throw pg::PgError(
                ERRCODE_INVALID_PARAMETER_VALUE,
                "a partition overlaps the range without lying inside it",
                fmt::format("Partition {} has bounds [{}, {}), the range is [{}, {}).", child,
                            c.from, c.to, from, to));
        }
        if (c.relkind != RELKIND_RELATION)
            throw pg::PgError(ERRCODE_WRONG_OBJECT_TYPE,
                              "the range holds a partition that is not a plain table",
                              "Archived partitions cannot be archived again; restore them first.");
        chosen.push_back(c);
    }
    std::sort(chosen.begin(), chosen.end(),
              [](const ChildBound &a, const ChildBound &b) { return a.from < b.from; });
    return chosen;
}

/* Errors unless the partitions, in bound order, tile [from, to) without gaps. */
void CheckTiling(const std::vector<ChildBound> &chosen, int64 from, int64 to)
{
    int64 expect = from;
    for (const auto &c : chosen)
    {
        if (c.from != expect)
            break;
        expect = c.to;
    }
    if (chosen.empty() || expect != to)
        throw pg::PgError(
            ERRCODE_INVALID_PARAMETER_VALUE,
            "the partitions in the range do not cover it without gaps",
            fmt::format("Archiving needs heap partitions that tile [{}, {}).", from, to));
}

/* Reads the parent's names and columns into the plan, its partitions locked against writers
 * first (readers go on). */
void ReadParent(Oid parent, AttrNumber partattnum, ArchivePlan *plan)
{
    List *columns = nullptr;
    pg::CallPg(
        [&]
        {
            GiveWayInDeadlocks(); /* before the first lock writers wait for */
            for (const auto &c : plan->partitions)
                LockRelationOid(c.relid, ShareLock); /* readers go on, writers wait */
            plan->parent_namespace = get_rel_namespace(parent);
            columns = ReadCatalogColumns(parent, partattnum);
        });
    Manifest &m = plan->manifest;
    m.table_schema = std::string(pg::CallPg(get_namespace_name, plan->parent_namespace));
    m.table_name = std::string(pg::CallPg(get_rel_name, parent));
    plan->parent_qualified = Qualified(m.table_schema, m.table_name);
    ListCell *lc;
    foreach (lc, columns)
    {
        const CatalogColumn *cc = (const CatalogColumn *)lfirst(lc);
        ManifestColumn col;
        col.name = cc->name;
        col.type_oid = cc->type_oid;
        col.type_name = cc->type_name;
        col.typmod = cc->typmod;
        col.kind = cc->kind;
        col.fixed_len = cc->fixed_len;
        if (cc->partition_key)
        {
            m.partition_column = col.name;
            m.partition_column_index = static_cast<int>(m.columns.size());
        }
        m.columns.push_back(std::move(col));
    }
}

/* Reads each partition's names and indexes into the plan and the manifest. */
void ReadPartitions(ArchivePlan *plan)
{
    for (const auto &c : plan->partitions)
    {
        plan->indexes.push_back(ReadIndexes(c.relid));
        ManifestPartition p;
        p.schema =
            std::string(pg::CallPg([&] { return get_namespace_name(get_rel_namespace(c.relid)); }));
        p.name = std::string(pg::CallPg(get_rel_name, c.relid));
        p.range_from = c.from;
        p.range_to = c.to;
        for (const auto &def : plan->indexes.back())
            if (!def.own_definition.empty())
                p.own_indexes.push_back(def.own_definition);
        plan->partitions_qualified.push_back(Qualified(p.schema, p.name));
        plan->manifest.partitions.push_back(std::move(p));
    }
}

/* True when every partition has an index with def's key: only such an index is archived. */
bool InAllPartitions(const IndexDef &def, const std::vector<std::vector<IndexDef>> &indexes)
{
    for (size_t i = 1; i < indexes.size(); i++)
        if (std::none_of(indexes[i].begin(), indexes[i].end(),
                         [&](const IndexDef &o) { return SameKey(def, o); }))
            return false;
    return true;
}

/*
 * Keys the rows family: by the primary key, else the first unique index, that is a plain btree
 * on encodable columns in every partition. A partial index leaves rows out: never the row key.
 */
const IndexDef &ChooseRowKey(ArchivePlan *plan)
{
    Manifest &m = plan->manifest;
    for (int pass = 0; pass < 2; pass++)
        for (const auto &def : plan->indexes[0])
        {
            std::vector<ManifestKeyColumn> key;
            bool partial =
                std::find(def.not_null.begin(), def.not_null.end(), true) != def.not_null.end();
            if ((pass == 0 ? def.primary : def.unique) && def.plain_btree && !partial &&
                KeyOf(m, def, &key) && InAllPartitions(def, plan->indexes))
            {
                m.rows.cf = kRowsFamily;
                m.rows.name = def.name;
                m.rows.key = key;
                return def;
            }
        }
    throw pg::PgError(ERRCODE_FEATURE_NOT_SUPPORTED,
                      "the partitions have no primary key or unique index to key the archive",
                      "Every partition needs the same primary key (or unique btree index) on "
                      "columns of supported types.");
}

/* True when column is among the family's key, suffix or INCLUDE columns. */
bool FamilyHolds(const ManifestFamily &f, int column)
{
    for (const auto *part : {&f.key, &f.suffix, &f.include})
        for (const auto &k : *part)
            if (k.column == column)
                return true;
    return false;
}

/* An index family of def (whose key f holds): the row key columns it lacks as its suffix, and
 * its encodable INCLUDE columns, which make index-only scans possible. */
void CompleteFamily(const Manifest &m, const IndexDef &def, ManifestFamily *f)
{
    f->cf = "i" + std::to_string(m.indexes.size() + 1);
    f->name = def.name;
    for (const auto &rk : m.rows.key)
        if (!FamilyHolds(*f, rk.column))
            f->suffix.push_back(rk);
    for (const auto &name : def.include)
    {
        int column = ColumnIndex(m, name);
        if (column >= 0 && m.columns[column].kind != KeyKind::kNone && !FamilyHolds(*f, column))
            f->include.push_back(ManifestKeyColumn{column, false, false});
    }
}

/* Makes an index family of every other index that can be archived; returns the names of those
 * that cannot. */
std::vector<std::string> ChooseIndexFamilies(ArchivePlan *plan, const IndexDef &rowkey)
{
    Manifest &m = plan->manifest;
    std::vector<std::string> skipped;
    for (const auto &def : plan->indexes[0])
    {
        if (&def == &rowkey)
            continue;
        ManifestFamily f;
        if (!def.plain_btree || !KeyOf(m, def, &f.key) || !InAllPartitions(def, plan->indexes))
        {
            skipped.push_back(def.name);
            continue;
        }
        CompleteFamily(m, def, &f);
        m.indexes.push_back(std::move(f));
    }
    return skipped;
}

const char *const kUnarchivable = "Only btree indexes on plain columns of supported types, with "
                                  "no predicate but that key columns are not NULL, present in "
                                  "every partition, are archived.";

/* Refuses indexes that cannot be archived, unless permanode_fdw.skip_unarchivable_indexes is
 * on: then a notice names each. */
void HandleSkippedIndexes(const std::vector<std::string> &skipped)
{
    if (!skipped.empty() && !skip_unarchivable_indexes_setting)
    {
        std::string names;
        for (const auto &name : skipped)
            names += (names.empty() ? "\"" : ", \"") + name + "\"";
        throw pg::PgError(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot archive index " + names,
                          kUnarchivable,
                          "Drop or change the index, or SET "
                          "permanode_fdw.skip_unarchivable_indexes = on to archive without it: "
                          "lookups it would serve then read the whole archived range.");
    }
    for (const auto &name : skipped)
        pg::CallPg(
            [&]
            {
                ereport(NOTICE, (errmsg("index \"%s\" is not archived", name.c_str()),
                                 errdetail("%s", kUnarchivable)));
            });
}

/* Step 1: the heap partitions tiling [from, to), locked against writers, and the archive's
 * layout: columns, row key and index families. */
ArchivePlan PlanArchive(Oid parent, int64 from, int64 to)
{
    ArchivePlan plan;
    std::vector<ChildBound> children;
    AttrNumber partattnum = 0;
    pg::CallPg([&] { ReadChildren(parent, &children, &partattnum); });
    plan.partitions = PartitionsInRange(children, from, to);
    CheckTiling(plan.partitions, from, to);
    ReadParent(parent, partattnum, &plan);
    ReadPartitions(&plan);
    plan.manifest.range_from = from;
    plan.manifest.range_to = to;
    plan.manifest.compression = "zstd";
    const IndexDef &rowkey = ChooseRowKey(&plan);
    HandleSkippedIndexes(ChooseIndexFamilies(&plan, rowkey));
    return plan;
}

/* Logs (DEBUG1) how long each phase of an archive took. */
class PhaseTimer
{
  public:
    void Done(const char *what)
    {
        auto now = std::chrono::steady_clock::now();
        double ms = std::chrono::duration<double, std::milli>(now - start_).count();
        pg::CallPg([&] { elog(DEBUG1, "permanode_fdw: archive %s took %.0f ms", what, ms); });
        start_ = std::chrono::steady_clock::now();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/* Marks the archive's creation time and its dictionary columns (from the partitions'
 * statistics), before any row is written. */
void PrepareToWrite(ArchivePlan *plan)
{
    plan->manifest.created_at =
        std::string(pg::CallPg([] { return timestamptz_to_str(GetCurrentTimestamp()); }));
    std::vector<Oid> relids;
    for (const auto &c : plan->partitions)
        relids.push_back(c.relid);
    ChooseDictionaryColumns(&plan->manifest, relids);
}

/* Step 2: writes every partition's rows into the archive in dir, recording each partition's
 * rows and each family's entries in the manifest; returns what the heap gave. */
HeapDigest WriteArchive(const std::string &dir, ArchivePlan *plan, PhaseTimer *timer)
{
    Manifest &m = plan->manifest;
    auto codec = std::make_unique<RowCodec>(m);
    ArchiveWriter writer(dir, m, *codec);
    HeapDigest heap;
    for (size_t i = 0; i < plan->partitions.size(); i++)
    {
        uint64 rows = writer.AddRelation(plan->partitions[i].relid);
        m.partitions[i].rows = rows;
        heap.rows += rows;
    }
    heap.checksum = writer.checksum();
    timer->Done("reading the heap");
    writer.Finish(&m);
    timer->Done("sorting and writing");
    return heap;
}

/* Step 3: writes the manifest, which seals the directory; returns its bytes on disk. */
uint64 Seal(const std::string &dir, const HeapDigest &heap, Manifest *m)
{
    m->row_count = heap.rows;
    m->checksum = heap.checksum;
    SealArchive(dir, ManifestToJson(*m));
    return DirectoryBytes(dir);
}

/* Step 4: re-reads the sealed archive, every block with its checksum verified, and errors
 * unless it holds what the heap gave; before anything changes. */
void VerifyAgainstHeap(const std::string &dir, const HeapDigest &heap)
{
    HeapDigest archived = DigestArchive(dir, false);
    if (archived.rows != heap.rows || archived.checksum != heap.checksum)
        throw pg::PgError(ERRCODE_DATA_CORRUPTED, "archive verification failed",
                          fmt::format("The heap gave {} rows (checksum {:x}), the archive {} "
                                      "(checksum {:x}).",
                                      heap.rows, heap.checksum, archived.rows, archived.checksum));
    /* its files are closed before the next archive of the same call opens its own */
    ForgetArchive(dir);
}

/* The name of the foreign partition over [from, to) of the plan's table. */
std::string ForeignTableName(const ArchivePlan &plan)
{
    const Manifest &m = plan.manifest;
    return SafeName(m.table_name) + fmt::format("_archive_{}_{}", m.range_from, m.range_to);
}

/* CREATE FOREIGN TABLE of the foreign partition over the archive. */
std::string CreateForeignTable(const ArchivePlan &plan, const std::string &archive, uint64 rows,
                               uint64 bytes)
{
    const Manifest &m = plan.manifest;
    auto literal = [](const std::string &s)
    { return std::string(pg::CallPg([&] { return quote_literal_cstr(s.c_str()); })); };
    return fmt::format(
        "CREATE FOREIGN TABLE {} PARTITION OF {} FOR VALUES FROM ({}) TO ({}) "
        "SERVER permanode_archive OPTIONS (archive {}, row_count '{}', byte_size '{}', "
        "range_from '{}', range_to '{}', partition_attnum '{}', indexes {})",
        Qualified(m.table_schema, ForeignTableName(plan)), plan.parent_qualified, m.range_from,
        m.range_to, literal(archive), rows, bytes, m.range_from, m.range_to,
        m.partition_column_index + 1, literal(IndexesOption(m)));
}

/* Step 6's statements (archive_swap.cpp runs them): detach the heaps, attach a foreign
 * partition over the archive in their place, drop the heaps. */
std::vector<std::string> SwapStatements(const ArchivePlan &plan, const std::string &archive,
                                        uint64 rows, uint64 bytes)
{
    std::vector<std::string> statements;
    for (const auto &p : plan.partitions_qualified)
        statements.push_back(
            fmt::format("ALTER TABLE {} DETACH PARTITION {}", plan.parent_qualified, p));
    statements.push_back(CreateForeignTable(plan, archive, rows, bytes));
    std::string drop = "DROP TABLE ";
    for (size_t i = 0; i < plan.partitions_qualified.size(); i++)
        drop += (i ? ", " : "") + plan.partitions_qualified[i];
    statements.push_back(drop);
    return statements;
}

/* Steps 1 to 5 of the file's header comment, in order; step 6 waits with the call's other
 * swaps (AddPreparedSwap). */
void PrepareArchive(Oid parent, int64 from, int64 to)
{
    BeginArchiving(from, to);
    ArchivePlan plan = PlanArchive(parent, from, to);

    auto archive =
        std::make_unique<NewArchiveDirectory>(SafeName(plan.manifest.table_name), from, to);
    PrepareToWrite(&plan);
    PhaseTimer timer;
    HeapDigest heap = WriteArchive(archive->path(), &plan, &timer);
    pg::CallPg([] { CrashPoint("after_write"); });

    uint64 bytes = Seal(archive->path(), heap, &plan.manifest);
    timer.Done("sealing");
    VerifyAgainstHeap(archive->path(), heap);
    timer.Done("verifying");

    /* into the WAL, for standbys and backups: before the swap's commit, which names it */
    LogArchive(archive->name(), archive->path());
    timer.Done("logging");

    PreparedSwap swap;
    swap.parent = parent;
    for (const auto &c : plan.partitions)
        swap.partitions.push_back(c.relid);
    swap.statements = SwapStatements(plan, archive->name(), heap.rows, bytes);
    swap.foreign_table = ForeignTableName(plan);
    swap.namespace_oid = plan.parent_namespace;
    swap.directory = std::move(archive);
    AddPreparedSwap(std::move(swap));
}

} // namespace

} // namespace permanode::fdw

namespace
{

/* Prepares the archive of (parent regclass, from_range int, to_range int), the call's arguments,
 * under the archive's guard; with `swap`, swaps it in (with any other this transaction prepared)
 * and returns its foreign table. */
Datum GuardedPrepareArchive(FunctionCallInfo fcinfo, bool swap)
{
    Oid parent = PG_GETARG_OID(0);
    int64 from = PG_GETARG_INT32(1);
    int64 to = PG_GETARG_INT32(2);
    return permanode::fdw::GuardedArchive(
        get_rel_name(parent),
        [&]() -> Datum
        {
            permanode::fdw::PrepareArchive(parent, from, to);
            return swap ? ObjectIdGetDatum(permanode::fdw::SwapPrepared().back()) : (Datum)0;
        });
}

} // namespace

/* permanode.archive_partitions(parent regclass, from_range int, to_range int) returns regclass:
 * prepares the archive and swaps it in (with any other this transaction prepared). */
extern "C" Datum permanode_archive_partitions(PG_FUNCTION_ARGS)
{
    return GuardedPrepareArchive(fcinfo, true);
}

/* permanode.archive_prepare(parent regclass, from_range int, to_range int) returns void: writes,
 * verifies and logs the archive of the heap partitions tiling the range; its swap waits for
 * permanode.archive_swap_prepared() in the same transaction (archive_swap.cpp). */
extern "C" Datum permanode_archive_prepare(PG_FUNCTION_ARGS)
{
    return GuardedPrepareArchive(fcinfo, false);
}
