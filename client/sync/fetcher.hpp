// Milestones fetched ahead of the writer: a few threads read the next confirmed milestones from
// the node while the writer archives the current one, so that following a node keeps up with
// ingesting a file. The window ahead is bounded (memory stays flat); a node that goes away is
// retried with backoff, and the writer takes the milestones in order.
#pragma once

#include "sync/node.hpp"

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace permanode::sync
{

class Fetcher
{
  public:
    // Fetches milestones from `first` on, at most `ahead` beyond the one the writer waits for,
    // with the node's FetchThreads(); `confirmed`: the node's confirmed milestone as last read.
    // `on_retry` is told of each failed attempt (from those threads).
    Fetcher(Node &node, std::uint32_t first, std::uint32_t confirmed, int ahead,
            std::function<void(std::uint32_t index, const NodeError &error)> on_retry);
    ~Fetcher();
    Fetcher(const Fetcher &) = delete;
    Fetcher &operator=(const Fetcher &) = delete;

    // The milestone `index` (the next in order), waiting up to timeout_ms; nullopt if not
    // there yet. Throws what fetching it threw, unless it was worth retrying.
    std::optional<NodeMilestone> Take(std::uint32_t index, int timeout_ms);

    // The newest milestone the node confirmed, as far as the fetcher knows.
    std::uint32_t Confirmed() const;

  private:
    void Run();
    // Tells the node of the milestone after the one just fetched, where it is confirmed: while
    // this thread waits for the writer, its answers arrive, to be read in whole.
    void Prefetch(std::uint32_t index);
    // Fetches one milestone, retrying while the node is unavailable; throws otherwise.
    NodeMilestone FetchWithRetry(std::uint32_t index);

    Node &node_;
    int ahead_;
    std::function<void(std::uint32_t, const NodeError &)> on_retry_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::uint32_t next_to_fetch_; // the next index a thread takes
    std::uint32_t next_to_take_;  // the index the writer waits for
    std::uint32_t confirmed_ = 0; // the node's confirmed index, as last seen
    std::map<std::uint32_t, NodeMilestone> ready_;
    std::map<std::uint32_t, std::exception_ptr> failed_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

} // namespace permanode::sync
