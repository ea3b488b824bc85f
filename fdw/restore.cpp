/*
 * restore.cpp
 *	  permanode.restore_partitions(foreign_part): the reverse of archive_partitions. In the
 *	  caller's transaction: detach the foreign partition, recreate each heap partition it
 *	  replaced (the parent's indexes come with PARTITION OF; the partition's own, such as its
 *	  primary key, from the manifest), copy the rows back through the wrapper, check row count
 *	  and checksum against the manifest, and drop the foreign table. The archive directory stays
 *	  until permanode.archive_gc() finds that nothing references it.
 */
extern "C"
{
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "foreign/foreign.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

    PG_FUNCTION_INFO_V1(permanode_restore_partitions);
}

#include <fmt/format.h>

#include "archive_reader.hpp"
#include "heap_reader.hpp"

namespace permanode::fdw
{

/* Errors unless relid is a partition served by permanode_fdw. (pg) */
void CheckArchivedPartition(Oid relid)
{
    if (get_rel_relkind(relid) != RELKIND_FOREIGN_TABLE)
        ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
                        errmsg("\"%s\" is not an archived partition", get_rel_name(relid))));
    ForeignTable *table = GetForeignTable(relid);
    ForeignServer *server = GetForeignServer(table->serverid);
    ForeignDataWrapper *fdw = GetForeignDataWrapper(server->fdwid);
    if (strcmp(fdw->fdwname, "permanode_fdw") != 0)
        ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
                        errmsg("\"%s\" is not an archived partition", get_rel_name(relid)),
                        errdetail("It is served by foreign-data wrapper \"%s\".", fdw->fdwname)));
}

namespace
{

/* Whether `relation` names the partition (unqualified: the statement is not the sealer's). */
bool NamesPartition(const RangeVar *relation, const ManifestPartition &p)
{
    return relation != nullptr && relation->schemaname != nullptr &&
           p.schema == relation->schemaname && p.name == relation->relname;
}

/*
 * Whether `sql` is what sealing records for an index of the partition's own: one CREATE INDEX on
 * it, or one ALTER TABLE of it adding a primary key, unique or exclusion constraint. The
 * manifest is a file, and restoring runs its statements as a superuser: nothing else runs. (pg)
 */
bool IsOwnIndexOf(const std::string &sql, const ManifestPartition &p)
{
    List *parsed = raw_parser(sql.c_str(), RAW_PARSE_DEFAULT);
    if (list_length(parsed) != 1)
        return false;
    Node *stmt = linitial_node(RawStmt, parsed)->stmt;
    if (IsA(stmt, IndexStmt))
        return NamesPartition(castNode(IndexStmt, stmt)->relation, p);
    if (!IsA(stmt, AlterTableStmt))
        return false;
    auto *alter = castNode(AlterTableStmt, stmt);
    if (!NamesPartition(alter->relation, p) || list_length(alter->cmds) != 1)
        return false;
    auto *cmd = linitial_node(AlterTableCmd, alter->cmds);
    if (cmd->subtype != AT_AddConstraint || !IsA(cmd->def, Constraint))
        return false;
    ConstrType type = castNode(Constraint, cmd->def)->contype;
    return type == CONSTR_PRIMARY || type == CONSTR_UNIQUE || type == CONSTR_EXCLUSION;
}

int64 RestorePartitions(Oid ftoid)
{
    std::string parent_qualified, ft_qualified, partition_column, archive;
    Oid parent = InvalidOid;
    pg::CallPg(
        [&]
        {
            if (!superuser())
                ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                                errmsg("only superuser can restore partitions")));
            CheckArchivedPartition(ftoid);
            if (!get_rel_relispartition(ftoid))
                ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
                                errmsg("\"%s\" is not a partition", get_rel_name(ftoid))));
            parent = get_partition_parent(ftoid, false);
            ArchiveOptions *opts = GetArchiveOptions(ftoid);
            archive = opts->archive;
            parent_qualified = quote_qualified_identifier(
                get_namespace_name(get_rel_namespace(parent)), get_rel_name(parent));
            ft_qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(ftoid)),
                                                      get_rel_name(ftoid));
            partition_column = quote_identifier(get_attname(ftoid, opts->partition_attnum, false));
        });
    std::shared_ptr<ArchiveHandle> handle = OpenArchive(ArchiveDir(archive.c_str()));
    const Manifest &m = handle->manifest;

    std::vector<std::string> statements;
    statements.push_back(
        fmt::format("ALTER TABLE {} DETACH PARTITION {}", parent_qualified, ft_qualified));
    std::vector<std::string> restored;
    for (const auto &p : m.partitions)
    {
        std::string name = std::string(pg::CallPg(
            [&] { return quote_qualified_identifier(p.schema.c_str(), p.name.c_str()); }));
        restored.push_back(name);
        statements.push_back(
            fmt::format("CREATE TABLE {} PARTITION OF {} FOR VALUES FROM ({}) TO ({})", name,
                        parent_qualified, p.range_from, p.range_to));
        statements.push_back(fmt::format(
            "INSERT INTO {} SELECT * FROM {} WHERE {} >= {} AND {} < {}", name, ft_qualified,
            partition_column, p.range_from, partition_column, p.range_to));
        for (const auto &def : p.own_indexes)
        {
            if (!pg::CallPg([&] { return IsOwnIndexOf(def, p); }))
                throw pg::PgError(ERRCODE_DATA_CORRUPTED,
                                  fmt::format("the archive of partition {} records a "
                                              "statement that is not an index of it",
                                              name),
                                  fmt::format("The statement: {}", def),
                                  "Restoring runs only CREATE INDEX on the partition or ALTER "
                                  "TABLE adding its key: the manifest was altered.");
            statements.push_back(def);
        }
    }
    pg::CallPg([&] { ExecuteStatements(statements); });
    pg::CallPg([] { CrashPoint("restore_after_copy"); });

    std::vector<Oid> relids;
    for (const auto &p : m.partitions)
        relids.push_back(pg::CallPg(
            [&] {
                return get_relname_relid(p.name.c_str(),
                                         get_namespace_oid(p.schema.c_str(), false));
            }));
    auto codec = std::make_unique<RowCodec>(m);
    /* the restored rows encode as archived only with the archive's own dictionary */
    ValueDictionary dictionary(0);
    LoadDictionary(*handle, &dictionary);
    codec->SetDictionary(&dictionary);
    HeapDigest digest = DigestHeapRelations(relids, *codec);
    if (digest.rows != m.row_count || digest.checksum != m.checksum)
        throw pg::PgError(ERRCODE_DATA_CORRUPTED, "restored rows do not match the archive",
                          fmt::format("The archive holds {} rows (checksum {:x}), the restored "
                                      "partitions {} (checksum {:x}).",
                                      m.row_count, m.checksum, digest.rows, digest.checksum));
    pg::CallPg([&] { ExecuteStatements({"DROP FOREIGN TABLE " + ft_qualified}); });
    pg::CallPg([] { CrashPoint("restore_after_swap"); });
    return static_cast<int64>(digest.rows);
}

} // namespace

} // namespace permanode::fdw

/* permanode.restore_partitions(foreign_part regclass) returns bigint (rows restored) */
extern "C" Datum permanode_restore_partitions(PG_FUNCTION_ARGS)
{
    Oid ftoid = PG_GETARG_OID(0);
    const char *table = get_rel_name(ftoid);
    return permanode::fdw::GuardedArchive(
        table, [&]() -> Datum { return Int64GetDatum(permanode::fdw::RestorePartitions(ftoid)); });
}
