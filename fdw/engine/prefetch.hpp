/*
 * prefetch.hpp
 *	  Reads a column family ahead in helper threads, so that block reads and decompression run
 *	  on other cores while the backend decodes rows. The key range is cut at split keys into
 *	  chunks; the threads read the next chunks in parallel, each into its own queue of batches,
 *	  and the backend takes the chunks in order, so entries come out in key order (or reverse).
 *	  Each thread reads the family's one SST file with a SstFileReader of its own.
 *	  The threads run RocksDB code only (never PostgreSQL), with every signal blocked. Free of
 *	  PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_PREFETCH_HPP
#define PERMANODE_FDW_ENGINE_PREFETCH_HPP

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/status.h>

#include "engine/file_budget.hpp"

namespace permanode::fdw
{

class Prefetcher
{
  public:
    /*
     * Reads a family's file (a path; empty for an empty family) between lower (inclusive) and
     * upper (exclusive), empty strings unbounded, with options (bounds are set here), cut at
     * splits (ascending, inside the range), with up to `threads` threads, each with its own
     * reader of the file.
     */
    Prefetcher(const std::string &file, const rocksdb::ReadOptions &options,
               const std::string &lower, const std::string &upper,
               const std::vector<std::string> &splits, bool backward, int threads);
    /* Stops and joins the threads. */
    ~Prefetcher();
    Prefetcher(const Prefetcher &) = delete;
    Prefetcher &operator=(const Prefetcher &) = delete;

    /*
     * The next entry; false at the end (then status() tells whether the iteration failed) or
     * when nothing arrived within wait_ms (then *timed_out is set, call again). The views stay
     * valid until the next call; the value is 8-byte aligned.
     */
    bool Next(std::string_view *key, std::string_view *value, int wait_ms, bool *timed_out);
    const rocksdb::Status &status() const { return status_; }

  private:
    /* A run of entries copied out of an iterator. */
    struct Batch
    {
        std::string data;              /* keys and values, each value 8-byte aligned */
        std::vector<uint32_t> lengths; /* key length, value length, per entry */
    };
    /* A key range read by one thread, in reading order. */
    struct Chunk
    {
        std::string lower, upper;                 /* bounds, empty unbounded */
        std::deque<std::unique_ptr<Batch>> ready; /* filled, waiting for the consumer */
        bool done = false;                        /* the thread finished the chunk */
        rocksdb::Status status;                   /* the iterator's status at the end */
    };
    void Run();
    /* Reads a chunk with reader's iterators (null: the file did not open, with open_status;
     * or the family is empty). */
    void ReadChunk(Chunk &chunk, rocksdb::SstFileReader *reader,
                   const rocksdb::Status &open_status);
    /* An empty batch: a used one when there is one (no new pages to fault in). */
    std::unique_ptr<Batch> NewBatch();

    rocksdb::ReadOptions options_;
    bool backward_;
    std::string file_;      /* the family's SST file, or empty */
    size_t nthreads_;       /* threads started */
    FileReservation files_; /* the file each thread opens, when file_ is set */
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Chunk> chunks_; /* in reading order (descending keys when backward) */
    size_t next_chunk_ = 0;     /* the next chunk a thread takes */
    size_t consumer_chunk_ = 0; /* the chunk the consumer reads */
    bool stop_ = false;         /* the consumer is gone */
    std::vector<std::unique_ptr<Batch>> spare_; /* batches the consumer is done with */
    std::unique_ptr<Batch> current_;            /* consumer: batch being read */
    size_t entry_ = 0;                          /* consumer: next entry in current_ */
    size_t offset_ = 0;                         /* consumer: its offset in current_->data */
    bool done_ = false;                         /* consumer: saw the end */
    rocksdb::Status status_;
    std::vector<std::thread> threads_;
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_PREFETCH_HPP */
