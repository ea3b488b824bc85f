/*
 * entry_sorter.cpp
 *	  In-memory sort of a family's entries, spilling sorted runs beyond the memory budget, and
 *	  the merge into one SST file (see entry_sorter.hpp).
 */
#include "engine/entry_sorter.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>
#include <queue>

#include <sys/mman.h>

#include <rocksdb/sst_file_writer.h>

#include "engine/archive_store.hpp"

namespace permanode::fdw
{

namespace
{

constexpr size_t kMaxChunkBytes = 64 << 20; /* arena chunks: large, but a fraction of the budget */
constexpr size_t kRunBufferBytes = 1 << 20; /* stdio buffer of a spilled run */
constexpr size_t kHugePage = 2 << 20;

/* The first 8 bytes of key as a big-endian number (zero-padded): orders like memcmp. */
uint64_t KeyPrefix(std::string_view key)
{
    unsigned char bytes[8] = {};
    memcpy(bytes, key.data(), std::min<size_t>(8, key.size()));
    uint64_t prefix = 0;
    for (unsigned char b : bytes)
        prefix = (prefix << 8) | b;
    return prefix;
}

/* A spilled run read back entry by entry. */
class RunReader
{
  public:
    explicit RunReader(const std::string &path) : path_(path)
    {
        file_ = std::fopen(path.c_str(), "rb");
        if (file_ != nullptr)
            std::setvbuf(file_, nullptr, _IOFBF, kRunBufferBytes);
    }
    ~RunReader()
    {
        if (file_ != nullptr)
            std::fclose(file_);
    }
    /* Reads the next entry; false at the end or on failure (then status() is not ok). */
    bool Next()
    {
        if (file_ == nullptr)
        {
            status_ = rocksdb::Status::IOError(path_, "cannot open spilled run");
            return false;
        }
        uint32_t lengths[2];
        if (std::fread(lengths, sizeof(lengths), 1, file_) != 1)
        {
            if (!std::feof(file_))
                status_ = rocksdb::Status::IOError(path_, "cannot read spilled run");
            return false;
        }
        key_.resize(lengths[0]);
        value_.resize(lengths[1]);
        if ((lengths[0] > 0 && std::fread(key_.data(), lengths[0], 1, file_) != 1) ||
            (lengths[1] > 0 && std::fread(value_.data(), lengths[1], 1, file_) != 1))
        {
            status_ = rocksdb::Status::Corruption(path_, "spilled run is truncated");
            return false;
        }
        return true;
    }
    std::string_view key() const { return key_; }
    std::string_view value() const { return value_; }
    const rocksdb::Status &status() const { return status_; }

  private:
    std::string path_;
    std::FILE *file_ = nullptr;
    std::string key_, value_;
    rocksdb::Status status_;
};

/* A sorted run written entry by entry. */
class RunWriter
{
  public:
    explicit RunWriter(const std::string &path) : path_(path)
    {
        file_ = std::fopen(path.c_str(), "wb");
        if (file_ == nullptr)
            throw StatusError(rocksdb::Status::IOError(path, strerror(errno)),
                              "could not create a sort run");
        std::setvbuf(file_, nullptr, _IOFBF, kRunBufferBytes);
    }
    ~RunWriter()
    {
        if (file_ != nullptr)
            std::fclose(file_);
    }
    void Put(std::string_view key, std::string_view value)
    {
        uint32_t lengths[2] = {static_cast<uint32_t>(key.size()),
                               static_cast<uint32_t>(value.size())};
        ok_ = ok_ && std::fwrite(lengths, sizeof(lengths), 1, file_) == 1 &&
              (key.empty() || std::fwrite(key.data(), key.size(), 1, file_) == 1) &&
              (value.empty() || std::fwrite(value.data(), value.size(), 1, file_) == 1);
    }
    void Close()
    {
        ok_ = std::fclose(std::exchange(file_, nullptr)) == 0 && ok_;
        if (!ok_)
            throw StatusError(rocksdb::Status::IOError(path_, "write failed"),
                              "could not write a sort run");
    }

  private:
    std::string path_;
    std::FILE *file_ = nullptr;
    bool ok_ = true;
};

} // namespace

/* The SST being written, with the duplicate-key check. */
class SstOutput
{
  public:
    /*
     * Page cache invalidation is off: it syncs every megabyte as it goes (SealArchive fsyncs
     * every file once) and makes verification and the first scans read the files back from disk.
     */
    SstOutput(const std::string &path, bool unique_keys, size_t block_size,
              const std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> &recorder)
        : writer_(rocksdb::EnvOptions(), Options(block_size, recorder), nullptr, false),
          unique_keys_(unique_keys)
    {
        status_ = writer_.Open(path);
    }
    static rocksdb::Options
    Options(size_t block_size,
            const std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> &recorder)
    {
        rocksdb::Options options = ArchiveDbOptions(block_size);
        if (recorder)
            options.table_properties_collector_factories.push_back(recorder);
        return options;
    }
    /* Adds the next entry in key order; false on failure or on a duplicate key. */
    bool Put(std::string_view key, std::string_view value)
    {
        if (unique_keys_)
        {
            if (has_previous_ && key == previous_)
            {
                duplicate_ = true;
                return false;
            }
            previous_.assign(key);
            has_previous_ = true;
        }
        status_ = writer_.Put(rocksdb::Slice(key.data(), key.size()),
                              rocksdb::Slice(value.data(), value.size()));
        return status_.ok();
    }
    rocksdb::SstFileWriter writer_;
    rocksdb::Status status_;
    bool unique_keys_;
    bool duplicate_ = false;
    bool has_previous_ = false;
    std::string previous_;
};

EntrySorter::EntrySorter(std::string sst_path, std::string spill_prefix, size_t memory_budget,
                         bool unique_keys, size_t block_size,
                         std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> recorder)
    : sst_path_(std::move(sst_path)), spill_prefix_(std::move(spill_prefix)),
      memory_budget_(std::max<size_t>(memory_budget, 1 << 20)), unique_keys_(unique_keys),
      block_size_(block_size), recorder_(std::move(recorder))
{
    chunk_bytes_ = std::min(kMaxChunkBytes, memory_budget_ / 4);
}

EntrySorter::~EntrySorter()
{
    JoinPrefault();
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
    for (const auto &run : runs_)
        std::remove(run.c_str());
}

void EntrySorter::ChunkFree::operator()(char *chunk) const
{
    std::free(chunk);
}

/*
 * Sorting follows pointers into the arena at random: on huge pages (where the kernel has them)
 * that costs far fewer TLB misses.
 */
EntrySorter::Chunk EntrySorter::NewChunk(size_t bytes)
{
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    char *chunk = static_cast<char *>(std::aligned_alloc(kHugePage, bytes));
    if (chunk == nullptr)
        throw std::bad_alloc();
    madvise(chunk, bytes, MADV_HUGEPAGE); /* a hint: failure is harmless */
    return Chunk(chunk);
}

EntrySorter::Chunk EntrySorter::TakeChunk(size_t bytes)
{
    JoinPrefault();
    Chunk chunk = bytes == chunk_bytes_ && prefaulted_ ? std::move(prefaulted_) : NewChunk(bytes);
    /* the next chunk, if it will fit in the budget */
    size_t in_memory = (chunks_.size() + 2) * chunk_bytes_ + records_.size() * sizeof(Record);
    if (in_memory <= memory_budget_)
        StartPrefault();
    return chunk;
}

void EntrySorter::StartPrefault()
{
    if (prefaulted_)
        return;
    SignalBlocker blocker; /* the thread inherits a mask that blocks every signal */
    prefault_thread_ = std::thread(
        [this]
        {
            try
            {
                Chunk chunk = NewChunk(chunk_bytes_);
                for (size_t i = 0; i < chunk_bytes_; i += 4096)
                    chunk[i] = 0;
                prefaulted_ = std::move(chunk);
            }
            catch (const std::bad_alloc &)
            {
                /* the backend allocates it when it needs it, and reports the failure */
            }
        });
}

void EntrySorter::JoinPrefault()
{
    if (prefault_thread_.joinable())
        prefault_thread_.join();
}

void EntrySorter::Add(std::string_view key, std::string_view value)
{
    size_t bytes = key.size() + value.size();
    if (chunks_.empty() || chunk_used_ + bytes > chunk_bytes_)
    {
        size_t in_memory = chunks_.size() * chunk_bytes_ + records_.size() * sizeof(Record);
        if (!records_.empty() && in_memory + chunk_bytes_ > memory_budget_)
            Spill();
        chunks_.push_back(TakeChunk(std::max(chunk_bytes_, bytes)));
        chunk_used_ = 0;
    }
    char *data = chunks_.back().get() + chunk_used_;
    memcpy(data, key.data(), key.size());
    memcpy(data + key.size(), value.data(), value.size());
    chunk_used_ += bytes;
    records_.push_back(Record{KeyPrefix(key), data, static_cast<uint32_t>(key.size()),
                              static_cast<uint32_t>(value.size())});
    entries_++;
}

void EntrySorter::SortRecords()
{
    std::sort(records_.begin(), records_.end(),
              [](const Record &a, const Record &b)
              {
                  if (a.prefix != b.prefix)
                      return a.prefix < b.prefix;
                  int c = memcmp(a.data, b.data, std::min(a.key_len, b.key_len));
                  return c != 0 ? c < 0 : a.key_len < b.key_len;
              });
}

std::string EntrySorter::NextRunPath()
{
    return spill_prefix_ + std::to_string(runs_made_++);
}

void EntrySorter::Spill()
{
    SortRecords();
    runs_.push_back(NextRunPath());
    RunWriter run(runs_.back());
    for (const Record &r : records_)
        run.Put(std::string_view(r.data, r.key_len),
                std::string_view(r.data + r.key_len, r.value_len));
    run.Close();
    records_.clear();
    chunks_.clear();
}

size_t EntrySorter::FilesNeeded(size_t max_files) const
{
    size_t runs = runs_.size() + (!runs_.empty() && !records_.empty() ? 1 : 0);
    return std::min(std::max<size_t>(max_files, kMinFiles), 1 + runs);
}

void EntrySorter::Start(size_t max_files)
{
    max_fan_in_ = std::max<size_t>(max_files, kMinFiles) - 1;
    JoinPrefault();
    prefaulted_.reset(); /* never used: give the memory back before sorting */
    /* a spilled sort merges files only: the entries still in memory become the last run */
    if (!runs_.empty() && !records_.empty())
        Spill();
    SignalBlocker blocker; /* the thread inherits a mask that blocks every signal */
    thread_ = std::thread([this] { Run(); });
}

void EntrySorter::Run()
{
    try
    {
        Write();
    }
    catch (const std::exception &e)
    {
        status_ = rocksdb::Status::Aborted(e.what());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    changed_.notify_all();
}

void EntrySorter::Write()
{
    if (entries_ == 0)
        return;
    SstOutput out(sst_path_, unique_keys_, block_size_, recorder_);
    if (!out.status_.ok())
    {
        status_ = out.status_;
        return;
    }
    if (runs_.empty())
    {
        SortRecords();
        size_t n = 0;
        for (const Record &r : records_)
        {
            if ((++n & 4095) == 0 && stop_)
                return;
            if (!out.Put(std::string_view(r.data, r.key_len),
                         std::string_view(r.data + r.key_len, r.value_len)))
                break;
        }
        records_ = std::vector<Record>();
        chunks_.clear();
    }
    else
    {
        /* the last merge reads max_fan_in_ runs at most: merge the first ones until then */
        while (status_.ok() && runs_.size() > max_fan_in_)
            MergeFirstRuns();
        if (status_.ok())
            status_ = WriteMerged(out);
    }
    duplicate_key_ = out.duplicate_;
    if (status_.ok())
        status_ = out.status_;
    if (status_.ok() && !duplicate_key_)
        status_ = out.writer_.Finish();
}

rocksdb::Status EntrySorter::WriteMerged(SstOutput &out)
{
    rocksdb::Status status = MergeRuns(runs_, [&](std::string_view key, std::string_view value)
                                       { return out.Put(key, value); });
    return status; /* when out.Put failed, out says why */
}

void EntrySorter::MergeFirstRuns()
{
    std::vector<std::string> first(runs_.begin(), runs_.begin() + max_fan_in_);
    std::string merged = NextRunPath();
    {
        RunWriter run(merged);
        status_ = MergeRuns(first,
                            [&](std::string_view key, std::string_view value)
                            {
                                run.Put(key, value);
                                return true;
                            });
        run.Close();
    }
    runs_.erase(runs_.begin(), runs_.begin() + max_fan_in_);
    runs_.push_back(merged);
    for (const auto &path : first)
        std::remove(path.c_str());
}

rocksdb::Status
EntrySorter::MergeRuns(const std::vector<std::string> &runs,
                       const std::function<bool(std::string_view, std::string_view)> &put)
{
    std::vector<std::unique_ptr<RunReader>> readers;
    auto greater = [](const RunReader *a, const RunReader *b) { return a->key() > b->key(); };
    std::priority_queue<RunReader *, std::vector<RunReader *>, decltype(greater)> heap(greater);
    for (const auto &run : runs)
    {
        readers.push_back(std::make_unique<RunReader>(run));
        if (readers.back()->Next())
            heap.push(readers.back().get());
        else if (!readers.back()->status().ok())
            return readers.back()->status();
    }
    size_t n = 0;
    while (!heap.empty())
    {
        if ((++n & 4095) == 0 && stop_)
            return rocksdb::Status::Aborted("archive writing stopped");
        RunReader *top = heap.top();
        heap.pop();
        if (!put(top->key(), top->value()))
            return rocksdb::Status::OK();
        if (top->Next())
            heap.push(top);
        else if (!top->status().ok())
            return top->status();
    }
    return rocksdb::Status::OK();
}

bool EntrySorter::Wait(int wait_ms)
{
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(wait_ms), [this] { return done_; });
}

bool EntrySorter::Finish()
{
    if (thread_.joinable())
        thread_.join();
    CheckStatus(status_, "could not write " + sst_path_);
    return entries_ > 0 && !duplicate_key_;
}

} // namespace permanode::fdw
