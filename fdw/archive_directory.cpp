/*
 * archive_directory.cpp
 *	  A fresh, uniquely named archive directory (NewArchiveDirectory, permanode_fdw.hpp).
 */
extern "C"
{
#include "postgres.h"

#include <sys/stat.h>

#include "miscadmin.h"
#include "utils/timestamp.h"
}

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

namespace fs = std::filesystem;

NewArchiveDirectory::NewArchiveDirectory(const std::string &prefix, int64 from, int64 to)
{
    std::string root = ArchiveRootOfDatabase();
    std::error_code ec;
    fs::create_directories(root, ec);
    for (int attempt = 0;; attempt++)
    {
        TimestampTz now = pg::CallPg([] { return GetCurrentTimestamp(); });
        name_ = fmt::format("{}_{}_{}_{:x}_{}_{}", prefix, from, to, static_cast<uint64>(now),
                            MyProcPid, attempt);
        path_ = root + "/" + name_;
        if (mkdir(path_.c_str(), 0700) == 0)
            break;
        if (errno != EEXIST || attempt > 100)
            throw pg::PgError(ERRCODE_IO_ERROR, "could not create archive directory \"" + path_ +
                                                    "\": " + strerror(errno));
    }
}

NewArchiveDirectory::~NewArchiveDirectory()
{
    if (kept_)
        return;
    ForgetArchive(path_);
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

} // namespace permanode::fdw
