/*
 * maintenance.cpp
 *	  permanode.verify_archive(foreign_part) and permanode.archive_gc().
 */
extern "C"
{
#include "postgres.h"

#include "access/relation.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

    PG_FUNCTION_INFO_V1(permanode_verify_archive);
    PG_FUNCTION_INFO_V1(permanode_archive_gc);
    PG_FUNCTION_INFO_V1(permanode_archive_manifest);
}

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "archive_reader.hpp"
#include "archive_wal.hpp"

namespace permanode::fdw
{

void CheckArchivedPartition(Oid relid); /* in restore.cpp */

namespace
{

/* Checks RocksDB's block checksums, our row checksum, and that the manifest describes the table
 * and what its options record; returns the rows verified. */
int64 VerifyArchive(Oid ftoid)
{
    ArchiveOptions *opts = nullptr;
    TupleDesc desc = nullptr;
    pg::CallPg(
        [&]
        {
            CheckArchivedPartition(ftoid);
            opts = GetArchiveOptions(ftoid);
            Relation rel = relation_open(ftoid, AccessShareLock);
            desc = CreateTupleDescCopy(RelationGetDescr(rel));
            relation_close(rel, AccessShareLock);
        });
    std::string dir = ArchiveDir(opts->archive);
    ForgetArchive(dir); /* reopen: check the files as they are now */
    HeapDigest digest = DigestArchive(dir, true);
    const Manifest &m = OpenArchive(dir)->manifest;
    CheckManifestDescribes(m, opts->indexes_text, opts->range_from, opts->range_to,
                           opts->partition_attnum);
    CheckColumnPositions(m, desc);
    if (digest.rows != m.row_count || digest.checksum != m.checksum)
        throw StatusError(rocksdb::Status::Corruption(fmt::format(
                              "the manifest records {} rows (checksum {:x}), the archive holds "
                              "{} (checksum {:x})",
                              m.row_count, m.checksum, digest.rows, digest.checksum)),
                          "archive " + dir + " failed verification");
    return static_cast<int64>(digest.rows);
}

} // namespace

} // namespace permanode::fdw

/* permanode.verify_archive(foreign_part regclass) returns bigint (rows verified) */
extern "C" Datum permanode_verify_archive(PG_FUNCTION_ARGS)
{
    Oid ftoid = PG_GETARG_OID(0);
    const char *table = get_rel_name(ftoid);
    return permanode::fdw::GuardedArchive(
        table, [&]() -> Datum { return Int64GetDatum(permanode::fdw::VerifyArchive(ftoid)); });
}

/* permanode.archive_manifest(foreign_part regclass) returns jsonb: what the archive holds */
extern "C" Datum permanode_archive_manifest(PG_FUNCTION_ARGS)
{
    Oid ftoid = PG_GETARG_OID(0);
    const char *table = get_rel_name(ftoid);
    return permanode::fdw::GuardedArchive(
        table,
        [&]() -> Datum
        {
            using namespace permanode;
            std::string archive;
            pg::CallPg(
                [&]
                {
                    fdw::CheckArchivedPartition(ftoid);
                    archive = fdw::GetArchiveOptions(ftoid)->archive;
                });
            std::string json =
                fdw::ManifestToJson(fdw::OpenArchive(fdw::ArchiveDir(archive.c_str()))->manifest);
            return pg::CallPg(
                [&] { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json.c_str())); });
        });
}

/*
 * permanode.archive_gc() returns setof text: removes the archive directories of this database
 * that no foreign table references (left by a crash before the swap committed, or by a
 * restore), and returns their names. Waits for archives being written to commit or abort.
 */
extern "C" Datum permanode_archive_gc(PG_FUNCTION_ARGS)
{
    using namespace permanode;
    ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
    return fdw::GuardedArchive(
        "archive_gc",
        [&]() -> Datum
        {
            // the archives named, copied out of SPI's memory as C strings: no C++ object is
            // made where PostgreSQL may raise an error
            char **names = nullptr;
            uint64 count = 0;
            fdw::CheckNotInRecovery();
            pg::CallPg(
                [&]
                {
                    if (!superuser())
                        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                                        errmsg("only superuser can remove archives")));
                    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
                    DirectFunctionCall1(pg_advisory_xact_lock_int8,
                                        Int64GetDatum(fdw::kArchiveLockKey));
                    MemoryContext caller = CurrentMemoryContext;
                    SPI_connect();
                    SPI_execute("SELECT o.option_value FROM pg_foreign_table t "
                                "JOIN pg_foreign_server s ON s.oid = t.ftserver "
                                "JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw "
                                "CROSS JOIN LATERAL pg_options_to_table(t.ftoptions) o "
                                "WHERE w.fdwname = 'permanode_fdw' AND o.option_name = 'archive'",
                                true, 0);
                    count = SPI_processed;
                    names = static_cast<char **>(
                        MemoryContextAlloc(caller, sizeof(char *) * (count + 1)));
                    for (uint64 i = 0; i < count; i++)
                        names[i] = MemoryContextStrdup(
                            caller, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
                    SPI_finish();
                });
            std::set<std::string> referenced(names, names + count);
            namespace fs = std::filesystem;
            std::string root = fdw::ArchiveRootOfDatabase();
            std::vector<std::string> removed;
            std::error_code ec;
            for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::end(it);
                 it.increment(ec))
            {
                std::string name = it->path().filename().string();
                if (referenced.count(name) != 0)
                    continue;
                fdw::ForgetArchive(it->path().string());
                std::error_code rm;
                fs::remove_all(it->path(), rm);
                if (rm)
                    throw pg::PgError(ERRCODE_IO_ERROR, "could not remove archive directory \"" +
                                                            it->path().string() +
                                                            "\": " + rm.message());
                removed.push_back(name);
            }
            fdw::LogKeptArchives(referenced);
            std::sort(removed.begin(), removed.end());
            for (const auto &name : removed)
                pg::CallPg(
                    [&]
                    {
                        Datum value = CStringGetTextDatum(name.c_str());
                        bool isnull = false;
                        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
                    });
            return (Datum)0;
        });
}
