/*
 * file_budget.cpp
 *	  Counting the files archives hold against the budget (see file_budget.hpp).
 */
#include "engine/file_budget.hpp"

#include <cstring>
#include <limits>
#include <utility>

namespace permanode::fdw
{

namespace
{

FileAccounting *accounting = nullptr;
size_t held = 0;

} // namespace

void SetFileAccounting(FileAccounting *a)
{
    accounting = a;
}

size_t FilesHeld()
{
    return held;
}

size_t FileCapacity()
{
    return accounting != nullptr ? accounting->Capacity() : std::numeric_limits<size_t>::max();
}

FileReservation::FileReservation(size_t files)
{
    if (accounting != nullptr && files > 0)
        accounting->Reserve(files);
    files_ = files;
    held += files;
}

FileReservation::~FileReservation()
{
    if (files_ == 0)
        return;
    held -= files_;
    if (accounting != nullptr)
        accounting->Release(files_);
}

FileReservation::FileReservation(FileReservation &&other) noexcept
    : files_(std::exchange(other.files_, 0))
{
}

FileReservation &FileReservation::operator=(FileReservation &&other) noexcept
{
    if (this != &other)
    {
        FileReservation old(std::move(*this));
        files_ = std::exchange(other.files_, 0);
    }
    return *this;
}

bool IsOutOfFiles(const rocksdb::Status &status)
{
    /* RocksDB's IOError carries strerror(errno): EMFILE, or ENFILE for the whole system */
    return status.IsIOError() && (status.ToString().find(strerror(EMFILE)) != std::string::npos ||
                                  status.ToString().find(strerror(ENFILE)) != std::string::npos);
}

} // namespace permanode::fdw
