/*
 * entry_sorter.hpp
 *	  Sorts the entries (key, value) of one column family by key and writes them into one SST
 *	  file. The backend adds entries; sorting, merging and SST writing then run in a helper
 *	  thread (C++ and RocksDB only, every signal blocked), one per family, so that the families
 *	  of an archive are built in parallel. Memory stays within a budget: beyond it, sorted runs
 *	  spill to files and are merged at the end. Free of PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_ENTRY_SORTER_HPP
#define PERMANODE_FDW_ENGINE_ENTRY_SORTER_HPP

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/status.h>
#include <rocksdb/table_properties.h>

namespace permanode::fdw
{

class EntrySorter
{
  public:
    /*
     * Entries go to sst_path; spilled runs to spill_prefix + a number. With unique_keys, two
     * entries with the same key are an error (duplicate_key()). block_size: of the SST's data
     * blocks. recorder: records more properties in the SST (none: only the split keys).
     */
    EntrySorter(std::string sst_path, std::string spill_prefix, size_t memory_budget,
                bool unique_keys, size_t block_size,
                std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> recorder = nullptr);
    /* Stops and joins the thread; removes spilled runs. */
    ~EntrySorter();
    EntrySorter(const EntrySorter &) = delete;
    EntrySorter &operator=(const EntrySorter &) = delete;

    /* Adds an entry (backend thread, before Start); may spill a sorted run. */
    void Add(std::string_view key, std::string_view value);
    /*
     * Files the thread holds open at once when it may hold max_files at most: its SST and the
     * spilled runs it merges (more runs than that are merged in passes).
     */
    size_t FilesNeeded(size_t max_files) const;
    /* Starts the thread that sorts, merges and writes the SST, holding max_files at most. */
    void Start(size_t max_files);
    /* Waits up to wait_ms for the thread; true once it is done. */
    bool Wait(int wait_ms);
    /* After Wait: throws StatusError on failure; false when there was no entry (no file). */
    bool Finish();
    /* After Wait: two entries had the same key (unique_keys only). */
    bool duplicate_key() const { return duplicate_key_; }
    const std::string &path() const { return sst_path_; }
    uint64_t entries() const { return entries_; }

  private:
    /* An entry in memory: the first 8 key bytes (big endian, for fast comparison), then where
     * the key and value lie in an arena chunk. */
    struct Record
    {
        uint64_t prefix;
        const char *data; /* key then value */
        uint32_t key_len;
        uint32_t value_len;
    };
    /* A merge reads two runs at least, and writes one file. */
    static constexpr size_t kMinFiles = 3;

    void SortRecords();
    std::string NextRunPath();
    void Spill();
    void Run();
    void Write();
    rocksdb::Status WriteMerged(class SstOutput &out);
    /* Merges the first max_fan_in_ runs into one (a pass of a merge that has too many). */
    void MergeFirstRuns();
    /* Merges runs in key order into put(), until it returns false. */
    rocksdb::Status MergeRuns(const std::vector<std::string> &runs,
                              const std::function<bool(std::string_view, std::string_view)> &put);

    std::string sst_path_;
    std::string spill_prefix_;
    size_t memory_budget_;
    bool unique_keys_;
    size_t block_size_;
    std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> recorder_;
    /* Frees an arena chunk. */
    struct ChunkFree
    {
        void operator()(char *chunk) const;
    };
    using Chunk = std::unique_ptr<char[], ChunkFree>;
    Chunk NewChunk(size_t bytes);
    /* A chunk for the next entries: the prefaulted one when it fits, else a new one. */
    Chunk TakeChunk(size_t bytes);
    /* Allocates the next chunk and faults its pages in, in a helper thread. */
    void StartPrefault();
    void JoinPrefault();

    std::vector<Chunk> chunks_; /* arena of the entries in memory */
    /* The kernel zeroes every fresh page on first touch, about a third of the heap scan's
     * time when the backend did it: a helper thread (C++ only, every signal blocked) faults
     * the next chunk in while the backend fills the current one. */
    std::thread prefault_thread_;
    Chunk prefaulted_;       /* the next chunk, written by prefault_thread_ (read after joining) */
    size_t chunk_used_ = 0;  /* bytes used in chunks_.back() */
    size_t chunk_bytes_ = 0; /* bytes of every chunk */
    std::vector<Record> records_;   /* entries in memory */
    std::vector<std::string> runs_; /* spilled run files, each sorted */
    size_t runs_made_ = 0;          /* numbers the run files */
    size_t max_fan_in_ = 0;         /* runs merged at once at most */
    uint64_t entries_ = 0;          /* entries added */
    std::atomic<bool> stop_{false}; /* the backend gave up: the thread stops */
    std::mutex mutex_;
    std::condition_variable changed_;
    bool done_ = false;          /* the thread finished (under mutex_) */
    bool duplicate_key_ = false; /* set by the thread */
    rocksdb::Status status_;     /* the thread's failure */
    std::thread thread_;
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_ENTRY_SORTER_HPP */
