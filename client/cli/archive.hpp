// `permanode archive`, `permanode restore` and the ledger part of `permanode status`: the cold
// tier at the ledger level (sql/permanode/code/70_archive.sql). Ranges are ms_range_id values,
// [from, to) as in the SQL functions.
#pragma once

#include <string>

#include <pqxx/pqxx>

namespace permanode::cli
{

// Archives [from_range, to_range) of every ledger table but sync; prints a row per archive.
void ArchiveRanges(pqxx::connection &conn, int from_range, int to_range);
// Archives every hot range older than the newest synced milestone minus older_than.
void ArchiveOlderThan(pqxx::connection &conn, int older_than);
// Restores the archives overlapping [from_range, to_range); prints a row per archive.
void RestoreRanges(pqxx::connection &conn, int from_range, int to_range);
// Prints permanode.status (tier, rows, bytes per table and range) and the totals per tier.
void PrintLedgerStatus(pqxx::connection &conn);

} // namespace permanode::cli
