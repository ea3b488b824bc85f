// Fetching milestones ahead of the writer (see fetcher.hpp).
#include "sync/fetcher.hpp"
#include "sync/backoff.hpp"

#include <algorithm>
#include <chrono>

namespace permanode::sync
{
namespace
{

constexpr int kConfirmationWaitMs = 500;

} // namespace

Fetcher::Fetcher(Node &node, std::uint32_t first, std::uint32_t confirmed, int ahead,
                 std::function<void(std::uint32_t, const NodeError &)> on_retry)
    : node_(node), ahead_(std::max(ahead, 1)), on_retry_(std::move(on_retry)),
      next_to_fetch_(first), next_to_take_(first), confirmed_(confirmed)
{
    for (int i = 0; i < std::max(node.FetchThreads(), 1); ++i)
        threads_.emplace_back([this] { Run(); });
}

Fetcher::~Fetcher()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (auto &thread : threads_)
        thread.join();
}

std::uint32_t Fetcher::Confirmed() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return confirmed_;
}

std::optional<NodeMilestone> Fetcher::Take(std::uint32_t index, int timeout_ms)
{
    std::unique_lock<std::mutex> lock(mutex_);
    next_to_take_ = index;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                      [&] { return ready_.count(index) != 0 || failed_.count(index) != 0; });
    if (auto failed = failed_.find(index); failed != failed_.end())
        std::rethrow_exception(failed->second);
    auto found = ready_.find(index);
    if (found == ready_.end())
        return std::nullopt;
    NodeMilestone milestone = std::move(found->second);
    ready_.erase(found);
    changed_.notify_all(); // the window moved
    return milestone;
}

void Fetcher::Run()
{
    for (;;)
    {
        std::uint32_t index;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock,
                          [&] { return stopping_ || next_to_fetch_ < next_to_take_ + ahead_; });
            if (stopping_)
                return;
            index = next_to_fetch_++;
        }
        // wait until the node has confirmed it (a live node confirms one every few seconds)
        for (;;)
        {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (stopping_)
                    return;
                if (confirmed_ >= index)
                    break;
            }
            std::uint32_t confirmed = node_.WaitForConfirmation(index - 1, kConfirmationWaitMs);
            std::lock_guard<std::mutex> lock(mutex_);
            confirmed_ = std::max(confirmed_, confirmed);
        }
        try
        {
            NodeMilestone milestone = FetchWithRetry(index);
            std::lock_guard<std::mutex> lock(mutex_);
            ready_.emplace(index, std::move(milestone));
        }
        catch (...)
        {
            std::lock_guard<std::mutex> lock(mutex_);
            failed_.emplace(index, std::current_exception());
        }
        changed_.notify_all();
        Prefetch(index + 1);
    }
}

void Fetcher::Prefetch(std::uint32_t index)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_ || confirmed_ < index)
            return;
    }
    try
    {
        node_.Prefetch(index);
    }
    catch (const NodeError &)
    {
        // reading it will fail the same way and be retried
    }
}

NodeMilestone Fetcher::FetchWithRetry(std::uint32_t index)
{
    int backoff_ms = kFirstBackoffMs;
    for (;;)
    {
        try
        {
            return node_.Milestone(index);
        }
        catch (const NodeError &e)
        {
            if (e.kind() != NodeError::Kind::kUnavailable)
                throw;
            on_retry_(index, e);
        }
        std::unique_lock<std::mutex> lock(mutex_);
        if (changed_.wait_for(lock, std::chrono::milliseconds(backoff_ms),
                              [&] { return stopping_; }))
            throw NodeError(NodeError::Kind::kUnavailable, "stopped");
        backoff_ms = std::min(backoff_ms * 2, kMaxBackoffMs);
    }
}

} // namespace permanode::sync
