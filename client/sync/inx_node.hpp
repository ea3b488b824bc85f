// A Hornet 2.x node over INX (gRPC, client/sync/inx.proto): the Node that `permanode sync --inx`
// follows. Confirmations come from ListenToConfirmedMilestones, read by a thread of its own that
// reconnects when the stream breaks; every other call is one RPC with a deadline. One thread
// fetches milestones, asking for the next one's cone and ledger updates before it reads this one:
// the next answers then wait in whole in the socket, read in a few large reads, where reading
// them as they trickle in costs a wake-up, a read and a flow-control write per message (and
// threads sharing the channel hand each message from the thread that read it to its own).
#pragma once

#include "sync/node.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <map>
#include <mutex>
#include <thread>

namespace grpc
{
class Channel;
class ClientContext;
} // namespace grpc

namespace inx
{
class INX;
} // namespace inx

namespace permanode::sync
{

class InxNode final : public Node
{
  public:
    // address: HOST:PORT of the node's INX server (Hornet's default is localhost:9029).
    explicit InxNode(std::string address);
    ~InxNode() override;
    InxNode(const InxNode &) = delete;
    InxNode &operator=(const InxNode &) = delete;

    NodeStatus Status() override;
    NodeMilestone Milestone(std::uint32_t index) override;
    void Prefetch(std::uint32_t index) override;
    int FetchThreads() const override { return 1; }
    std::vector<LedgerUpdates> Updates(std::uint32_t from, std::uint32_t to) override;
    std::vector<LedgerOutput> UnspentOutputs(std::uint32_t *ledger_index) override;
    std::uint32_t WaitForConfirmation(std::uint32_t after, int timeout_ms) override;
    std::string Name() const override { return "INX " + address_; }
    Confirmation LastConfirmation() const override;
    std::uint64_t Reconnects() const override { return reconnects_; }

  private:
    struct Calls;
    // The cone and ledger-update calls of milestone `index`: the prefetched ones, or new ones.
    std::unique_ptr<Calls> CallsFor(std::uint32_t index);
    // The listener thread: streams confirmations from `from` on, reconnecting with backoff.
    void Listen(std::uint32_t from);

    std::string address_;
    std::shared_ptr<grpc::Channel> channel_;
    std::unique_ptr<class InxStub> stub_;
    mutable std::mutex mutex_;
    std::condition_variable confirmed_changed_;
    std::uint32_t confirmed_ = 0; // the newest confirmation the stream announced (under mutex_)
    bool listening_ = false;      // the thread runs (under mutex_)
    bool stopping_ = false;       // the destructor runs (under mutex_)
    grpc::ClientContext *listen_context_ = nullptr; // the stream's, to cancel it (under mutex_)
    std::thread listener_;
    // The timestamp of confirmed_ (under mutex_).
    std::uint32_t confirmed_timestamp_ = 0;
    // Calls asked for ahead of reading (under mutex_).
    std::map<std::uint32_t, std::unique_ptr<Calls>> prefetched_;
    // Streams opened again after the first.
    std::atomic<std::uint64_t> reconnects_{0};
};

} // namespace permanode::sync
