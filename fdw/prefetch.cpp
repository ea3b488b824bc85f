/*
 * prefetch.cpp
 *	  Iterator read-ahead in a helper thread (see prefetch.hpp).
 */
#include "prefetch.hpp"

#include <chrono>

#include "archive_store.hpp"

namespace permanode::fdw
{

namespace
{

constexpr size_t kBatchBytes = 256 * 1024; /* a batch ends beyond this many bytes */
constexpr size_t kMaxReady = 4;            /* batches read ahead at most */

} // namespace

Prefetcher::Prefetcher(std::unique_ptr<rocksdb::Iterator> iter, bool backward)
    : iter_(std::move(iter)), backward_(backward)
{
    SignalBlocker blocker; /* the thread inherits a mask that blocks every signal */
    thread_ = std::thread([this] { Run(); });
}

Prefetcher::~Prefetcher()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void Prefetcher::Run()
{
    for (;;)
    {
        auto batch = std::make_unique<Batch>();
        batch->data.reserve(kBatchBytes + 4096);
        while (iter_->Valid() && batch->data.size() < kBatchBytes)
        {
            rocksdb::Slice k = iter_->key();
            rocksdb::Slice v = iter_->value();
            batch->data.append(k.data(), k.size());
            batch->data.append(v.data(), v.size());
            batch->lengths.push_back(static_cast<uint32_t>(k.size()));
            batch->lengths.push_back(static_cast<uint32_t>(v.size()));
            if (backward_)
                iter_->Prev();
            else
                iter_->Next();
        }
        if (!iter_->Valid())
        {
            batch->last = true;
            batch->status = iter_->status();
        }
        bool last = batch->last;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [this] { return stop_ || ready_.size() < kMaxReady; });
            if (stop_)
                return;
            ready_.push_back(std::move(batch));
        }
        changed_.notify_all();
        if (last)
            return;
    }
}

bool Prefetcher::Next(std::string_view *key, std::string_view *value, int wait_ms, bool *timed_out)
{
    *timed_out = false;
    while (current_ == nullptr || entry_ >= current_->lengths.size())
    {
        if (current_ != nullptr && current_->last)
        {
            status_ = current_->status;
            done_ = true;
        }
        if (done_)
            return false;
        current_.reset();
        std::unique_lock<std::mutex> lock(mutex_);
        if (!changed_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                               [this] { return !ready_.empty(); }))
        {
            *timed_out = true;
            return false;
        }
        current_ = std::move(ready_.front());
        ready_.pop_front();
        lock.unlock();
        changed_.notify_all();
        entry_ = 0;
        offset_ = 0;
    }
    uint32_t klen = current_->lengths[entry_];
    uint32_t vlen = current_->lengths[entry_ + 1];
    *key = std::string_view(current_->data.data() + offset_, klen);
    *value = std::string_view(current_->data.data() + offset_ + klen, vlen);
    offset_ += klen + vlen;
    entry_ += 2;
    return true;
}

} // namespace permanode::fdw
