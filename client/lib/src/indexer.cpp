// Indexer queries (IOTA indexer v1 filters) over the unspent set or over all outputs.
//
// Each call's statement is built from fixed fragments for its target (the unspent set, or one
// kind's history table) with only the filters that are set, so the statement is short and the
// planner has no `($n IS NULL OR ...)` branches to fold. Parameters: $1 the kind, then one per
// set filter in the order of kFilters, then the cursor's four (when there is a cursor), then the
// row limit. User input is only ever bound, never spliced into the SQL.
#include "internal.hpp"
#include "permanode/queries.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

namespace permanode::client
{
using namespace internal;

namespace
{

enum Target
{
    kUnspent,
    kBasicTable,
    kAliasTable,
    kFoundryTable,
    kNftTable,
    kTargetCount
};

const char *const kTables[kTargetCount] = {"unspent_outputs", "basic_outputs", "alias_outputs",
                                           "foundry_outputs", "nft_outputs"};

// One filter: its indexer name, its parameter's SQL type, its condition (`@` stands for the
// column, `$` for the parameter) and the column per target (nullptr: the kind lacks it).
struct FilterSpec
{
    const char *name;
    const char *type;
    const char *condition;
    std::array<const char *, kTargetCount> columns;
};

constexpr const char *kAll = "*";

const FilterSpec kFilters[] = {
    {"address", "permanode.address", "@ = $", {"address", "address", nullptr, nullptr, "address"}},
    {"hasNativeTokens", "bool", "(@ > 0) = $", {kAll, kAll, kAll, kAll, kAll}},
    {"minNativeTokenCount", "int", "@ >= $", {kAll, kAll, kAll, kAll, kAll}},
    {"maxNativeTokenCount", "int", "@ <= $", {kAll, kAll, kAll, kAll, kAll}},
    {"hasStorageDepositReturn",
     "bool",
     "(@ IS NOT NULL) = $",
     {"dust_return_address", "dust_return_address", nullptr, nullptr, "dust_return_address"}},
    {"storageDepositReturnAddress",
     "permanode.address",
     "@ = $",
     {"dust_return_address", "dust_return_address", nullptr, nullptr, "dust_return_address"}},
    {"hasExpiration",
     "bool",
     "(@ IS NOT NULL) = $",
     {"expiration", "expiration", nullptr, nullptr, "expiration"}},
    {"expiresBefore",
     "bigint",
     "@ < to_timestamp($)",
     {"expiration", "expiration", nullptr, nullptr, "expiration"}},
    {"expiresAfter",
     "bigint",
     "@ > to_timestamp($)",
     {"expiration", "expiration", nullptr, nullptr, "expiration"}},
    {"expirationReturnAddress",
     "permanode.address",
     "@ = $",
     {"expiration_return_address", "expiration_return_address", nullptr, nullptr,
      "expiration_return_address"}},
    {"hasTimelock",
     "bool",
     "(@ IS NOT NULL) = $",
     {"timelock", "timelock", nullptr, nullptr, "timelock"}},
    {"timelockedBefore",
     "bigint",
     "@ < to_timestamp($)",
     {"timelock", "timelock", nullptr, nullptr, "timelock"}},
    {"timelockedAfter",
     "bigint",
     "@ > to_timestamp($)",
     {"timelock", "timelock", nullptr, nullptr, "timelock"}},
    {"sender", "permanode.address", "@ = $", {"sender", "sender", "sender", nullptr, "sender"}},
    {"tag", "bytea", "@ = $", {"tag", "tag", nullptr, nullptr, "tag"}},
    {"issuer", "permanode.address", "@ = $", {"issuer", nullptr, "issuer", nullptr, "issuer"}},
    {"stateController",
     "permanode.address",
     "@ = $",
     {"state_controller", nullptr, "state_controller", nullptr, nullptr}},
    {"governor", "permanode.address", "@ = $", {"governor", nullptr, "governor", nullptr, nullptr}},
    {"aliasAddress",
     "permanode.address",
     "@ = $",
     {"address", nullptr, nullptr, "address", nullptr}},
    {"createdBefore", "bigint", "@ < to_timestamp($)", {kAll, kAll, kAll, kAll, kAll}},
    {"createdAfter", "bigint", "@ > to_timestamp($)", {kAll, kAll, kAll, kAll, kAll}},
    {"unlockableByAddress", "permanode.address", "@", {kAll, kAll, kAll, kAll, kAll}},
};
constexpr int kFilterCount = sizeof(kFilters) / sizeof(kFilters[0]);

// The column of a `*` filter whose column name is not the filter's (but unlockableByAddress).
std::string DefaultColumn(const std::string &name)
{
    if (name == "hasNativeTokens" || name == "minNativeTokenCount" || name == "maxNativeTokenCount")
    {
        return "native_token_count";
    }
    return "ms_timestamp"; // createdBefore, createdAfter
}

// The ledger's own time: the timestamp of the newest milestone the archive holds (the page's
// ledgerIndex), never the wall clock. Every block a milestone references carries its timestamp,
// and a milestone references at least its predecessor's milestone block. The Range Scan on
// messages reads that milestone's range (and the pending one) only.
constexpr const char *kLedgerTime =
    "(SELECT m.ms_timestamp FROM permanode.messages m WHERE m.milestone_index = "
    "(SELECT max(milestone_index) FROM permanode.sync) LIMIT 1)";

// unlockableByAddress: the address conditions that let an address unlock the output now. An
// expiration unlock condition (TIP-18) hands the output from its address to the return address
// at its time: the address unlocks it before, the return address at or after. The first
// conjunct is what the unspent set's indexes serve (a BitmapOr); the second picks, for an output
// with an expiration, the one of the two that unlocks it at the ledger's time.
std::string UnlockableCondition(Target target)
{
    const std::string unlocker = std::string("CASE WHEN o.expiration <= ") + kLedgerTime +
                                 " THEN o.expiration_return_address ELSE o.address END = $";
    switch (target)
    {
        case kUnspent:
            return "(o.address = $ OR o.state_controller = $ OR o.governor = $ OR "
                   "o.expiration_return_address = $) AND (o.state_controller = $ OR "
                   "o.governor = $ OR " +
                   unlocker + ")";
        case kBasicTable:
        case kNftTable:
            return "(o.address = $ OR o.expiration_return_address = $) AND " + unlocker;
        case kAliasTable:
            return "(o.state_controller = $ OR o.governor = $)";
        default:
            return "o.address = $";
    }
}

std::string Replace(std::string text, char mark, const std::string &with)
{
    std::string out;
    for (char c : text)
    {
        if (c == mark)
        {
            out += with;
        }
        else
        {
            out += c;
        }
    }
    return out;
}

// The statement of one target for the filters marked in `set` (kFilters order), with the
// keyset condition when `cursor`.
std::string BuildQuery(Target target, const std::array<bool, kFilterCount> &set, bool cursor)
{
    int next_param = 2;
    std::string sql = "SELECT o.output_id::text, ";
    sql += target == kUnspent ? "0" : "o.ms_range_id";
    sql += ", " + Micros("o.ms_timestamp") +
           ", o.milestone_index, (SELECT coalesce(max(milestone_index), 0) FROM "
           "permanode.sync) FROM permanode." +
           std::string(kTables[target]) + " o WHERE ";
    sql += target == kUnspent ? "o.output_kind = $1" : "$1::text IS NOT NULL";
    for (int i = 0; i < kFilterCount; i++)
    {
        if (!set[i])
        {
            continue;
        }
        const FilterSpec &f = kFilters[i];
        std::string param = "$" + std::to_string(next_param++);
        std::string typed = param + "::" + f.type;
        const char *column = f.columns[target];
        if (column == nullptr)
        {
            sql += " AND " + typed + " IS NULL"; // rejected before: never reached
            continue;
        }
        std::string condition;
        if (std::string(f.name) == "unlockableByAddress")
        {
            condition = Replace(UnlockableCondition(target), '$', typed);
        }
        else
        {
            std::string col = column == kAll ? DefaultColumn(f.name) : column;
            condition = Replace(Replace(f.condition, '@', "o." + col), '$', typed);
        }
        sql += " AND " + condition;
    }
    auto p = [](int n) { return "$" + std::to_string(n); };
    int c = next_param;
    if (cursor)
    {
        next_param += 4;
    }
    if (target == kUnspent)
    {
        if (cursor)
        {
            sql += " AND " + p(c) +
                   "::int IS NOT NULL AND (o.ms_timestamp, o.milestone_index, o.output_id) "
                   "< (timestamptz 'epoch' + " +
                   p(c + 1) + "::bigint * interval '1 microsecond', " + p(c + 2) + "::int, " +
                   p(c + 3) + "::permanode.output_id)";
        }
        sql += " ORDER BY o.ms_timestamp DESC, o.milestone_index DESC, o.output_id DESC";
    }
    else
    {
        if (cursor)
        {
            sql +=
                " AND " + KeysetCondition(c, "o.ms_range_id", "o.ms_timestamp", "o.milestone_index",
                                          "o.output_id", "permanode.output_id");
        }
        sql += " ORDER BY o.ms_range_id DESC, o.ms_timestamp DESC, o.milestone_index DESC, "
               "o.output_id DESC";
    }
    return sql + " LIMIT " + p(next_param);
}

Target TableOf(OutputKind kind)
{
    switch (kind)
    {
        case OutputKind::kBasic:
            return kBasicTable;
        case OutputKind::kAlias:
            return kAliasTable;
        case OutputKind::kFoundry:
            return kFoundryTable;
        case OutputKind::kNft:
            return kNftTable;
    }
    return kBasicTable;
}

// The filter values in kFilters order.
std::array<bool, kFilterCount> SetFilters(const OutputFilter &f)
{
    return {f.address.has_value(),
            f.has_native_tokens.has_value(),
            f.min_native_token_count.has_value(),
            f.max_native_token_count.has_value(),
            f.has_storage_deposit_return.has_value(),
            f.storage_deposit_return_address.has_value(),
            f.has_expiration.has_value(),
            f.expires_before.has_value(),
            f.expires_after.has_value(),
            f.expiration_return_address.has_value(),
            f.has_timelock.has_value(),
            f.timelocked_before.has_value(),
            f.timelocked_after.has_value(),
            f.sender.has_value(),
            f.tag.has_value(),
            f.issuer.has_value(),
            f.state_controller.has_value(),
            f.governor.has_value(),
            f.alias_address.has_value(),
            f.created_before.has_value(),
            f.created_after.has_value(),
            f.unlockable_by_address.has_value()};
}

void AddFilters(Params &params, const OutputFilter &f)
{
    params.Add(f.address);
    params.Add(f.has_native_tokens);
    params.AddInt(f.min_native_token_count);
    params.AddInt(f.max_native_token_count);
    params.Add(f.has_storage_deposit_return);
    params.Add(f.storage_deposit_return_address);
    params.Add(f.has_expiration);
    params.AddInt(f.expires_before);
    params.AddInt(f.expires_after);
    params.Add(f.expiration_return_address);
    params.Add(f.has_timelock);
    params.AddInt(f.timelocked_before);
    params.AddInt(f.timelocked_after);
    params.Add(f.sender);
    // bytea text input takes \x-hex; the tag arrives as 0x-hex.
    params.Add(f.tag ? std::optional<std::string>("\\x" + f.tag->substr(2)) : std::nullopt);
    params.Add(f.issuer);
    params.Add(f.state_controller);
    params.Add(f.governor);
    params.Add(f.alias_address);
    params.AddInt(f.created_before);
    params.AddInt(f.created_after);
    params.Add(f.unlockable_by_address);
}

// The statement for a target, its set filters and whether a cursor follows. Statements are
// built once per shape and kept, up to kMaxKept shapes (callers choose the filters, so the
// shapes are not bounded by us; in practice a few are used).
std::shared_ptr<const Statement> IndexerStatement(Target target,
                                                  const std::array<bool, kFilterCount> &set,
                                                  bool cursor, int set_count, int only)
{
    static std::mutex mutex;
    static std::map<std::tuple<Target, std::uint32_t, bool>, std::shared_ptr<const Statement>>
        built;
    std::uint32_t mask = 0;
    for (int i = 0; i < kFilterCount; i++)
    {
        mask |= set[i] ? 1U << i : 0;
    }
    auto key = std::make_tuple(target, mask, cursor);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = built.find(key);
    if (it != built.end())
    {
        return it->second;
    }
    std::string sql = BuildQuery(target, set, cursor);
    std::shared_ptr<const Statement> statement;
    if (cursor || set_count > 1)
    {
        statement = MakeStatement("indexer_custom", std::move(sql));
    }
    else
    {
        // A first page with at most one filter (the common case: one address) is a plain
        // index lookup that a reused plan serves as well as a fresh one; naming it saves
        // planning per call. At most 5 targets x 23 of these per connection.
        statement = MakeStatement(std::string("indexer_") + kTables[target] + "_" +
                                      (only < 0 ? std::string("all") : std::to_string(only)),
                                  std::move(sql), Plan::kGeneric);
    }
    constexpr std::size_t kMaxKept = 1024;
    if (built.size() >= kMaxKept)
    {
        return statement;
    }
    return built.emplace(key, std::move(statement)).first->second;
}

} // namespace

const char *UnsupportedFilter(OutputKind kind, const OutputFilter &filter)
{
    auto set = SetFilters(filter);
    Target target = TableOf(kind);
    for (int i = 0; i < kFilterCount; i++)
    {
        if (set[i] && kFilters[i].columns[target] == nullptr)
        {
            return kFilters[i].name;
        }
    }
    return nullptr;
}

namespace queries
{

Query<OutputIdPage> Outputs(OutputKind kind, const OutputFilter &filter, bool include_spent,
                            int page_size, const std::optional<Cursor> &after)
{
    if (const char *name = UnsupportedFilter(kind, filter))
    {
        throw Error(std::string("filter ") + name + " does not apply to " + ToString(kind) +
                        " outputs",
                    "22023");
    }
    Target target = include_spent ? TableOf(kind) : kUnspent;
    // Every filter's value (NULL when unset), then only the set ones are bound.
    Params filters;
    AddFilters(filters, filter);
    std::array<bool, kFilterCount> set{};
    Query<OutputIdPage> query;
    query.params.Add(std::string(ToString(kind)));
    int set_count = 0;
    int only = -1;
    for (int i = 0; i < kFilterCount; i++)
    {
        const char *value = filters.Pointers()[i];
        set[i] = value != nullptr;
        if (set[i])
        {
            query.params.Add(std::string(value));
            set_count++;
            only = i;
        }
    }
    if (after)
    {
        query.params.Add(after);
    }
    query.params.Add(std::to_string(page_size + 1));
    query.statement = IndexerStatement(target, set, after.has_value(), set_count, only);
    query.read = [page_size](const Result &result)
    {
        OutputIdPage page;
        auto rows = IdPage(result, page_size);
        page.items = std::move(rows.items);
        page.next = std::move(rows.next);
        page.ledger_index = result.Rows() == 0 ? 0 : Row(result, 0)[4].as<std::int32_t>();
        return page;
    };
    return query;
}

Query<std::optional<std::string>> ChainOutput(OutputKind kind, const std::string &id)
{
    static const auto chain_output =
        MakeStatement("chain_output", "SELECT output_id::text FROM permanode.unspent_outputs "
                                      "WHERE output_kind = $1 AND chain_id = $2::permanode.hash32 "
                                      "LIMIT 1");
    static const auto foundry_output = MakeStatement(
        "foundry_output", "SELECT output_id::text FROM permanode.unspent_outputs "
                          "WHERE output_kind = 'foundry' AND foundry_id = $1 LIMIT 1");
    Query<std::optional<std::string>> query;
    if (kind == OutputKind::kFoundry)
    {
        query.statement = foundry_output;
    }
    else
    {
        query.statement = chain_output;
        query.params.Add(std::string(ToString(kind)));
    }
    query.params.Add(id);
    query.read = FirstText;
    return query;
}

} // namespace queries

OutputIdPage Client::QueryOutputs(OutputKind kind, const OutputFilter &filter, bool include_spent,
                                  int page_size, const std::optional<Cursor> &after)
{
    auto page = Run(queries::Outputs(kind, filter, include_spent, page_size, after));
    if (page.items.empty())
    {
        page.ledger_index = GetLedgerIndex();
    }
    return page;
}

std::optional<std::string> Client::GetChainOutput(OutputKind kind, const std::string &id)
{
    return Run(queries::ChainOutput(kind, id));
}

} // namespace permanode::client
