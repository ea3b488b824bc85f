/*
 * permanode_fdw.cpp
 *	  Module entry point of permanode_fdw: module magic, GUC registration and the crash
 *	  injection points that the TAP tests use.
 */
extern "C"
{
#include "postgres.h"

#include <signal.h>
#include <unistd.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/pmsignal.h"
#include "utils/guc.h"

    PG_MODULE_MAGIC;

    void _PG_init(void);
}

#include "archive_wal.hpp"
#include "permanode_fdw.hpp"

namespace permanode::fdw
{

char *archive_root_setting = nullptr;
char *debug_crash_at_setting = nullptr;
bool skip_unarchivable_indexes_setting = false;
int max_archive_files_setting = 0;

/*
 * A test hook: when permanode_fdw.debug_crash_at is "step", the backend SIGKILLs itself;
 * "step:pause" logs and sleeps until the server shuts it down (or dies). Call only through
 * pg::CallPg: the pause loop checks for interrupts.
 */
void CrashPoint(const char *step)
{
    const char *setting = debug_crash_at_setting;
    if (setting == nullptr || *setting == '\0')
        return;
    size_t len = strlen(step);
    if (strncmp(setting, step, len) != 0)
        return;
    if (setting[len] == '\0')
    {
        elog(LOG, "permanode_fdw: crashing at %s", step);
        kill(getpid(), SIGKILL);
        pg_usleep(10L * 1000000L);
    }
    else if (strcmp(setting + len, ":pause") == 0)
    {
        elog(LOG, "permanode_fdw: paused at %s", step);
        for (;;)
        {
            CHECK_FOR_INTERRUPTS();
            if (!PostmasterIsAlive())
                proc_exit(1);
            pg_usleep(100000L);
        }
    }
}

/* Closes the backend's archives while RocksDB is still whole. */
void CloseArchivesAtExit(int, Datum)
{
    CloseAllArchives();
}

} // namespace permanode::fdw

/* Registers the wrapper's settings and, when preloaded, its WAL resource manager. */
extern "C" void _PG_init(void)
{
    using namespace permanode::fdw;
    DefineCustomStringVariable(
        "permanode_fdw.archive_root",
        "Directory that holds the RocksDB archives (relative paths are under the data directory).",
        nullptr, &archive_root_setting, "permanode_archive", PGC_SUSET, 0, nullptr, nullptr,
        nullptr);
    DefineCustomStringVariable(
        "permanode_fdw.debug_crash_at",
        "Test hook: kill the backend at this step of archiving or restoring.", nullptr,
        &debug_crash_at_setting, "", PGC_SUSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
        nullptr, nullptr);
    DefineCustomBoolVariable(
        "permanode_fdw.skip_unarchivable_indexes",
        "Archive a table even when some of its indexes cannot be archived.",
        "Off: archiving stops with an error naming the index. On: the index is left out (with a "
        "notice), and lookups it would serve read the whole archived range.",
        &skip_unarchivable_indexes_setting, false, PGC_SUSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "permanode_fdw.max_archive_files",
        "Files a backend's archives may hold open at once (0: a quarter of the files PostgreSQL "
        "allows itself).",
        "Archives that nobody reads are closed to stay within it; PostgreSQL keeps its own open "
        "files fewer by as many as the archives hold.",
        &max_archive_files_setting, 0, 0, 1000000, PGC_SUSET, 0, nullptr, nullptr, nullptr);
    MarkGUCPrefixReserved("permanode_fdw");
    if (process_shared_preload_libraries_in_progress)
    {
        RaiseOpenFilesLimit();
        RegisterArchiveRmgr();
    }
    InstallFileAccounting();
    on_proc_exit(CloseArchivesAtExit, 0);
}
