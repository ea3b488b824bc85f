/*
 * modify.cpp
 *	  Archives are immutable: INSERT, UPDATE and DELETE that reach an archived partition fail
 *	  with a clear error and a hint to restore it first. The callbacks exist so that PostgreSQL
 *	  reaches them (without them it reports a generic "cannot insert into foreign table").
 */
extern "C"
{
#include "postgres.h"

#include "foreign/fdwapi.h"
#include "nodes/execnodes.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

namespace
{

/* Raises the error for a write to an archived partition. */
void RejectWrite(Relation rel)
{
    ereport(ERROR,
            (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
             errmsg("cannot modify archived partition \"%s\"", RelationGetRelationName(rel)),
             errdetail("Archived partitions are read-only."),
             errhint("Restore it with permanode.restore_partitions('%s') first.",
                     quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
                                                RelationGetRelationName(rel)))));
}

void BeginForeignModify(ModifyTableState *, ResultRelInfo *rinfo, List *, int, int eflags)
{
    if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
        return;
    RejectWrite(rinfo->ri_RelationDesc);
}

void BeginForeignInsert(ModifyTableState *, ResultRelInfo *rinfo)
{
    RejectWrite(rinfo->ri_RelationDesc);
}

TupleTableSlot *ExecForeignWrite(EState *, ResultRelInfo *rinfo, TupleTableSlot *, TupleTableSlot *)
{
    RejectWrite(rinfo->ri_RelationDesc);
    return nullptr;
}

} // namespace

void SetModifyCallbacks(FdwRoutine *routine)
{
    routine->BeginForeignModify = BeginForeignModify;
    routine->BeginForeignInsert = BeginForeignInsert;
    routine->ExecForeignInsert = ExecForeignWrite;
    routine->ExecForeignUpdate = ExecForeignWrite;
    routine->ExecForeignDelete = ExecForeignWrite;
}

} // namespace permanode::fdw
