/*
 * archive_transfer.cpp
 *	  Archives in logical dumps: permanode.export_archives(dir) copies the archives this database's
 *	  foreign tables name into a directory beside a pg_dump; permanode.import_archives(dir), in the
 *	  database pg_restore made, copies them into this database's archive root, checks each one
 *	  against its manifest (row count and checksum, every block) and the foreign table's row count,
 *	  and logs it to the WAL for standbys. Archives are found by name, not by the old database.
 */
extern "C"
{
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/tuplestore.h"

    PG_FUNCTION_INFO_V1(permanode_export_archives);
    PG_FUNCTION_INFO_V1(permanode_import_archives);
}

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "archive_reader.hpp"
#include "archive_wal.hpp"
#include "permanode_fdw.hpp"

namespace fs = std::filesystem;

namespace permanode::fdw
{

namespace
{

struct NamedArchive
{
    Oid foreign_table;
    std::string name;
    uint64 row_count;
    std::string table; /* its name, as regclass prints it */
};

/* Every archive this database's foreign tables name; superuser only (server-side paths). The
 * rows are read into palloc'd C memory inside CallPg and become NamedArchives outside it: no C++
 * object lives where PostgreSQL may raise an error. */
std::vector<NamedArchive> ArchivesOfDatabase(FunctionCallInfo fcinfo)
{
    struct Row
    {
        Oid foreign_table;
        char *name;
        int64 row_count;
        char *table;
    };
    Row *rows = nullptr;
    uint64 count = 0;
    pg::CallPg(
        [&]
        {
            if (!superuser())
                ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                                errmsg("only superuser can copy archives to or from a directory")));
            InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
            MemoryContext caller = CurrentMemoryContext;
            SPI_connect();
            SPI_execute("SELECT t.ftrelid, o.option_value, "
                        "(SELECT r.option_value FROM pg_options_to_table(t.ftoptions) r "
                        " WHERE r.option_name = 'row_count')::bigint, t.ftrelid::regclass::text "
                        "FROM pg_foreign_table t "
                        "JOIN pg_foreign_server s ON s.oid = t.ftserver "
                        "JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw "
                        "CROSS JOIN LATERAL pg_options_to_table(t.ftoptions) o "
                        "WHERE w.fdwname = 'permanode_fdw' AND o.option_name = 'archive' "
                        "ORDER BY 2",
                        true, 0);
            count = SPI_processed;
            rows = static_cast<Row *>(MemoryContextAlloc(caller, sizeof(Row) * (count + 1)));
            for (uint64 i = 0; i < count; i++)
            {
                HeapTuple tuple = SPI_tuptable->vals[i];
                TupleDesc desc = SPI_tuptable->tupdesc;
                bool isnull;
                rows[i].foreign_table = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
                rows[i].name = MemoryContextStrdup(caller, SPI_getvalue(tuple, desc, 2));
                rows[i].row_count = DatumGetInt64(SPI_getbinval(tuple, desc, 3, &isnull));
                rows[i].table = MemoryContextStrdup(caller, SPI_getvalue(tuple, desc, 4));
            }
            SPI_finish();
        });
    std::vector<NamedArchive> out;
    for (uint64 i = 0; i < count; i++)
        out.push_back({rows[i].foreign_table, rows[i].name, static_cast<uint64>(rows[i].row_count),
                       rows[i].table});
    return out;
}

void PutRow(FunctionCallInfo fcinfo, Oid foreign_table, const std::string &name, int64 count)
{
    ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
    pg::CallPg(
        [&]
        {
            Datum values[3] = {ObjectIdGetDatum(foreign_table), CStringGetTextDatum(name.c_str()),
                               Int64GetDatum(count)};
            bool nulls[3] = {false, false, false};
            tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
        });
}

[[noreturn]] void ThrowIo(const std::string &what, const fs::path &path, const std::error_code &ec)
{
    throw StatusError(rocksdb::Status::IOError(path.string(), ec.message()), what);
}

/* Copies the sealed archive src into dir, the manifest last (sealing it). */
void CopyArchive(const fs::path &src, const std::string &dir)
{
    std::error_code ec;
    fs::remove_all(dir, ec); /* an unsealed leftover of an interrupted import */
    fs::create_directories(dir, ec);
    if (ec)
        ThrowIo("could not create archive directory", dir, ec);
    for (auto it = fs::recursive_directory_iterator(src, ec); !ec && it != fs::end(it);
         it.increment(ec))
    {
        fs::path target = fs::path(dir) / fs::relative(it->path(), src);
        std::error_code op;
        if (it->is_directory(op))
            fs::create_directories(target, op);
        else if (it->path().filename() != kManifestFile)
            fs::copy_file(it->path(), target, op);
        if (op)
            ThrowIo("could not copy archive file", it->path(), op);
    }
    if (ec)
        ThrowIo("could not read archive directory", src, ec);
    SealArchive(dir, ReadWholeFile((src / kManifestFile).string()));
}

/* Checks every block and the row checksum against the manifest and the foreign table. */
void CheckImported(const std::string &dir, const NamedArchive &a)
{
    ForgetArchive(dir);
    HeapDigest digest = DigestArchive(dir, true);
    const Manifest &m = OpenArchive(dir)->manifest;
    if (digest.rows != m.row_count || digest.checksum != m.checksum || digest.rows != a.row_count)
        throw StatusError(
            rocksdb::Status::Corruption(fmt::format(
                "the foreign table records {} rows, the manifest {} (checksum {:x}), the files "
                "hold {} (checksum {:x})",
                a.row_count, m.row_count, m.checksum, digest.rows, digest.checksum)),
            "archive " + a.name + " does not match what the dump recorded");
}

} // namespace

} // namespace permanode::fdw

/*
 * permanode.export_archives(target_dir text) returns table (foreign_table regclass, archive text,
 * bytes bigint): copies this database's archives into target_dir/<archive name>.
 */
extern "C" Datum permanode_export_archives(PG_FUNCTION_ARGS)
{
    std::string target = text_to_cstring(PG_GETARG_TEXT_PP(0));
    return permanode::fdw::GuardedArchive(
        "export_archives",
        [&]() -> Datum
        {
            using namespace permanode::fdw;
            for (const auto &a : ArchivesOfDatabase(fcinfo))
            {
                fs::path to = fs::path(target) / a.name;
                std::error_code ec;
                if (fs::exists(to, ec))
                    throw permanode::pg::PgError(
                        ERRCODE_DUPLICATE_OBJECT, fmt::format("\"{}\" already exists", to.string()),
                        "Export into a directory that holds no archive of that name.");
                fs::create_directories(to.parent_path(), ec);
                fs::copy(ArchiveDir(a.name.c_str()), to, fs::copy_options::recursive, ec);
                if (ec)
                    ThrowIo("could not copy archive", to, ec);
                PutRow(fcinfo, a.foreign_table, a.name,
                       static_cast<int64>(DirectoryBytes(to.string())));
            }
            return (Datum)0;
        });
}

/*
 * permanode.import_archives(source_dir text) returns table (foreign_table regclass, archive text,
 * rows bigint): makes every archive this database's foreign tables name present and checked,
 * copying the missing ones from source_dir/<archive name>. Runs again after an interruption.
 */
extern "C" Datum permanode_import_archives(PG_FUNCTION_ARGS)
{
    std::string source = text_to_cstring(PG_GETARG_TEXT_PP(0));
    return permanode::fdw::GuardedArchive(
        "import_archives",
        [&]() -> Datum
        {
            using namespace permanode::fdw;
            std::vector<NamedArchive> archives = ArchivesOfDatabase(fcinfo);
            CheckArchiveWal();
            permanode::pg::CallPg(
                [] {
                    DirectFunctionCall1(pg_advisory_xact_lock_shared_int8,
                                        Int64GetDatum(kArchiveLockKey));
                });
            for (const auto &a : archives)
            {
                std::string dir = ArchiveDir(a.name.c_str());
                bool copied = false;
                if (!IsSealed(dir))
                {
                    fs::path src = fs::path(source) / a.name;
                    if (!IsSealed(src.string()))
                        throw permanode::pg::PgError(
                            ERRCODE_UNDEFINED_FILE,
                            fmt::format("no sealed archive \"{}\" in \"{}\"", a.name, source),
                            fmt::format("Foreign table {} names it.", a.table),
                            "Export the archives of the dumped database with "
                            "permanode.export_archives() into the directory given here.");
                    CopyArchive(src, dir);
                    copied = true;
                }
                try
                {
                    CheckImported(dir, a);
                }
                catch (...)
                {
                    if (copied)
                    {
                        ForgetArchive(dir);
                        std::error_code ignored;
                        fs::remove_all(dir, ignored);
                    }
                    throw;
                }
                if (copied)
                    LogArchive(a.name, dir);
                PutRow(fcinfo, a.foreign_table, a.name, static_cast<int64>(a.row_count));
            }
            return (Datum)0;
        });
}
