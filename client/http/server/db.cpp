// The library's two-query calls, awaited on the pipeline.
#include "server/db.hpp"

#include <httplib.h>

#include "server/db_nodes.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"

#include "permanode/queries.hpp"
#include "permanode/replica_set.hpp"

namespace permanode::http
{

Db::Db(DbNode &node) : pipelines_(node.Pipelines()), node_(&node) {}

bool Db::PendingQuery::Suspend(Db &db, PgPipeline &pipeline, const client::Statement &statement,
                               const client::Params &params, std::coroutine_handle<> handle)
{
    sending_ = true;
    try
    {
        db.BeforeSend(pipeline);
        Send(pipeline, statement, params, handle);
    }
    catch (...)
    {
        error_ = std::current_exception();
        done_ = true;
    }
    sending_ = false;
    return !done_;
}

void Db::PendingQuery::Send(PgPipeline &pipeline, const client::Statement &statement,
                            const client::Params &params, std::coroutine_handle<> handle)
{
    attempts_++;
    pipeline.Send(statement, params,
                  [this, &pipeline, &statement, &params,
                   handle](std::unique_ptr<client::Result> result, std::exception_ptr error)
                  {
                      if (!Final(error))
                      {
                          try
                          {
                              Send(pipeline, statement, params, handle);
                              return;
                          }
                          catch (...)
                          {
                              error = std::current_exception();
                          }
                      }
                      result_ = std::move(result);
                      error_ = error;
                      done_ = true;
                      if (!sending_)
                      {
                          handle.resume();
                      }
                  });
}

bool Db::PendingQuery::Final(const std::exception_ptr &error) const
{
    if (!error || attempts_ >= kConflictAttempts)
    {
        return true;
    }
    try
    {
        std::rethrow_exception(error);
    }
    catch (const client::Error &e)
    {
        return !client::IsTransientConflict(e.sqlstate());
    }
    catch (...)
    {
    }
    return true;
}

const client::Result &Db::PendingQuery::Take(Db &db)
{
    db.Ended(error_);
    if (error_)
    {
        std::rethrow_exception(error_);
    }
    return *result_;
}

void Db::BeforeSend(PgPipeline &pipeline)
{
    if (node_ == nullptr)
    {
        return;
    }
    if (first_send_)
    {
        // Read by a query that ended before this one is sent: not newer than what it reads.
        first_send_ = false;
        Observe(node_->LedgerIndex());
    }
    auto now = DbNode::Clock::now();
    if (!node_->LedgerIndexDue(now))
    {
        return;
    }
    static const client::Query<std::int32_t> query = client::queries::LedgerIndex();
    DbNode *node = node_;
    node->LedgerIndexSent();
    try
    {
        pipeline.Send(*query.statement, query.params,
                      [node](std::unique_ptr<client::Result> result, std::exception_ptr error)
                      {
                          std::optional<std::int32_t> value;
                          if (!error)
                          {
                              try
                              {
                                  value = query.read(*result);
                              }
                              catch (const client::Error &)
                              {
                              }
                          }
                          node->LedgerIndexRead(value, DbNode::Clock::now());
                      });
    }
    catch (...)
    {
        node->LedgerIndexRead(std::nullopt, now);
        throw;
    }
}

void Db::Ended(const std::exception_ptr &error)
{
    if (first_result_ && node_ != nullptr)
    {
        // Not read yet when the first query went out: read now, ahead of it in its pipeline.
        first_result_ = false;
        if (!ledger_index_)
        {
            Observe(node_->LedgerIndex());
        }
    }
    if (!error)
    {
        return;
    }
    try
    {
        std::rethrow_exception(error);
    }
    catch (const client::Error &e)
    {
        node_failed_ |= client::IsNodeFailure(e.sqlstate());
    }
    catch (...)
    {
    }
}

void Db::Observe(std::optional<std::int32_t> ledger_index)
{
    if (ledger_index && (!ledger_index_ || *ledger_index > *ledger_index_))
    {
        ledger_index_ = ledger_index;
    }
}

std::optional<std::int32_t> Db::LedgerIndex() const
{
    if (first_send_ && node_ != nullptr)
    {
        return node_->LedgerIndex(); // no query: the node's as last read
    }
    return ledger_index_;
}

std::optional<std::int32_t> Db::LedgerIndexOfQuery(const client::Statement &statement,
                                                   std::int32_t value)
{
    static const auto ledger_index = client::queries::LedgerIndex().statement;
    return &statement == ledger_index.get() ? std::optional<std::int32_t>(value) : std::nullopt;
}

std::optional<std::int32_t>
Db::LedgerIndexOfQuery(const client::Statement &statement,
                       const std::pair<std::int32_t, std::int32_t> &held)
{
    static const auto held_milestones = client::queries::HeldMilestones().statement;
    return &statement == held_milestones.get() ? std::optional<std::int32_t>(held.second)
                                               : std::nullopt;
}

PgPipeline &Db::Pick()
{
    constexpr std::size_t kMaxQueue = 8;
    constexpr auto kMaxWait = std::chrono::milliseconds(2);
    PgPipeline *least = pipelines_.front().get();
    for (auto &pipeline : pipelines_)
    {
        if (pipeline->InFlight() < kMaxQueue && pipeline->OldestWait() < kMaxWait)
        {
            return *pipeline;
        }
        if (pipeline->InFlight() < least->InFlight())
        {
            least = pipeline.get();
        }
    }
    return *least;
}

Task<std::optional<client::BlockRow>> TransactionIncludedBlock(Db &db, std::string transaction_id)
{
    auto block_id = co_await db.Run(client::queries::TransactionBlockId(transaction_id));
    if (!block_id)
    {
        co_return std::nullopt;
    }
    co_return co_await db.Run(client::queries::Block(*block_id));
}

Task<std::optional<std::int32_t>> LedgerIndexParam(Db &db, const httplib::Request &request)
{
    auto text = QueryText(request, "ledgerIndex");
    if (!text)
    {
        co_return std::nullopt;
    }
    std::int32_t index = MilestoneIndexParam(*text, "ledgerIndex");
    auto [first, newest] = co_await db.Run(client::queries::HeldMilestones());
    if (newest == 0 || index < first || index > newest)
    {
        throw BadParameter("ledgerIndex", newest == 0
                                              ? std::string("no milestone is held yet")
                                              : "milestone " + std::to_string(index) +
                                                    " is not held: this archive holds milestones " +
                                                    std::to_string(first) + " to " +
                                                    std::to_string(newest));
    }
    co_return index;
}

Task<client::OutputIdPage> QueryOutputs(Db &db, client::OutputKind kind,
                                        client::OutputFilter filter, bool include_spent,
                                        int page_size, std::optional<client::Cursor> after)
{
    auto page =
        co_await db.Run(client::queries::Outputs(kind, filter, include_spent, page_size, after));
    if (page.items.empty())
    {
        if (filter.as_of)
        {
            page.ledger_index = *filter.as_of;
        }
        else
        {
            page.ledger_index = co_await db.Run(client::queries::LedgerIndex());
        }
    }
    co_return page;
}

} // namespace permanode::http
