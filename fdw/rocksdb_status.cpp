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
    std::string message = sqlstate == ERRCODE_DATA_CORRUPTED
                              ? "archive of table \"" + table + "\" is corrupted"
                              : "could not access the archive of table \"" + table + "\"";
    return pg::PgError(sqlstate, message, std::string(error.what()) + ".");
}

} // namespace permanode::fdw
