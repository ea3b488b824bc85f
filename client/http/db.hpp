// What a request handler awaits: `co_await db.Run(client::queries::Block(id))` sends the query
// on the event loop's pipelined connection and resumes the handler with the query's result (or
// throws its client::Error) once the result is in.
#pragma once

#include <coroutine>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include "permanode/query.hpp"
#include "permanode/ledger_types.hpp"
#include "pg_pipeline.hpp"
#include "task.hpp"

namespace httplib
{
struct Request;
}

namespace permanode::http
{

class Db
{
  public:
    // `pipelines` outlive the Db. Queries go to the first connection that keeps up (a short
    // queue whose oldest query is young): one busy backend answers a batch of queued queries
    // for the cost of one wake-up, so filling one connection beats spreading over several.
    // Only when it falls behind (a slow query, or more load than a backend can take) do the
    // next ones take queries, and failing all, the one with the fewest in flight.
    explicit Db(std::vector<std::unique_ptr<PgPipeline>> &pipelines) : pipelines_(pipelines) {}

    // Sends a query and holds its outcome; the untyped part of Awaiter.
    class PendingQuery
    {
      public:
        // Sends the query; false (go on at once) when it ended before it could be waited for:
        // the database was unreachable.
        bool Suspend(PgPipeline &pipeline, const client::Statement &statement,
                     const client::Params &params, std::coroutine_handle<> handle);
        // The result, or the query's error thrown.
        const client::Result &Take();

      private:
        std::unique_ptr<client::Result> result_;
        std::exception_ptr error_;
        bool sending_ = false;
        bool done_ = false;
    };

    template <typename T> class Awaiter
    {
      public:
        Awaiter(PgPipeline &pipeline, client::Query<T> query)
            : pipeline_(pipeline), query_(std::move(query))
        {
        }
        bool await_ready() const noexcept { return false; }
        bool await_suspend(std::coroutine_handle<> handle)
        {
            return pending_.Suspend(pipeline_, *query_.statement, query_.params, handle);
        }
        T await_resume() { return query_.read(pending_.Take()); }

      private:
        PgPipeline &pipeline_;
        client::Query<T> query_;
        PendingQuery pending_;
    };

    template <typename T> Awaiter<T> Run(client::Query<T> query)
    {
        return Awaiter<T>(Pick(), std::move(query));
    }

  private:
    PgPipeline &Pick();
    std::vector<std::unique_ptr<PgPipeline>> &pipelines_;
};

// The library's calls made of two queries (as client::Client makes them).
Task<std::optional<client::BlockRow>> TransactionIncludedBlock(Db &db, std::string transaction_id);
// ledgerIndex=N, the milestone at whose end to answer: nullopt without it; a 400 unless the
// archive holds N (from its first to its newest milestone).
Task<std::optional<std::int32_t>> LedgerIndexParam(Db &db, const httplib::Request &request);
Task<client::OutputIdPage> QueryOutputs(Db &db, client::OutputKind kind,
                                        client::OutputFilter filter, bool include_spent,
                                        int page_size, std::optional<client::Cursor> after);

} // namespace permanode::http
