/*
 * prefetch.hpp
 *	  Reads a RocksDB iterator ahead in a helper thread, so that block reads and decompression
 *	  run on one core while the backend decodes rows on another. The thread runs RocksDB code
 *	  only (never PostgreSQL), with every signal blocked. Free of PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_PREFETCH_HPP
#define PERMANODE_FDW_PREFETCH_HPP

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/iterator.h>
#include <rocksdb/status.h>

namespace permanode::fdw
{

class Prefetcher
{
  public:
    /* Takes over a positioned iterator; the thread moves it forward (or backward). */
    Prefetcher(std::unique_ptr<rocksdb::Iterator> iter, bool backward);
    /* Stops and joins the thread. */
    ~Prefetcher();
    Prefetcher(const Prefetcher &) = delete;
    Prefetcher &operator=(const Prefetcher &) = delete;

    /*
     * The next entry; false at the end (then status() tells whether the iteration failed) or
     * when no batch arrived within wait_ms (then *timed_out is set, call again).
     */
    bool Next(std::string_view *key, std::string_view *value, int wait_ms, bool *timed_out);
    const rocksdb::Status &status() const { return status_; }

  private:
    /* A run of entries copied out of the iterator. */
    struct Batch
    {
        std::string data;              /* keys and values, back to back */
        std::vector<uint32_t> lengths; /* key length, value length, per entry */
        bool last = false;             /* the iteration ended after this batch */
        rocksdb::Status status;        /* the iterator's status at the end */
    };
    void Run();

    std::unique_ptr<rocksdb::Iterator> iter_; /* used by the thread only, once started */
    bool backward_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::unique_ptr<Batch>> ready_; /* filled, waiting for the consumer */
    bool stop_ = false;                        /* the consumer is gone */
    std::unique_ptr<Batch> current_;           /* consumer: batch being read */
    size_t entry_ = 0;                         /* consumer: next entry in current_ */
    size_t offset_ = 0;                        /* consumer: its offset in current_->data */
    bool done_ = false;                        /* consumer: saw the last batch */
    rocksdb::Status status_;
    std::thread thread_;
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_PREFETCH_HPP */
