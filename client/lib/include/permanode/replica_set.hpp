// Reads from streaming replicas: a primary DSN and replica DSNs, reads handed out round robin
// over the replicas, a replica that fails put aside for a back-off, the primary when none is
// left. What picks the node (NodeRotation) is shared with the HTTP server, which keeps its own
// pipelined connections per node.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "permanode/client.hpp"

namespace permanode::client
{

// How often a node's ledger index (its newest synced milestone) is read again.
constexpr std::chrono::milliseconds kLedgerIndexRefresh{1000};

// "host:port" of a DSN (key=value or URI), for saying which node answered; PGHOST and PGPORT,
// else localhost and 5432, stand in for what the DSN leaves out.
std::string NodeLabel(const std::string &dsn);

// Whether an error with this SQLSTATE says the node is gone rather than the query wrong: class 08
// (connection exception: a failed connect, a broken connection) and 57P01-57P03 (the server
// shutting down, crashed, or not accepting connections yet).
bool IsNodeFailure(const std::string &sqlstate);

// Whether an error with this SQLSTATE says the server rolled the transaction back whole to end a
// conflict with another (40P01 deadlock, 40001 serialization failure): running it again may
// succeed, and a statement that only reads can always be run again.
bool IsTransientConflict(const std::string &sqlstate);

// Which replica serves next: round robin over those not in back-off; nullopt when every one is
// (then the primary serves). Not thread-safe.
class NodeRotation
{
  public:
    using Clock = std::chrono::steady_clock;

    NodeRotation(std::size_t replicas, Clock::duration backoff);

    // The next available replica, advancing the rotation past it.
    std::optional<std::size_t> Next(Clock::time_point now = Clock::now());
    // Puts a replica aside until the back-off has passed; then Next offers it again.
    void Failed(std::size_t replica, Clock::time_point now = Clock::now());
    bool Available(std::size_t replica, Clock::time_point now = Clock::now()) const;
    std::size_t Size() const { return down_until_.size(); }

  private:
    Clock::duration backoff_;
    std::vector<Clock::time_point> down_until_;
    std::size_t next_ = 0;
};

// Which node answered a read, and how far it was.
struct NodeInfo
{
    bool primary = false;
    std::size_t replica = 0;       // its position among the replica DSNs (for a replica)
    std::string label;             // "host:port" (NodeLabel)
    std::int32_t ledger_index = 0; // its newest synced milestone (queries::LedgerIndex)
};

// A read's value and the node that gave it.
template <typename T> struct Answered
{
    T value;
    NodeInfo node;
};

template <> struct Answered<void>
{
    NodeInfo node;
};

struct ReplicaSetOptions
{
    // How long a replica that failed is left alone before it is tried again.
    std::chrono::milliseconds backoff{5000};
};

// A primary and its replicas. Read(fn) runs fn(Client &) on the next replica (round robin); when
// the replica cannot be reached or its connection breaks during fn (IsNodeFailure), it is put
// aside for the back-off, and fn runs again on the next replica, then on the primary. Its
// connection is made again when it is tried again. Errors that are not a node's failure, and the
// primary's failure, are thrown to the caller. Without replicas every read runs on the primary,
// as on one Client.
//
// The node's ledger index is read on the node's connection at most once per
// kLedgerIndexRefresh, before fn, so it is never newer than what fn read there.
// Not thread-safe: use one per thread, as Client.
class ReplicaSet
{
  public:
    ReplicaSet(std::string primary_dsn, std::vector<std::string> replica_dsns,
               ReplicaSetOptions options = {});
    ~ReplicaSet();
    ReplicaSet(const ReplicaSet &) = delete;
    ReplicaSet &operator=(const ReplicaSet &) = delete;

    // Runs fn on a replica, else on the primary; see above.
    template <typename Fn> auto Read(Fn &&fn) -> Answered<std::invoke_result_t<Fn &, Client &>>
    {
        using T = std::invoke_result_t<Fn &, Client &>;
        for (std::size_t attempt = 0;; attempt++)
        {
            Lease lease = Acquire(attempt);
            try
            {
                if constexpr (std::is_void_v<T>)
                {
                    fn(*lease.client);
                    return {NodeOf(lease)};
                }
                else
                {
                    T value = fn(*lease.client);
                    return {std::move(value), NodeOf(lease)};
                }
            }
            catch (const Error &e)
            {
                if (!Release(lease, e))
                {
                    throw;
                }
            }
        }
    }

    // The primary's connection (made when first asked for), for writes.
    Client &Primary();

    // Reads each node has answered and failures it had, replicas first, then the primary.
    struct NodeCounts
    {
        std::string label;
        bool primary = false;
        long long reads = 0;
        long long failures = 0;
    };
    std::vector<NodeCounts> Counts() const;

  private:
    struct Node;
    // A connected node for one read (its ledger index fresh enough).
    struct Lease
    {
        Node *node = nullptr;
        Client *client = nullptr;
    };
    // The node for a read's attempt: the next available replica, or the primary once every
    // replica is in back-off or the read has tried as many times as there are replicas.
    Lease Acquire(std::size_t attempt);
    // A failed read: true when the node failed and another node should be tried.
    bool Release(const Lease &lease, const Error &error);
    // Connects the node if need be and refreshes its ledger index; throws Error.
    void Ready(Node &node);
    NodeInfo NodeOf(const Lease &lease);

    std::vector<std::unique_ptr<Node>> replicas_;
    std::unique_ptr<Node> primary_;
    NodeRotation rotation_;
};

} // namespace permanode::client
