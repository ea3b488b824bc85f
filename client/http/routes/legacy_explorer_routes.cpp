// The explorer's read of the legacy (ternary) era beside IRI's node API: a transaction's decoded
// fields by its hash, for the pages' transaction view. One statement over schema legacy, which
// finds the transaction's month in legacy.transaction_locator, so that only that month's
// partition of legacy.transactions is read, and writes the JSON the route answers.
#include <httplib.h>

#include "server/json_errors.hpp"
#include "routes/legacy_request.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

// The month holding $1 (the locator: one row per transaction held) keys the partition: the
// executor prunes every other month once the locator's row is read (so a generic plan serves,
// prepared once); the time is ISO 8601 in UTC with milliseconds, the month as legacy.month_name
// writes it.
const char *const kTransactionSql = R"sql(
SELECT json_build_object(
    'hash', t.hash::text, 'address', t.address::text, 'value', t.value, 'tag', t.tag::text,
    'obsoleteTag', t.obsolete_tag::text, 'bundle', t.bundle::text, 'trunk', t.trunk::text,
    'branch', t.branch::text, 'currentIndex', t.current_index, 'lastIndex', t.last_index,
    'timestamp', t.timestamp, 'attachmentTimestamp', t.attachment_timestamp,
    'issuedAt', to_char(t.issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'month', legacy.month_name(t.month_id), 'milestoneIndex', t.milestone_index)::text
FROM legacy.transactions t
WHERE t.month_id = (SELECT l.month_id FROM legacy.transaction_locator l
                    WHERE l.hash = $1::permanode.trytes81)
  AND t.hash = $1::permanode.trytes81
)sql";

Task<> Transaction(const httplib::Request &, httplib::Response &response, Db &db,
                   const PathParams &path)
{
    static const auto statement = std::make_shared<const client::Statement>(
        client::Statement{"legacy_explorer_transaction", kTransactionSql, client::Plan::kGeneric});
    auto hash = iri::TransactionHashParam(path[0], "hash");
    client::Query<std::optional<std::string>> query;
    query.statement = statement;
    query.params.Add(hash);
    query.read = [](const client::Result &result)
    {
        return result.Rows() == 0 ? std::nullopt
                                  : std::optional<std::string>(std::string(result.Text(0, 0)));
    };
    auto json = co_await db.Run(std::move(query));
    if (!json)
    {
        throw NotFound("legacy transaction " + hash);
    }
    response.status = 200;
    response.set_content(*json, "application/json");
}

} // namespace

void RegisterLegacyExplorerRoutes(Router &router)
{
    router.Get({"/api/explorer/v2/legacy/transactions/{hash}", "explorer",
                "A legacy (ternary era) transaction's decoded fields by its hash (81 trytes): "
                "address, value, tags, bundle and its place in it, trunk, branch, times, its "
                "month and the milestone that confirmed it (null when not known)"},
               Transaction);
}

} // namespace permanode::http
