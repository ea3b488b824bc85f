// A Hornet 2.x node over INX (gRPC, client/sync/inx.proto): the Node that `permanode sync --inx`
// follows. Confirmations come from ListenToConfirmedMilestones, read by a thread of its own that
// reconnects when the stream breaks; every other call is one RPC with a deadline.
#pragma once

#include "sync/node.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
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
    std::vector<LedgerUpdates> Updates(std::uint32_t from, std::uint32_t to) override;
    std::vector<LedgerOutput> UnspentOutputs(std::uint32_t *ledger_index) override;
    std::uint32_t WaitForConfirmation(std::uint32_t after, int timeout_ms) override;
    std::string Name() const override { return "INX " + address_; }
    Confirmation LastConfirmation() const override;
    std::uint64_t Reconnects() const override { return reconnects_; }

  private:
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
    // Streams opened again after the first.
    std::atomic<std::uint64_t> reconnects_{0};
};

} // namespace permanode::sync
