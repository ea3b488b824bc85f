/*
 * transient_files.cpp
 *	  Random-access files that open for each read (see transient_files.hpp).
 */
#include "engine/transient_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include <rocksdb/file_system.h>

namespace permanode::fdw
{

namespace
{

rocksdb::IOStatus ErrnoStatus(const std::string &path, int error)
{
    /* strerror's text, as RocksDB's own errors carry it (IsOutOfFiles reads EMFILE from it) */
    if (error == ENOENT)
        return rocksdb::IOStatus::PathNotFound(path, strerror(error));
    return rocksdb::IOStatus::IOError(path, strerror(error));
}

/* A file that is opened, read and closed by every Read. */
class TransientFile : public rocksdb::FSRandomAccessFile
{
  public:
    explicit TransientFile(std::string path) : path_(std::move(path)) {}

    rocksdb::IOStatus Read(uint64_t offset, size_t n, const rocksdb::IOOptions &,
                           rocksdb::Slice *result, char *scratch,
                           rocksdb::IODebugContext *) const override
    {
        int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return ErrnoStatus(path_, errno);
        size_t done = 0;
        int error = 0;
        while (done < n)
        {
            ssize_t got = pread(fd, scratch + done, n - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                error = errno;
            if (got <= 0)
                break;
            done += static_cast<size_t>(got);
        }
        close(fd);
        *result = rocksdb::Slice(scratch, done);
        return error != 0 ? ErrnoStatus(path_, error) : rocksdb::IOStatus::OK();
    }

  private:
    std::string path_;
};

class TransientFileSystem : public rocksdb::FileSystemWrapper
{
  public:
    TransientFileSystem() : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()) {}
    const char *Name() const override { return "PermanodeTransientFiles"; }

    rocksdb::IOStatus NewRandomAccessFile(const std::string &path, const rocksdb::FileOptions &,
                                          std::unique_ptr<rocksdb::FSRandomAccessFile> *result,
                                          rocksdb::IODebugContext *) override
    {
        /* fail here, as the default file system would, for a file that cannot be opened */
        int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return ErrnoStatus(path, errno);
        close(fd);
        *result = std::make_unique<TransientFile>(path);
        return rocksdb::IOStatus::OK();
    }
};

} // namespace

rocksdb::Env *TransientFilesEnv()
{
    /* deliberately never destroyed: readers may outlive static destructors' order */
    static rocksdb::Env *env =
        rocksdb::NewCompositeEnv(std::make_shared<TransientFileSystem>()).release();
    return env;
}

} // namespace permanode::fdw
