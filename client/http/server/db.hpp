// What a request handler awaits: `co_await db.Run(client::queries::Block(id))` sends the query
// on the event loop's pipelined connection and resumes the handler with the query's result (or
// throws its client::Error) once the result is in.
#pragma once

#include <coroutine>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "permanode/query.hpp"
#include "permanode/ledger_types.hpp"
#include "server/pg_pipeline.hpp"
#include "server/task.hpp"

namespace httplib
{
struct Request;
}

namespace permanode::http
{

class DbNode;

class Db
{
  public:
    // `pipelines` outlive the Db. Queries go to the first connection that keeps up (a short
    // queue whose oldest query is young): one busy backend answers a batch of queued queries
    // for the cost of one wake-up, so filling one connection beats spreading over several.
    // Only when it falls behind (a slow query, or more load than a backend can take) do the
    // next ones take queries, and failing all, the one with the fewest in flight.
    explicit Db(std::vector<std::unique_ptr<PgPipeline>> &pipelines) : pipelines_(pipelines) {}
    // One request's queries on one node's connections (db_nodes.hpp); `node` outlives the Db.
    // Besides, the Db reads the node's ledger index again when it is due (in the pipeline,
    // before the request's query), and notes whether the node failed.
    explicit Db(DbNode &node);

    // Sends a query and holds its outcome; the untyped part of Awaiter. A query the server
    // rolled back to end a conflict with another transaction (a deadlock with archiving, a
    // serialization failure: client::IsTransientConflict) is sent again, up to
    // kConflictAttempts in all: each query is a statement in a transaction of its own, which the
    // server rolled back whole.
    class PendingQuery
    {
      public:
        static constexpr int kConflictAttempts = 3;

        // Sends the query; false (go on at once) when it ended before it could be waited for:
        // the database was unreachable. `statement` and `params` outlive the query.
        bool Suspend(Db &db, PgPipeline &pipeline, const client::Statement &statement,
                     const client::Params &params, std::coroutine_handle<> handle);
        // The result, or the query's error thrown.
        const client::Result &Take(Db &db);

      private:
        void Send(PgPipeline &pipeline, const client::Statement &statement,
                  const client::Params &params, std::coroutine_handle<> handle);
        // Whether `error` ends the query: anything but a conflict with attempts left.
        bool Final(const std::exception_ptr &error) const;

        std::unique_ptr<client::Result> result_;
        std::exception_ptr error_;
        int attempts_ = 0;
        bool sending_ = false;
        bool done_ = false;
    };

    template <typename T> class Awaiter
    {
      public:
        Awaiter(Db &db, PgPipeline &pipeline, client::Query<T> query)
            : db_(db), pipeline_(pipeline), query_(std::move(query))
        {
        }
        bool await_ready() const noexcept { return false; }
        bool await_suspend(std::coroutine_handle<> handle)
        {
            return pending_.Suspend(db_, pipeline_, *query_.statement, query_.params, handle);
        }
        T await_resume()
        {
            T value = query_.read(pending_.Take(db_));
            db_.Observe(LedgerIndexIn(value, *query_.statement));
            return value;
        }

      private:
        Db &db_;
        PgPipeline &pipeline_;
        client::Query<T> query_;
        PendingQuery pending_;
    };

    template <typename T> Awaiter<T> Run(client::Query<T> query)
    {
        return Awaiter<T>(*this, Pick(), std::move(query));
    }

    // Whether a query of this Db ended because its node failed (client::IsNodeFailure).
    bool NodeFailed() const { return node_failed_; }
    // The node's ledger index for the response: the newest of the node's as last read when the
    // request's first query went out (by a query that had ended: never newer than what the
    // request reads; the first time, the read sent ahead of it) and those the request's own
    // queries read, so that it agrees with a ledgerIndex the body reports. nullopt when not
    // known (a node not read yet, and a request without a query).
    std::optional<std::int32_t> LedgerIndex() const;

  private:
    PgPipeline &Pick();
    // Before a query of the request goes out on `pipeline`: notes the node's ledger index at the
    // first, and sends the ledger index query ahead of it when one is due.
    void BeforeSend(PgPipeline &pipeline);
    // A query of the request ended (`error`: null when it succeeded).
    void Ended(const std::exception_ptr &error);
    void Observe(std::optional<std::int32_t> ledger_index);

    // The ledger index a query's value carries: the ledger index query's own, the newest of
    // the held milestones, and a ledger_index field (pages, balances, outputs) read with the
    // rows. Never newer than the node's newest milestone.
    static std::optional<std::int32_t> LedgerIndexOfQuery(const client::Statement &statement,
                                                          std::int32_t value);
    static std::optional<std::int32_t>
    LedgerIndexOfQuery(const client::Statement &statement,
                       const std::pair<std::int32_t, std::int32_t> &held);
    template <typename T>
    static std::optional<std::int32_t> LedgerIndexIn(const T &value,
                                                     const client::Statement &statement)
    {
        if constexpr (requires { value.ledger_index; })
        {
            return value.ledger_index;
        }
        else if constexpr (requires { value->ledger_index; })
        {
            return value ? std::optional<std::int32_t>(value->ledger_index) : std::nullopt;
        }
        else if constexpr (std::is_same_v<T, std::int32_t> ||
                           std::is_same_v<T, std::pair<std::int32_t, std::int32_t>>)
        {
            return LedgerIndexOfQuery(statement, value);
        }
        else
        {
            return std::nullopt;
        }
    }

    std::vector<std::unique_ptr<PgPipeline>> &pipelines_;
    DbNode *node_ = nullptr;
    bool node_failed_ = false;
    bool first_send_ = true;
    bool first_result_ = true;
    std::optional<std::int32_t> ledger_index_;
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
