// ReplicaSet and the pieces the HTTP server shares: node labels, node failures, the rotation.
#include "permanode/replica_set.hpp"

#include <cstdlib>
#include <memory>

#include <libpq-fe.h>

#include "permanode/queries.hpp"

namespace permanode::client
{

std::string NodeLabel(const std::string &dsn)
{
    std::string host;
    std::string port;
    char *error = nullptr;
    PQconninfoOption *options = PQconninfoParse(dsn.c_str(), &error);
    if (options != nullptr)
    {
        for (PQconninfoOption *option = options; option->keyword != nullptr; option++)
        {
            std::string keyword = option->keyword;
            std::string value = option->val != nullptr ? option->val : "";
            if (keyword == "host" && !value.empty())
            {
                host = value;
            }
            else if (keyword == "hostaddr" && !value.empty() && host.empty())
            {
                host = value;
            }
            else if (keyword == "port")
            {
                port = value;
            }
        }
        PQconninfoFree(options);
    }
    PQfreemem(error);
    auto from_env = [](const char *name, const char *fallback)
    {
        const char *value = std::getenv(name);
        return std::string(value != nullptr && *value != '\0' ? value : fallback);
    };
    if (host.empty())
    {
        host = from_env("PGHOST", "localhost");
    }
    if (port.empty())
    {
        port = from_env("PGPORT", "5432");
    }
    return host + ":" + port;
}

bool IsNodeFailure(const std::string &sqlstate)
{
    return sqlstate.rfind("08", 0) == 0 || sqlstate == "57P01" || sqlstate == "57P02" ||
           sqlstate == "57P03";
}

bool IsTransientConflict(const std::string &sqlstate)
{
    return sqlstate == "40P01" || sqlstate == "40001";
}

NodeRotation::NodeRotation(std::size_t replicas, Clock::duration backoff)
    : backoff_(backoff), down_until_(replicas)
{
}

std::optional<std::size_t> NodeRotation::Next(Clock::time_point now)
{
    for (std::size_t i = 0; i < down_until_.size(); i++)
    {
        std::size_t replica = (next_ + i) % down_until_.size();
        if (Available(replica, now))
        {
            next_ = replica + 1;
            return replica;
        }
    }
    return std::nullopt;
}

void NodeRotation::Failed(std::size_t replica, Clock::time_point now)
{
    down_until_.at(replica) = now + backoff_;
}

bool NodeRotation::Available(std::size_t replica, Clock::time_point now) const
{
    return down_until_.at(replica) <= now;
}

// A node: its DSN, its connection while it works, its ledger index as last read.
struct ReplicaSet::Node
{
    std::string dsn;
    std::string label;
    bool primary = false;
    std::size_t replica = 0;
    std::unique_ptr<Client> client;
    std::int32_t ledger_index = 0;
    std::optional<std::chrono::steady_clock::time_point> ledger_index_read;
    long long reads = 0;
    long long failures = 0;
};

ReplicaSet::ReplicaSet(std::string primary_dsn, std::vector<std::string> replica_dsns,
                       ReplicaSetOptions options)
    : rotation_(replica_dsns.size(), options.backoff)
{
    for (std::size_t i = 0; i < replica_dsns.size(); i++)
    {
        auto node = std::make_unique<Node>();
        node->label = NodeLabel(replica_dsns[i]);
        node->dsn = std::move(replica_dsns[i]);
        node->replica = i;
        replicas_.push_back(std::move(node));
    }
    primary_ = std::make_unique<Node>();
    primary_->label = NodeLabel(primary_dsn);
    primary_->dsn = std::move(primary_dsn);
    primary_->primary = true;
}

ReplicaSet::~ReplicaSet() = default;

Client &ReplicaSet::Primary()
{
    if (!primary_->client || !primary_->client->IsOpen())
    {
        primary_->client = std::make_unique<Client>(primary_->dsn);
    }
    return *primary_->client;
}

void ReplicaSet::Ready(Node &node)
{
    if (node.primary)
    {
        Primary();
    }
    else if (!node.client || !node.client->IsOpen())
    {
        node.client = std::make_unique<Client>(node.dsn);
        node.ledger_index_read.reset();
    }
    auto now = std::chrono::steady_clock::now();
    if (!node.ledger_index_read || now - *node.ledger_index_read >= kLedgerIndexRefresh)
    {
        node.ledger_index = node.client->Run(queries::LedgerIndex());
        node.ledger_index_read = now;
    }
}

ReplicaSet::Lease ReplicaSet::Acquire(std::size_t attempt)
{
    for (;; attempt++)
    {
        std::optional<std::size_t> replica =
            attempt < replicas_.size() ? rotation_.Next() : std::nullopt;
        Node &node = replica ? *replicas_[*replica] : *primary_;
        Lease lease{&node, nullptr};
        try
        {
            Ready(node);
            lease.client = node.client.get();
            return lease;
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

bool ReplicaSet::Release(const Lease &lease, const Error &error)
{
    if (!IsNodeFailure(error.sqlstate()))
    {
        return false;
    }
    Node &node = *lease.node;
    node.failures++;
    node.client.reset(); // its session is gone (Client: discard after class 08)
    if (node.primary)
    {
        return false;
    }
    rotation_.Failed(node.replica);
    return true;
}

NodeInfo ReplicaSet::NodeOf(const Lease &lease)
{
    Node &node = *lease.node;
    node.reads++;
    return {node.primary, node.replica, node.label, node.ledger_index};
}

std::vector<ReplicaSet::NodeCounts> ReplicaSet::Counts() const
{
    std::vector<NodeCounts> counts;
    for (const auto &node : replicas_)
    {
        counts.push_back({node->label, false, node->reads, node->failures});
    }
    counts.push_back({primary_->label, true, primary_->reads, primary_->failures});
    return counts;
}

} // namespace permanode::client
