// The event loop's database nodes: the rotation over the replicas and each node's ledger index.
#include "server/db_nodes.hpp"

namespace permanode::http
{

DbNode::DbNode(std::string label, const std::string &dsn, int connections, int statement_timeout_ms)
    : label_(std::move(label))
{
    for (int i = 0; i < std::max(1, connections); i++)
    {
        pipelines_.push_back(std::make_unique<PgPipeline>(dsn, statement_timeout_ms));
    }
}

bool DbNode::LedgerIndexDue(Clock::time_point now) const
{
    return !ledger_index_sent_ &&
           (!ledger_index_read_ || now - *ledger_index_read_ >= client::kLedgerIndexRefresh);
}

void DbNode::LedgerIndexRead(std::optional<std::int32_t> value, Clock::time_point now)
{
    ledger_index_sent_ = false;
    if (value)
    {
        ledger_index_ = value;
        ledger_index_read_ = now;
        ledger_index_seen = *value;
    }
}

void DbNode::Forget()
{
    ledger_index_.reset();
    ledger_index_read_.reset();
}

DbNodes::DbNodes(const std::string &primary_dsn, const std::vector<std::string> &replica_dsns,
                 int connections, int statement_timeout_ms, std::chrono::milliseconds backoff)
    : rotation_(replica_dsns.size(), backoff)
{
    for (const auto &dsn : replica_dsns)
    {
        nodes_.push_back(std::make_unique<DbNode>("replica " + client::NodeLabel(dsn), dsn,
                                                  connections, statement_timeout_ms));
    }
    nodes_.push_back(
        std::make_unique<DbNode>("primary", primary_dsn, connections, statement_timeout_ms));
}

DbNode &DbNodes::Pick(std::size_t attempt)
{
    std::optional<std::size_t> replica =
        attempt < rotation_.Size() ? rotation_.Next() : std::nullopt;
    return replica ? *nodes_[*replica] : *nodes_.back();
}

bool DbNodes::Failed(DbNode &node)
{
    node.failures++;
    node.Forget();
    for (std::size_t i = 0; i < rotation_.Size(); i++)
    {
        if (nodes_[i].get() == &node)
        {
            rotation_.Failed(i);
            return true;
        }
    }
    return false;
}

} // namespace permanode::http
