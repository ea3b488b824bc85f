/*
 * heap_reader.hpp
 *	  Reading heap partitions in the archive's column layout, and their digest (row count and
 *	  checksum of the rows as the archive stores them).
 */
#ifndef PERMANODE_FDW_HEAP_READER_HPP
#define PERMANODE_FDW_HEAP_READER_HPP

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

/* A sequential scan of one heap relation whose rows come out in the archive's layout. */
struct HeapCursor;

/* Opens relid (already locked) with the latest snapshot; columns matched by name. (pg) */
HeapCursor *OpenHeapCursor(Oid relid, TupleDesc archive_desc);
/* Fetches the next row, detoasted; false at the end. Checks for interrupts. (pg) */
bool HeapCursorNext(HeapCursor *cursor);
/* The current row in archive layout. */
Datum *HeapCursorValues(HeapCursor *cursor);
bool *HeapCursorNulls(HeapCursor *cursor);
/* Ends the scan. (pg) */
void CloseHeapCursor(HeapCursor *cursor);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_HEAP_READER_HPP */
