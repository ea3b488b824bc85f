// INX client: the node's calls and streams (their messages read by inx_convert.hpp), gRPC
// failures as NodeError.
#include "sync/inx_node.hpp"
#include "sync/backoff.hpp"
#include "sync/inx_convert.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include "inx.grpc.pb.h"

namespace permanode::sync
{

class InxStub
{
  public:
    explicit InxStub(const std::shared_ptr<grpc::Channel> &channel)
        : stub(inx::INX::NewStub(channel))
    {
    }
    std::unique_ptr<inx::INX::Stub> stub;
};

namespace
{

// How long one RPC may take: a cone of thousands of blocks streams in well under this.
constexpr auto kCallDeadline = std::chrono::seconds(120);

void SetDeadline(grpc::ClientContext &context)
{
    context.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
}

// A failed call as NodeError: what to retry, what the node does not have, what is wrong.
[[noreturn]] void ThrowStatus(const grpc::Status &status, const std::string &what)
{
    NodeError::Kind kind = NodeError::Kind::kProtocol;
    switch (status.error_code())
    {
        case grpc::StatusCode::UNAVAILABLE:
        case grpc::StatusCode::DEADLINE_EXCEEDED:
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
        case grpc::StatusCode::ABORTED:
        case grpc::StatusCode::CANCELLED:
        case grpc::StatusCode::INTERNAL:
            kind = NodeError::Kind::kUnavailable;
            break;
        // Hornet answers INVALID_ARGUMENT for a milestone below its pruning index or not yet
        // confirmed, NOT_FOUND for one it never had
        case grpc::StatusCode::NOT_FOUND:
        case grpc::StatusCode::INVALID_ARGUMENT:
            kind = NodeError::Kind::kNotFound;
            break;
        default:
            break;
    }
    throw NodeError(kind, fmt::format("{}: {} (gRPC status {})", what, status.error_message(),
                                      static_cast<int>(status.error_code())));
}

inx::MilestoneRequest RequestFor(std::uint32_t index)
{
    inx::MilestoneRequest request;
    request.set_milestone_index(index);
    return request;
}

// Reads a ledger update stream into one LedgerUpdates per milestone, checking the markers.
std::vector<LedgerUpdates> ReadUpdates(grpc::ClientReader<inx::LedgerUpdate> &reader,
                                       std::uint32_t from, std::uint32_t to)
{
    LedgerUpdateReader updates(from, to);
    inx::LedgerUpdate update;
    while (!updates.Done() && reader.Read(&update))
        updates.Add(update);
    return updates.Take();
}

inx::MilestoneRangeRequest RangeRequest(std::uint32_t from, std::uint32_t to)
{
    inx::MilestoneRangeRequest request;
    request.set_start_milestone_index(from);
    request.set_end_milestone_index(to);
    return request;
}

// Reads a cone stream to its end.
IndexedCone ReadCone(grpc::ClientReader<inx::BlockWithMetadata> &reader)
{
    inx::BlockWithMetadata block;
    IndexedCone cone;
    while (reader.Read(&block))
        cone.push_back(ConeBlockOf(block));
    return cone;
}

// Reads the ledger updates of [from, to] from their stream and ends the call.
std::vector<LedgerUpdates>
FinishUpdates(grpc::ClientContext &context,
              std::unique_ptr<grpc::ClientReader<inx::LedgerUpdate>> reader, std::uint32_t from,
              std::uint32_t to)
{
    std::vector<LedgerUpdates> batches;
    try
    {
        batches = ReadUpdates(*reader, from, to);
    }
    catch (...)
    {
        context.TryCancel();
        reader->Finish();
        throw;
    }
    context.TryCancel(); // the range is read: the node may keep the stream open
    grpc::Status rc = reader->Finish();
    if (!rc.ok() && rc.error_code() != grpc::StatusCode::CANCELLED)
        ThrowStatus(rc,
                    fmt::format("cannot read the ledger updates of milestones {}..{}", from, to));
    return batches;
}

// The channel to a node: no retries by gRPC (the sync retries a milestone itself, with backoff),
// which spares each call gRPC's retry buffering.
std::shared_ptr<grpc::Channel> ChannelTo(const std::string &address)
{
    grpc::ChannelArguments arguments;
    arguments.SetInt(GRPC_ARG_ENABLE_RETRIES, 0);
    return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), arguments);
}

} // namespace

// The cone and ledger-update streams of one milestone, asked for together; a stream not read to
// its end is cancelled.
struct InxNode::Calls
{
    Calls(inx::INX::Stub &stub, std::uint32_t index)
    {
        SetDeadline(cone_context);
        cone = stub.ReadMilestoneCone(&cone_context, RequestFor(index));
        SetDeadline(updates_context);
        updates = stub.ListenToLedgerUpdates(&updates_context, RangeRequest(index, index));
    }
    ~Calls()
    {
        if (cone != nullptr)
        {
            cone_context.TryCancel();
            cone->Finish();
        }
        if (updates != nullptr)
        {
            updates_context.TryCancel();
            updates->Finish();
        }
    }
    Calls(const Calls &) = delete;
    Calls &operator=(const Calls &) = delete;

    grpc::ClientContext cone_context;
    std::unique_ptr<grpc::ClientReader<inx::BlockWithMetadata>> cone;
    grpc::ClientContext updates_context;
    std::unique_ptr<grpc::ClientReader<inx::LedgerUpdate>> updates;
};

InxNode::InxNode(std::string address)
    : address_(std::move(address)), channel_(ChannelTo(address_)),
      stub_(std::make_unique<InxStub>(channel_))
{
}

InxNode::~InxNode()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        if (listen_context_ != nullptr)
            listen_context_->TryCancel();
    }
    confirmed_changed_.notify_all();
    if (listener_.joinable())
        listener_.join();
}

NodeStatus InxNode::Status()
{
    grpc::ClientContext context;
    SetDeadline(context);
    inx::NoParams none;
    inx::NodeStatus status;
    grpc::Status rc = stub_->stub->ReadNodeStatus(&context, none, &status);
    if (!rc.ok())
        ThrowStatus(rc, "cannot read the node's status");
    return StatusOf(status);
}

NodeMilestone InxNode::Milestone(std::uint32_t index)
{
    std::unique_ptr<Calls> calls = CallsFor(index);
    NodeMilestone out;
    {
        grpc::ClientContext context;
        SetDeadline(context);
        inx::Milestone milestone;
        grpc::Status rc = stub_->stub->ReadMilestone(&context, RequestFor(index), &milestone);
        if (!rc.ok())
            ThrowStatus(rc, fmt::format("cannot read milestone {}", index));
        ReadMilestone(milestone, index, out);
    }
    IndexedCone cone = ReadCone(*calls->cone);
    grpc::Status rc = calls->cone->Finish();
    calls->cone.reset();
    if (!rc.ok())
        ThrowStatus(rc, fmt::format("cannot read the cone of milestone {}", index));
    out.blocks = InWhiteFlagOrder(std::move(cone), index);
    out.updates = std::move(
        FinishUpdates(calls->updates_context, std::move(calls->updates), index, index).front());
    return out;
}

void InxNode::Prefetch(std::uint32_t index)
{
    auto calls = std::make_unique<Calls>(*stub_->stub, index);
    std::lock_guard<std::mutex> lock(mutex_);
    prefetched_.try_emplace(index, std::move(calls));
}

std::unique_ptr<InxNode::Calls> InxNode::CallsFor(std::uint32_t index)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto found = prefetched_.find(index); found != prefetched_.end())
        {
            std::unique_ptr<Calls> calls = std::move(found->second);
            prefetched_.erase(found);
            return calls;
        }
    }
    return std::make_unique<Calls>(*stub_->stub, index);
}

std::vector<LedgerUpdates> InxNode::Updates(std::uint32_t from, std::uint32_t to)
{
    grpc::ClientContext context;
    SetDeadline(context);
    return FinishUpdates(
        context, stub_->stub->ListenToLedgerUpdates(&context, RangeRequest(from, to)), from, to);
}

std::vector<LedgerOutput> InxNode::UnspentOutputs(std::uint32_t *ledger_index)
{
    grpc::ClientContext context;
    SetDeadline(context);
    inx::NoParams none;
    auto reader = stub_->stub->ReadUnspentOutputs(&context, none);
    std::vector<LedgerOutput> outputs;
    inx::UnspentOutput output;
    bool first = true;
    while (reader->Read(&output))
    {
        if (first)
            *ledger_index = output.ledgerindex();
        else if (output.ledgerindex() != *ledger_index)
        {
            context.TryCancel();
            reader->Finish();
            throw NodeError(NodeError::Kind::kProtocol,
                            fmt::format("the node's unspent outputs are not of one ledger index: "
                                        "{} and {} (the node's ledger moved while it sent them?)",
                                        *ledger_index, output.ledgerindex()));
        }
        first = false;
        outputs.push_back(OutputOf(output.output()));
    }
    grpc::Status rc = reader->Finish();
    if (!rc.ok())
        ThrowStatus(rc, "cannot read the node's unspent outputs");
    if (first)
        *ledger_index = Status().ledger_index;
    return outputs;
}

std::uint32_t InxNode::WaitForConfirmation(std::uint32_t after, int timeout_ms)
{
    std::unique_lock<std::mutex> lock(mutex_);
    if (!listening_)
    {
        // from `after` on: the stream names every confirmed milestone from there
        listening_ = true;
        listener_ = std::thread([this, after] { Listen(after + 1); });
    }
    confirmed_changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                [&] { return stopping_ || confirmed_ > after; });
    return confirmed_;
}

Confirmation InxNode::LastConfirmation() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return {confirmed_, confirmed_timestamp_};
}

void InxNode::Listen(std::uint32_t from)
{
    int backoff_ms = kFirstBackoffMs;
    for (bool first = true;; first = false)
    {
        if (!first)
            ++reconnects_;
        grpc::ClientContext context;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stopping_)
                return;
            listen_context_ = &context;
        }
        // to 0: and every one confirmed later
        auto reader = stub_->stub->ListenToConfirmedMilestones(&context, RangeRequest(from, 0));
        inx::MilestoneAndProtocolParameters message;
        while (reader->Read(&message))
        {
            const auto &info = message.milestone().milestone_info();
            std::uint32_t index = info.milestone_index();
            std::lock_guard<std::mutex> lock(mutex_);
            if (index >= from)
                from = index + 1;
            if (index > confirmed_)
            {
                confirmed_ = index;
                confirmed_timestamp_ = info.milestone_timestamp();
            }
            confirmed_changed_.notify_all();
            backoff_ms = kFirstBackoffMs;
        }
        reader->Finish();
        std::unique_lock<std::mutex> lock(mutex_);
        listen_context_ = nullptr;
        // the node went away (or pruned `from`): listen again, later
        if (confirmed_changed_.wait_for(lock, std::chrono::milliseconds(backoff_ms),
                                        [&] { return stopping_; }))
            return;
        backoff_ms = std::min(backoff_ms * 2, kMaxBackoffMs);
    }
}

} // namespace permanode::sync
