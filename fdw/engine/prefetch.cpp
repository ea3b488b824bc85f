/*
 * prefetch.cpp
 *	  Parallel read-ahead of a column family in chunks (see prefetch.hpp).
 */
#include "engine/prefetch.hpp"

#include <chrono>

#include <rocksdb/sst_file_reader.h>

#include "engine/archive_store.hpp"

namespace permanode::fdw
{

namespace
{

constexpr size_t kBatchBytes = 256 * 1024; /* a batch ends beyond this many bytes */
constexpr size_t kMaxReady = 16;           /* batches read ahead per chunk at most */
constexpr size_t kChunksAhead = 1;         /* chunks read beyond the threads' count */
constexpr size_t kAlign = 8;               /* values start at multiples of this */

/* The offset of a value that follows a key ending at end. */
size_t ValueOffset(size_t end)
{
    return (end + kAlign - 1) & ~(kAlign - 1);
}

} // namespace

Prefetcher::Prefetcher(const std::string &file, const rocksdb::ReadOptions &options,
                       const std::string &lower, const std::string &upper,
                       const std::vector<std::string> &splits, bool backward, int threads)
    : options_(options), backward_(backward), file_(file), chunks_(splits.size() + 1)
{
    /* chunk i spans [splits[i-1], splits[i]) in key order */
    for (size_t i = 0; i < chunks_.size(); i++)
    {
        Chunk &chunk = chunks_[backward ? chunks_.size() - 1 - i : i];
        chunk.lower = i == 0 ? lower : splits[i - 1];
        chunk.upper = i == splits.size() ? upper : splits[i];
    }
    nthreads_ = std::min<size_t>(std::max(threads, 1), chunks_.size());
    if (!file_.empty())
    {
        files_ = FileReservation(nthreads_);
    }
    SignalBlocker blocker; /* the threads inherit a mask that blocks every signal */
    for (size_t i = 0; i < nthreads_; i++)
        threads_.emplace_back([this] { Run(); });
}

Prefetcher::~Prefetcher()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    for (auto &thread : threads_)
        thread.join();
}

void Prefetcher::Run()
{
    std::unique_ptr<rocksdb::SstFileReader> reader;
    rocksdb::Status open_status;
    if (!file_.empty())
    {
        reader = std::make_unique<rocksdb::SstFileReader>(ArchiveDbOptions());
        open_status = reader->Open(file_);
        if (!open_status.ok())
            reader.reset(); /* every chunk this thread takes reports it */
    }
    for (;;)
    {
        Chunk *chunk;
        {
            /* stay a few chunks ahead of the consumer, not more: memory stays bounded */
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock,
                          [this]
                          {
                              return stop_ || next_chunk_ >= chunks_.size() ||
                                     next_chunk_ < consumer_chunk_ + nthreads_ + kChunksAhead;
                          });
            if (stop_ || next_chunk_ >= chunks_.size())
                return;
            chunk = &chunks_[next_chunk_++];
        }
        ReadChunk(*chunk, reader.get(), open_status);
    }
}

void Prefetcher::ReadChunk(Chunk &chunk, rocksdb::SstFileReader *reader,
                           const rocksdb::Status &open_status)
{
    rocksdb::ReadOptions options = options_;
    rocksdb::Slice lower(chunk.lower), upper(chunk.upper);
    options.iterate_lower_bound = chunk.lower.empty() ? nullptr : &lower;
    options.iterate_upper_bound = chunk.upper.empty() ? nullptr : &upper;
    std::unique_ptr<rocksdb::Iterator> iter(reader ? reader->NewIterator(options)
                                            : !open_status.ok()
                                                ? rocksdb::NewErrorIterator(open_status)
                                                : rocksdb::NewEmptyIterator());
    if (backward_)
        iter->SeekToLast();
    else
        iter->SeekToFirst();
    for (;;)
    {
        std::unique_ptr<Batch> batch = NewBatch();
        while (iter->Valid() && batch->data.size() < kBatchBytes)
        {
            rocksdb::Slice k = iter->key();
            rocksdb::Slice v = iter->value();
            batch->data.append(k.data(), k.size());
            batch->data.resize(ValueOffset(batch->data.size()));
            batch->data.append(v.data(), v.size());
            batch->lengths.push_back(static_cast<uint32_t>(k.size()));
            batch->lengths.push_back(static_cast<uint32_t>(v.size()));
            if (backward_)
                iter->Prev();
            else
                iter->Next();
        }
        bool last = !iter->Valid();
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || chunk.ready.size() < kMaxReady; });
            if (stop_)
                return;
            if (!batch->lengths.empty())
                chunk.ready.push_back(std::move(batch));
            if (last)
            {
                chunk.done = true;
                chunk.status = iter->status();
            }
        }
        changed_.notify_all();
        if (last)
            return;
    }
}

std::unique_ptr<Prefetcher::Batch> Prefetcher::NewBatch()
{
    std::unique_ptr<Batch> batch;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!spare_.empty())
        {
            batch = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    if (batch == nullptr)
    {
        batch = std::make_unique<Batch>();
        batch->data.reserve(kBatchBytes + 64 * 1024);
    }
    batch->data.clear();
    batch->lengths.clear();
    return batch;
}

bool Prefetcher::Next(std::string_view *key, std::string_view *value, int wait_ms, bool *timed_out)
{
    *timed_out = false;
    while (current_ == nullptr || entry_ >= current_->lengths.size())
    {
        if (done_)
            return false;
        std::unique_lock<std::mutex> lock(mutex_);
        if (current_ != nullptr)
            spare_.push_back(std::move(current_));
        Chunk &chunk = chunks_[consumer_chunk_];
        if (!changed_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                               [&] { return !chunk.ready.empty() || chunk.done; }))
        {
            *timed_out = true;
            return false;
        }
        if (!chunk.ready.empty())
        {
            current_ = std::move(chunk.ready.front());
            chunk.ready.pop_front();
            entry_ = 0;
            offset_ = 0;
        }
        else if (!chunk.status.ok() || ++consumer_chunk_ == chunks_.size())
        {
            status_ = chunk.status;
            done_ = true;
        }
        lock.unlock();
        changed_.notify_all();
    }
    uint32_t klen = current_->lengths[entry_];
    uint32_t vlen = current_->lengths[entry_ + 1];
    size_t value_offset = ValueOffset(offset_ + klen);
    *key = std::string_view(current_->data.data() + offset_, klen);
    *value = std::string_view(current_->data.data() + value_offset, vlen);
    offset_ = value_offset + vlen;
    entry_ += 2;
    return true;
}

} // namespace permanode::fdw
