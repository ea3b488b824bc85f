// The library's two-query calls, awaited on the pipeline.
#include "db.hpp"

#include <httplib.h>

#include "json_errors.hpp"
#include "params.hpp"

#include "permanode/queries.hpp"

namespace permanode::http
{

bool Db::PendingQuery::Suspend(PgPipeline &pipeline, const client::Statement &statement,
                               const client::Params &params, std::coroutine_handle<> handle)
{
    sending_ = true;
    try
    {
        pipeline.Send(
            statement, params,
            [this, handle](std::unique_ptr<client::Result> result, std::exception_ptr error)
            {
                result_ = std::move(result);
                error_ = error;
                done_ = true;
                if (!sending_)
                {
                    handle.resume();
                }
            });
    }
    catch (...)
    {
        error_ = std::current_exception();
        done_ = true;
    }
    sending_ = false;
    return !done_;
}

const client::Result &Db::PendingQuery::Take()
{
    if (error_)
    {
        std::rethrow_exception(error_);
    }
    return *result_;
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
