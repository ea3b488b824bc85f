/*
 * archive_wal.hpp
 *	  Archives in the WAL (archive_wal.cpp): what standbys, base backups and point-in-time
 *	  recovery replay to hold the same archives as the primary.
 */
#ifndef PERMANODE_FDW_ARCHIVE_WAL_HPP
#define PERMANODE_FDW_ARCHIVE_WAL_HPP

#include <set>
#include <string>

namespace permanode::fdw
{

/* Registers the resource manager; only while shared_preload_libraries are loaded. */
void RegisterArchiveRmgr();

/* Errors on a standby (or during any recovery): archives change on the primary only. */
void CheckNotInRecovery();

/*
 * Errors unless archives can be changed here: not during recovery, and with the resource
 * manager registered whenever the WAL is read by anyone but crash recovery (wal_level replica
 * or logical).
 */
void CheckArchiveWal();

/* Logs the sealed archive in dir (named name, in this database): its files, then its seal. */
void LogArchive(const std::string &name, const std::string &dir);

/* Logs which of this database's archive directories stay; replay removes the others. */
void LogKeptArchives(const std::set<std::string> &kept);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ARCHIVE_WAL_HPP */
