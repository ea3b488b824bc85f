/*
 * file_accounting.cpp
 *	  The PostgreSQL side of the archives' file budget (engine/file_budget.hpp): its size, and
 *	  every reservation reported to fd.c, which then keeps its own open files fewer by as many.
 */
extern "C"
{
#include "postgres.h"

#include <sys/resource.h>

#include "storage/fd.h"
}

#include "engine/file_budget.hpp"
#include "permanode_fdw.hpp"

namespace permanode::fdw
{

namespace
{

/*
 * The default share: a quarter of the files PostgreSQL allows itself. fd.c lets "external"
 * descriptors (ours, postgres_fdw's and dblink's connections) take a third at most, so a
 * quarter leaves the connections of remote ranges a twelfth.
 */
constexpr int kDefaultShareDivisor = 4;

class PgFileAccounting final : public FileAccounting
{
  public:
    size_t Capacity() override
    {
        if (max_archive_files_setting > 0)
            return static_cast<size_t>(max_archive_files_setting);
        return static_cast<size_t>(std::max(max_safe_fds / kDefaultShareDivisor, 1));
    }
    void Reserve(size_t n) override
    {
        /* closes PostgreSQL's least recently used files as needed: cannot fail */
        pg::CallPg(
            [&]
            {
                for (size_t i = 0; i < n; i++)
                    ReserveExternalFD();
            });
    }
    void Release(size_t n) override
    {
        for (size_t i = 0; i < n; i++)
            ReleaseExternalFD();
    }
};

} // namespace

void InstallFileAccounting()
{
    static PgFileAccounting accounting;
    SetFileAccounting(&accounting);
}

void RaiseOpenFilesLimit()
{
    /*
     * Services get a soft limit of 1,024 with a much higher hard one; the postmaster raises its
     * soft limit before PostgreSQL measures it, for every backend. PostgreSQL still holds
     * max_files_per_process at most, so the rest is headroom: the budget does not count on it.
     */
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max)
    {
        rlim_t was = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
            elog(DEBUG1, "permanode_fdw: open-files limit raised from %lu to %lu",
                 static_cast<unsigned long>(was), static_cast<unsigned long>(limit.rlim_cur));
    }
}

} // namespace permanode::fdw
