// Ledger analytics over every address: the richest addresses and the token distribution, now or
// at the end of a past milestone.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// The ledger index the answer is at: $1, or the newest milestone held.
const char *const kLedgerIndex = "coalesce($1::int, (SELECT max(p.milestone_index) FROM "
                                 "permanode.milestone_protocols p), 0)";

// Each address's balance (columns address, balance) over the unspent outputs whose `address` it
// is: now, the unspent set's Stardust outputs; at the end of milestone $1, outputs_at()'s rows for
// every address at once (the unspent set's outputs created by then and the retired ones alive
// then, of that milestone's era), read whole as no one address keys them.
std::string BalancesSql(bool as_of)
{
    if (!as_of)
    {
        return "SELECT u.address, sum(u.amount) AS balance FROM permanode.unspent_outputs u "
               "WHERE u.address IS NOT NULL AND u.output_kind <> 'legacy' GROUP BY u.address";
    }
    return "WITH n AS MATERIALIZED (SELECT $1::int AS at, coalesce(permanode.protocol_at($1), 2) "
           "= 1 AS chrysalis, permanode.milestone_time($1) AS at_time) "
           "SELECT o.address, sum(o.amount) AS balance FROM (SELECT u.address, u.amount FROM n, "
           "permanode.unspent_outputs u WHERE u.address IS NOT NULL AND u.milestone_index <= "
           "n.at AND u.ms_timestamp <= n.at_time AND (u.output_kind = 'legacy') = n.chrysalis "
           "UNION ALL SELECT r.address, r.amount FROM n, permanode.retired_outputs r WHERE "
           "r.address IS NOT NULL AND r.milestone_index <= n.at AND r.spent_milestone_index > "
           "n.at AND (r.output_kind = 'legacy') = n.chrysalis) o GROUP BY o.address";
}

// The ledger index, then the rows of `rows` (over the balances b), or one row of NULLs when it
// has none.
std::string WithLedgerIndex(const std::string &rows)
{
    return std::string("SELECT ") + kLedgerIndex + ", r.* FROM (SELECT 1) one LEFT JOIN LATERAL (" +
           rows + ") r ON true";
}

std::string RichestSql(bool as_of)
{
    return WithLedgerIndex("SELECT b.address::text, b.balance::bigint FROM (" + BalancesSql(as_of) +
                           ") b ORDER BY b.balance DESC, b.address::text COLLATE \"C\" LIMIT $2");
}

// Buckets by the balance's decimal digits: [10^e, 10^(e+1)) holds the balances of e + 1 digits.
std::string DistributionSql(bool as_of)
{
    return WithLedgerIndex("SELECT length(b.balance::text) - 1 AS exponent, count(*), "
                           "sum(b.balance)::bigint FROM (" +
                           BalancesSql(as_of) + ") b WHERE b.balance > 0 GROUP BY 1 ORDER BY 1");
}

} // namespace

namespace queries
{

Query<RichestAddresses> RichestAddressesAt(std::optional<std::int32_t> as_of, int top)
{
    static const auto now = MakeStatement("richest_addresses", RichestSql(false));
    static const auto at = MakeStatement("richest_addresses_at", RichestSql(true));
    Query<RichestAddresses> query;
    query.statement = as_of ? at : now;
    query.params.AddInt(as_of);
    query.params.Add(std::to_string(top));
    query.read = [](const Result &result)
    {
        RichestAddresses richest;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            richest.ledger_index = row[0].as<std::int32_t>();
            if (!row[1].is_null())
            {
                richest.top.push_back({row[1].as<std::string>(), row[2].as<std::int64_t>()});
            }
        }
        return richest;
    };
    return query;
}

Query<TokenDistribution> TokenDistributionAt(std::optional<std::int32_t> as_of)
{
    static const auto now = MakeStatement("token_distribution", DistributionSql(false));
    static const auto at = MakeStatement("token_distribution_at", DistributionSql(true));
    Query<TokenDistribution> query;
    query.statement = as_of ? at : now;
    query.params.AddInt(as_of);
    query.read = [](const Result &result)
    {
        TokenDistribution distribution;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            distribution.ledger_index = row[0].as<std::int32_t>();
            if (!row[1].is_null())
            {
                distribution.buckets.push_back(
                    {row[1].as<int>(), row[2].as<std::int64_t>(), row[3].as<std::int64_t>()});
            }
        }
        return distribution;
    };
    return query;
}

} // namespace queries

RichestAddresses Client::GetRichestAddresses(std::optional<std::int32_t> as_of, int top)
{
    return Run(queries::RichestAddressesAt(as_of, top));
}

TokenDistribution Client::GetTokenDistribution(std::optional<std::int32_t> as_of)
{
    return Run(queries::TokenDistributionAt(as_of));
}

} // namespace permanode::client
