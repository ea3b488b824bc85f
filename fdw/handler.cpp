/*
 * handler.cpp
 *	  The FDW handler: the table of callbacks. Scan callbacks run C++ (RocksDB) and go through
 *	  GuardedArchive, so that no exception or longjmp crosses the boundary; planning, EXPLAIN,
 *	  ANALYZE setup and the write rejections are plain PostgreSQL code.
 */
extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "foreign/fdwapi.h"
#include "utils/rel.h"

    PG_FUNCTION_INFO_V1(permanode_fdw_handler);
}

#include "permanode_fdw.hpp"

namespace
{

using namespace permanode::fdw;

const char *TableName(ForeignScanState *node)
{
    return RelationGetRelationName(node->ss.ss_currentRelation);
}

extern "C" void BeginScanEntry(ForeignScanState *node, int eflags)
{
    GuardedArchive(TableName(node),
                   [&]() -> Datum
                   {
                       BeginForeignScan(node, eflags);
                       return 0;
                   });
}

extern "C" TupleTableSlot *IterateScanEntry(ForeignScanState *node)
{
    return (TupleTableSlot *)DatumGetPointer(GuardedArchive(
        TableName(node), [&]() -> Datum { return PointerGetDatum(IterateForeignScan(node)); }));
}

extern "C" void ReScanEntry(ForeignScanState *node)
{
    GuardedArchive(TableName(node),
                   [&]() -> Datum
                   {
                       ReScanForeignScan(node);
                       return 0;
                   });
}

extern "C" void EndScanEntry(ForeignScanState *node)
{
    GuardedArchive(TableName(node),
                   [&]() -> Datum
                   {
                       EndForeignScan(node);
                       return 0;
                   });
}

} // namespace

/* Returns the FdwRoutine of permanode_fdw. */
extern "C" Datum permanode_fdw_handler(PG_FUNCTION_ARGS)
{
    PERMANODE_PURE_C;
    FdwRoutine *routine = makeNode(FdwRoutine);
    routine->GetForeignRelSize = GetForeignRelSize;
    routine->GetForeignPaths = GetForeignPaths;
    routine->GetForeignPlan = GetForeignPlan;
    routine->BeginForeignScan = BeginScanEntry;
    routine->IterateForeignScan = IterateScanEntry;
    routine->ReScanForeignScan = ReScanEntry;
    routine->EndForeignScan = EndScanEntry;
    routine->ExplainForeignScan = ExplainForeignScan;
    routine->AnalyzeForeignTable = AnalyzeForeignTable;
    SetModifyCallbacks(routine);
    PG_RETURN_POINTER(routine);
}
