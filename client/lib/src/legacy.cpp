// The legacy (ternary) era, 2016-2021, in schema legacy: transactions by hash, the lookups of
// IRI's findTransactions (bundles, addresses, tags, approvees), confirmation, balances at a
// milestone and the Coordinator's milestones. Keyed reads take their keys as one array
// (`key = ANY ($1)`), which the Permanode Range Scan reads from the months holding any of them;
// they are custom-planned, so that the hints see the keys.
#include <map>

#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// The columns of a milestone row (legacy.milestones m) and their reader.
const char *const kMilestoneColumns =
    "m.milestone_index, m.hash::text, (extract(epoch FROM m.issued_at) * 1000)::bigint";

legacy::Milestone MilestoneOf(const Row &row, int first)
{
    legacy::Milestone milestone;
    milestone.index = row[first].as<std::int32_t>();
    milestone.hash = row[first + 1].as<std::string>();
    milestone.issued_at_ms = row[first + 2].as<std::int64_t>();
    return milestone;
}

// One answer per key, in the order asked: rows of (key, value) looked up by key, `missing` for
// the keys without a row.
template <typename T, typename ValueFn>
std::vector<T> ByKey(const Result &result, const std::vector<std::string> &keys, T missing,
                     ValueFn value_fn)
{
    std::map<std::string, T, std::less<>> found;
    for (int i = 0; i < result.Rows(); i++)
    {
        Row row(result, i);
        found.emplace(row[0].as<std::string>(), value_fn(row));
    }
    std::vector<T> out;
    out.reserve(keys.size());
    for (const auto &key : keys)
    {
        auto it = found.find(key);
        out.push_back(it == found.end() ? missing : it->second);
    }
    return out;
}

// One answer per row, in row order (statements that return one row per key, ORDER BY ord).
template <typename T, typename ValueFn>
std::vector<T> EachRow(const Result &result, ValueFn value_fn)
{
    std::vector<T> out;
    out.reserve(result.Rows());
    for (int i = 0; i < result.Rows(); i++)
    {
        out.push_back(value_fn(Row(result, i)));
    }
    return out;
}

} // namespace

namespace queries::legacy
{

Query<std::vector<std::optional<std::string>>> Trytes(const std::vector<std::string> &hashes)
{
    static const auto statement = MakeStatement(
        "legacy_trytes", "SELECT hash::text, legacy.trytes(t5b1) FROM "
                         "legacy.transactions WHERE hash = ANY ($1::permanode.trytes81[])");
    Query<std::vector<std::optional<std::string>>> query;
    query.statement = statement;
    query.params.Add(ArrayLiteral(hashes));
    query.read = [hashes](const Result &result)
    {
        return ByKey<std::optional<std::string>>(
            result, hashes, std::nullopt, [](const Row &row) { return row[1].as<std::string>(); });
    };
    return query;
}

Query<std::vector<std::string>> FindTransactions(const client::legacy::TransactionFilter &filter,
                                                 int limit)
{
    // Each field given is one set of transaction hashes, its parameter bound as it is written;
    // the answer is their intersection. A transaction is in one month and has one address,
    // bundle and tag, so only the approvees' set (a trunk and a branch) can name one twice.
    Query<std::vector<std::string>> query;
    std::vector<std::string> sets;
    auto param = [&query](const std::vector<std::string> &values, const char *type)
    {
        query.params.Add(ArrayLiteral(values));
        return "ANY ($" + std::to_string(query.params.Pointers().size()) + "::permanode." + type +
               "[])";
    };
    if (filter.bundles)
    {
        sets.push_back("SELECT transaction_hash FROM legacy.bundles WHERE bundle_hash = " +
                       param(*filter.bundles, "trytes81"));
    }
    if (filter.addresses)
    {
        std::string any = param(*filter.addresses, "trytes81");
        sets.push_back(
            "SELECT transaction_hash FROM legacy.edges WHERE address = " + any +
            " UNION ALL SELECT transaction_hash FROM legacy.zero_value WHERE address = " + any);
    }
    if (filter.tags)
    {
        sets.push_back("SELECT transaction_hash FROM legacy.tags WHERE tag = " +
                       param(*filter.tags, "trytes27"));
    }
    if (filter.approvees)
    {
        sets.push_back("SELECT DISTINCT transaction_hash FROM legacy.edges WHERE approvee = " +
                       param(*filter.approvees, "trytes81"));
    }
    std::string sql = "SELECT transaction_hash::text FROM (";
    for (std::size_t i = 0; i < sets.size(); i++)
    {
        sql += (i > 0 ? " INTERSECT (" : "(") + sets[i] + ")";
    }
    if (sets.empty())
    {
        sql += "SELECT NULL::permanode.trytes81 AS transaction_hash WHERE false";
    }
    query.params.AddInt(std::optional<int>(limit + 1));
    sql += ") s LIMIT $" + std::to_string(query.params.Pointers().size());
    query.statement = MakeStatement("legacy_find_transactions", std::move(sql));
    query.read = [](const Result &result) {
        return EachRow<std::string>(result,
                                    [](const Row &row) { return row[0].as<std::string>(); });
    };
    return query;
}

Query<std::vector<bool>> InclusionStates(const std::vector<std::string> &hashes)
{
    static const auto statement =
        MakeStatement("legacy_inclusion_states",
                      "SELECT hash::text, milestone_index IS NOT NULL FROM legacy.transactions "
                      "WHERE hash = ANY ($1::permanode.trytes81[])");
    Query<std::vector<bool>> query;
    query.statement = statement;
    query.params.Add(ArrayLiteral(hashes));
    query.read = [hashes](const Result &result) {
        return ByKey<bool>(result, hashes, false, [](const Row &row) { return row[1].as<bool>(); });
    };
    return query;
}

Query<std::vector<bool>> WereSpentFrom(const std::vector<std::string> &addresses)
{
    static const auto statement = MakeStatement(
        "legacy_were_spent_from",
        "SELECT legacy.was_spent_from(u.address) FROM unnest($1::permanode.trytes81[]) "
        "WITH ORDINALITY u(address, ord) ORDER BY u.ord");
    Query<std::vector<bool>> query;
    query.statement = statement;
    query.params.Add(ArrayLiteral(addresses));
    query.read = [](const Result &result)
    { return EachRow<bool>(result, [](const Row &row) { return row[0].as<bool>(); }); };
    return query;
}

Query<std::vector<std::int64_t>> Balances(const std::vector<std::string> &addresses,
                                          std::optional<std::int32_t> milestone_index)
{
    static const auto statement = MakeStatement(
        "legacy_balances", "SELECT legacy.balance(u.address, $2::int) FROM "
                           "unnest($1::permanode.trytes81[]) WITH ORDINALITY u(address, ord) "
                           "ORDER BY u.ord");
    Query<std::vector<std::int64_t>> query;
    query.statement = statement;
    query.params.Add(ArrayLiteral(addresses));
    query.params.AddInt(milestone_index);
    query.read = [](const Result &result) {
        return EachRow<std::int64_t>(result,
                                     [](const Row &row) { return row[0].as<std::int64_t>(); });
    };
    return query;
}

Query<std::optional<client::legacy::Milestone>> MilestoneAt(std::optional<std::int32_t> index)
{
    static const auto statement = MakeStatement(
        "legacy_milestone",
        std::string("SELECT ") + kMilestoneColumns +
            " FROM legacy.milestones m WHERE m.milestone_index = coalesce($1::int, (SELECT "
            "max(milestone_index) FROM legacy.milestones))",
        Plan::kGeneric);
    Query<std::optional<client::legacy::Milestone>> query;
    query.statement = statement;
    query.params.AddInt(index);
    query.read = [](const Result &result)
    { return FirstRow(result, [](const Row &row) { return MilestoneOf(row, 0); }); };
    return query;
}

Query<client::legacy::Milestones> MilestoneRange()
{
    static const auto statement = MakeStatement(
        "legacy_milestone_range",
        std::string("SELECT (SELECT min(milestone_index) FROM legacy.milestones), (SELECT value "
                    "FROM permanode.settings WHERE key = 'legacy_coordinator'), ") +
            kMilestoneColumns +
            " FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM legacy.milestones ORDER BY "
            "milestone_index DESC LIMIT 1) m ON true",
        Plan::kGeneric);
    Query<client::legacy::Milestones> query;
    query.statement = statement;
    query.read = [](const Result &result)
    {
        Row row(result, 0);
        client::legacy::Milestones milestones;
        milestones.first_index = row[0].optional<std::int32_t>();
        milestones.coordinator = row[1].optional<std::string>().value_or("");
        if (!row[2].is_null())
        {
            milestones.latest = MilestoneOf(row, 2);
        }
        return milestones;
    };
    return query;
}

} // namespace queries::legacy
} // namespace permanode::client
