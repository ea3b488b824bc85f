/*
 * rocksdb_status.cpp
 *	  RocksDB Status to SQLSTATE, in one place.
 */
extern "C"
{
#include "postgres.h"
}

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

int StatusSqlstate(const rocksdb::Status &status)
{
    if (status.IsCorruption())
        return ERRCODE_DATA_CORRUPTED;
    if (status.IsNoSpace())
        return ERRCODE_DISK_FULL;
    if (IsOutOfFiles(status))
        return ERRCODE_INSUFFICIENT_RESOURCES;
    if (status.IsIOError())
        return ERRCODE_IO_ERROR;
    if (status.IsInvalidArgument())
        return ERRCODE_INVALID_PARAMETER_VALUE;
    if (status.IsNotSupported())
        return ERRCODE_FEATURE_NOT_SUPPORTED;
    return ERRCODE_FDW_ERROR;
}

pg::PgError ArchiveError(const StatusError &error, const std::string &table)
{
    int sqlstate = StatusSqlstate(error.status());
    std::string detail = std::string(error.what()) + ".";
    if (sqlstate == ERRCODE_DATA_CORRUPTED)
        return pg::PgError(sqlstate, "archive of table \"" + table + "\" is corrupted", detail);
    if (sqlstate == ERRCODE_DISK_FULL)
        return pg::PgError(sqlstate,
                           "no space left to write the archive of table \"" + table + "\"", detail,
                           "Free space under permanode_fdw.archive_root and archive again: "
                           "nothing was archived, and the range stays hot.");
    if (sqlstate == ERRCODE_INSUFFICIENT_RESOURCES)
        return pg::PgError(
            sqlstate, "out of file descriptors for the archive of table \"" + table + "\"", detail,
            "The server's open-files limit (ulimit -n) leaves too little beside "
            "PostgreSQL's files: raise it, or lower max_files_per_process or "
            "permanode_fdw.max_archive_files. Nothing was changed.");
    return pg::PgError(sqlstate, "could not access the archive of table \"" + table + "\"", detail);
}

} // namespace permanode::fdw
