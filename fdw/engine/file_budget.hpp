/*
 * file_budget.hpp
 *	  The open files this backend's archives may hold at once. RocksDB runs inside the backend
 *	  and opens its files beside PostgreSQL's own, under one open-files limit (RLIMIT_NOFILE),
 *	  but PostgreSQL budgets only the files it opens itself (max_files_per_process, measured
 *	  against the limit at start). So every file an archive reader or writer may hold is reserved
 *	  here before it is opened, and the PostgreSQL side reports each reservation to fd.c
 *	  (ReserveExternalFD), which closes files of its own to keep the sum under the limit.
 *	  Free of PostgreSQL headers; used from the backend's thread only.
 */
#ifndef PERMANODE_FDW_ENGINE_FILE_BUDGET_HPP
#define PERMANODE_FDW_ENGINE_FILE_BUDGET_HPP

#include <cstddef>

#include <rocksdb/status.h>

namespace permanode::fdw
{

/* What the PostgreSQL side provides: the budget's size and fd.c's accounting. */
class FileAccounting
{
  public:
    virtual ~FileAccounting() = default;
    /* How many files archives may hold at once. */
    virtual size_t Capacity() = 0;
    /* n more files are about to be held; makes room for them among PostgreSQL's own. */
    virtual void Reserve(size_t n) = 0;
    /* n files are no longer held. Must not fail. */
    virtual void Release(size_t n) = 0;
};

/* Installs the accounting (once, at module load). Without one, nothing is limited. */
void SetFileAccounting(FileAccounting *accounting);

/* Files reserved now, by every reservation alive. */
size_t FilesHeld();

/* The budget's size (unlimited without accounting). */
size_t FileCapacity();

/* A reservation of some files for as long as it lives (movable, not copyable). */
class FileReservation
{
  public:
    FileReservation() = default;
    explicit FileReservation(size_t files);
    ~FileReservation();
    FileReservation(FileReservation &&other) noexcept;
    FileReservation &operator=(FileReservation &&other) noexcept;
    FileReservation(const FileReservation &) = delete;
    FileReservation &operator=(const FileReservation &) = delete;

    size_t files() const { return files_; }

  private:
    size_t files_ = 0;
};

/* True when a RocksDB call failed because the process had no file descriptor left. */
bool IsOutOfFiles(const rocksdb::Status &status);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_FILE_BUDGET_HPP */
