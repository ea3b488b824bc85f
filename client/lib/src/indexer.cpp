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
    "(SELECT max(milestone_index) FROM permanode.milestone_protocols) LIMIT 1)";

// unlockableByAddress: the address conditions that let an address unlock the output at `time`.
// An expiration unlock condition (TIP-18) hands the output from its address to the return
// address at its time: the address unlocks it before, the return address at or after. The first
// conjunct is what the unspent set's indexes serve (a BitmapOr); the second picks, for an output
// with an expiration, the one of the two that unlocks it at that time.
std::string UnlockableCondition(Target target, const std::string &time)
{
    const std::string unlocker = "CASE WHEN o.expiration <= " + time +
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

std::string Param(int n)
{
    return "$" + std::to_string(n);
}

// The keyset condition of an unspent-set page (its order has no range), parameters $c..$c+3.
std::string UnspentKeyset(int c)
{
    return " AND " + Param(c) +
           "::int IS NOT NULL AND (o.ms_timestamp, o.milestone_index, o.output_id) "
           "< (timestamptz 'epoch' + " +
           Param(c + 1) + "::bigint * interval '1 microsecond', " + Param(c + 2) + "::int, " +
           Param(c + 3) + "::permanode.output_id)";
}

// The conditions (" AND ...") of the filters marked in `set` (kFilters order) on `o`, their
// parameters numbered from `next_param` on (advanced past them); `param_of` gets each one's.
// `time`: the ledger time unlockableByAddress is evaluated at.
std::string FilterConditions(Target target, const std::array<bool, kFilterCount> &set,
                             const std::string &time, int &next_param,
                             std::array<int, kFilterCount> &param_of)
{
    std::string sql;
    for (int i = 0; i < kFilterCount; i++)
    {
        if (!set[i])
        {
            continue;
        }
        const FilterSpec &f = kFilters[i];
        param_of[i] = next_param;
        std::string typed = Param(next_param++) + "::" + f.type;
        const char *column = f.columns[target];
        if (column == nullptr)
        {
            sql += " AND " + typed + " IS NULL"; // rejected before: never reached
            continue;
        }
        std::string condition;
        if (std::string(f.name) == "unlockableByAddress")
        {
            condition = Replace(UnlockableCondition(target, time), '$', typed);
        }
        else
        {
            std::string col = column == kAll ? DefaultColumn(f.name) : column;
            condition = Replace(Replace(f.condition, '@', "o." + col), '$', typed);
        }
        sql += " AND " + condition;
    }
    return sql;
}

// The statement of one target for the filters marked in `set` (kFilters order), with the
// keyset condition when `cursor`. `as_of` (history tables only): the outputs created by a
// milestone, the last parameter, after the limit.
std::string BuildQuery(Target target, const std::array<bool, kFilterCount> &set, bool cursor,
                       bool as_of)
{
    int next_param = 2;
    std::array<int, kFilterCount> param_of{};
    const std::string time = as_of ? "permanode.milestone_time(\x02)" : kLedgerTime;
    std::string sql = "SELECT o.output_id::text, ";
    sql += target == kUnspent ? "0" : "o.ms_range_id";
    sql +=
        ", " + Micros("o.ms_timestamp") + ", o.milestone_index, " +
        (as_of ? std::string("\x02")
               : "(SELECT coalesce(max(milestone_index), 0) FROM permanode.milestone_protocols)") +
        " FROM permanode." + kTables[target] + " o WHERE ";
    sql += target == kUnspent ? "o.output_kind = $1" : "$1::text IS NOT NULL";
    sql += FilterConditions(target, set, time, next_param, param_of);
    if (as_of)
    {
        sql += " AND o.milestone_index <= \x02";
    }
    int c = next_param;
    if (cursor)
    {
        next_param += 4;
    }
    if (target == kUnspent)
    {
        if (cursor)
        {
            sql += UnspentKeyset(c);
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
    sql += " LIMIT " + Param(next_param);
    return Replace(sql, '\x02', Param(next_param + 1) + "::int");
}

// The filters whose key has a span index on retired_outputs (84_as_of.sql): the column and the
// key's hash function.
struct SpanKey
{
    const char *filter;
    const char *column;
    const char *hash;
};
const SpanKey kSpanKeys[] = {
    {"address", "address", "permanode.address_hash"},
    {"sender", "sender", "permanode.address_hash"},
    {"tag", "tag", "permanode.tag_hash"},
    {"issuer", "issuer", "permanode.address_hash"},
    {"stateController", "state_controller", "permanode.address_hash"},
    {"governor", "governor", "permanode.address_hash"},
    {"storageDepositReturnAddress", "dust_return_address", "permanode.address_hash"},
    {"expirationReturnAddress", "expiration_return_address", "permanode.address_hash"},
    {"aliasAddress", "address", "permanode.address_hash"},
};

// A retired output o of a key column as its span index's point (84_as_of.sql).
std::string SpanPoint(const std::string &column, const std::string &hash)
{
    return "permanode.span_point(" + hash + "(o." + column +
           "), o.milestone_index, o.spent_milestone_index)";
}

// "Key `key` alive at milestone `at`" on retired_outputs o, as its span index reads it.
std::string SpanIn(const std::string &column, const std::string &hash, const std::string &key,
                   const std::string &at)
{
    return SpanPoint(column, hash) + " <@ permanode.span_box(" + hash + "(" + key + "), " + at +
           ", 0, " + at + ")";
}

// The key a page's retired outputs are read by, newest first, from its span index.
struct OrderKey
{
    std::string column;
    std::string hash;
    std::string value;
};

// The first key filter of a page, or, with none, the output kind; none when the page's only key
// is unlockableByAddress (four keys, ORed: their probes are merged and sorted instead).
std::optional<OrderKey> PageOrderKey(const std::array<bool, kFilterCount> &set,
                                     const std::array<int, kFilterCount> &param_of)
{
    bool unlockable = false;
    for (int i = 0; i < kFilterCount; i++)
    {
        if (!set[i])
        {
            continue;
        }
        std::string name = kFilters[i].name;
        unlockable = unlockable || name == "unlockableByAddress";
        for (const SpanKey &k : kSpanKeys)
        {
            if (name == k.filter)
            {
                return OrderKey{k.column, k.hash, Param(param_of[i]) + "::" + kFilters[i].type};
            }
        }
    }
    if (unlockable)
    {
        return std::nullopt;
    }
    return OrderKey{"output_kind", "hashtext", "$1::text"};
}

// unlockableByAddress's four keys alive at `at` (any of them), for a page without another key.
std::string UnlockableSpans(const std::array<bool, kFilterCount> &set,
                            const std::array<int, kFilterCount> &param_of, const std::string &at)
{
    for (int i = 0; i < kFilterCount; i++)
    {
        if (set[i] && std::string(kFilters[i].name) == "unlockableByAddress")
        {
            std::string key = Param(param_of[i]) + "::" + kFilters[i].type;
            std::string any;
            for (const char *column :
                 {"address", "state_controller", "governor", "expiration_return_address"})
            {
                any +=
                    (any.empty() ? "" : " OR ") + SpanIn(column, "permanode.address_hash", key, at);
            }
            return " AND (" + any + ")";
        }
    }
    return "";
}

// The statement of an indexer page as of a milestone: the unspent set's outputs created by
// then, and retired_outputs' alive then, each branch in its own index order with the page's
// limit, merged. The retired branch reads its key's span index by distance (KNN): newest first,
// stopping after a page; the outputs of the page's oldest milestone are then read whole, as the
// distance does not order them by ID. The milestone is the last parameter, after the limit.
// `index_order` tells whether the statement needs Statement::index_order.
std::string BuildAsOfQuery(const std::array<bool, kFilterCount> &set, bool cursor,
                           bool &index_order)
{
    int next_param = 2;
    std::array<int, kFilterCount> param_of{};
    // unlockableByAddress at the milestone's time; its parameter (\x02) is numbered last.
    const std::string filters =
        FilterConditions(kUnspent, set, "permanode.milestone_time(\x02)", next_param, param_of);
    const int c = next_param;
    if (cursor)
    {
        next_param += 4;
    }
    const std::string limit = Param(next_param);
    const std::string at = Param(next_param + 1) + "::int";
    const std::string keyset = cursor ? UnspentKeyset(c) : "";
    const std::string columns = "o.output_id, o.ms_timestamp, o.milestone_index";
    const std::string page_order =
        " ORDER BY o.ms_timestamp DESC, o.milestone_index DESC, o.output_id DESC LIMIT " + limit;
    // Created by the milestone: its index, and its time (which bounds the time-ordered indexes).
    const std::string created = " AND o.milestone_index <= " + at;
    const std::string unspent =
        "(SELECT " + columns + " FROM permanode.unspent_outputs o WHERE o.output_kind = $1" +
        filters + created + " AND o.ms_timestamp <= " + "permanode.milestone_time(" + at + ")" +
        keyset + page_order + ")";
    std::string retired;
    std::optional<OrderKey> key = PageOrderKey(set, param_of);
    index_order = key.has_value();
    if (key)
    {
        // After a cursor, from its milestone down.
        const std::string upto = cursor ? "least(" + at + ", " + Param(c + 2) + "::int)" : at;
        retired = RetiredNewestFirst(columns, " AND o.output_kind = $1" + filters + keyset,
                                     SpanPoint(key->column, key->hash),
                                     key->hash + "(" + key->value + ")", at, upto, limit);
    }
    else
    {
        retired = "(SELECT " + columns +
                  " FROM permanode.retired_outputs o WHERE "
                  "o.output_kind = $1" +
                  filters + created + " AND o.spent_milestone_index > " + at +
                  UnlockableSpans(set, param_of, at) + keyset + page_order + ")";
    }
    std::string sql = "SELECT p.output_id::text, 0, " + Micros("p.ms_timestamp") +
                      ", p.milestone_index, " + at + " FROM (" + unspent + " UNION ALL " + retired +
                      ") p ORDER BY p.ms_timestamp DESC, p.milestone_index DESC, "
                      "p.output_id DESC LIMIT " +
                      limit;
    return Replace(sql, '\x02', at);
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
                                                  bool cursor, bool as_of, int set_count, int only)
{
    static std::mutex mutex;
    static std::map<std::tuple<Target, std::uint32_t, bool, bool>, std::shared_ptr<const Statement>>
        built;
    std::uint32_t mask = 0;
    for (int i = 0; i < kFilterCount; i++)
    {
        mask |= set[i] ? 1U << i : 0;
    }
    auto key = std::make_tuple(target, mask, cursor, as_of);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = built.find(key);
    if (it != built.end())
    {
        return it->second;
    }
    bool index_order = false;
    std::string sql = as_of && target == kUnspent ? BuildAsOfQuery(set, cursor, index_order)
                                                  : BuildQuery(target, set, cursor, as_of);
    std::shared_ptr<const Statement> statement;
    if (cursor || set_count > 1 || as_of)
    {
        // An as-of page in index order: one plan per shape and connection (index_order).
        statement =
            index_order
                ? MakeStatement("indexer_as_of_" + std::to_string(mask) + (cursor ? "_after" : ""),
                                std::move(sql), Plan::kGeneric, true)
                : MakeStatement("indexer_custom", std::move(sql));
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
    if (filter.as_of)
    {
        query.params.Add(std::to_string(*filter.as_of));
    }
    query.statement =
        IndexerStatement(target, set, after.has_value(), filter.as_of.has_value(), set_count, only);
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

Query<std::optional<std::string>> ChainOutput(OutputKind kind, const std::string &id,
                                              std::optional<std::int32_t> as_of)
{
    // The chain's output unspent at the end of milestone $3 (default: the newest): in the
    // unspent set, or retired since (its key's span index finds it).
    auto sql = [](const std::string &column, const std::string &type, const std::string &hash)
    {
        const std::string key = "$2::permanode." + type;
        const std::string at =
            "coalesce($3::int, (SELECT max(milestone_index) FROM permanode.milestone_protocols))";
        return "SELECT output_id::text FROM (SELECT output_id FROM permanode.unspent_outputs o "
               "WHERE output_kind = $1 AND " +
               column + " = " + key + " AND milestone_index <= " + at +
               " UNION ALL SELECT output_id FROM permanode.retired_outputs o WHERE " +
               SpanIn(column, hash, key, at) + " AND " + column + " = " + key +
               " AND output_kind = $1 AND milestone_index <= " + at +
               " AND spent_milestone_index > " + at + ") c LIMIT 1";
    };
    static const auto chain_output =
        MakeStatement("chain_output", sql("chain_id", "hash32", "permanode.hash32_hash"));
    static const auto foundry_output = MakeStatement(
        "foundry_output", sql("foundry_id", "foundry_id", "permanode.foundry_id_hash"));
    Query<std::optional<std::string>> query;
    query.statement = kind == OutputKind::kFoundry ? foundry_output : chain_output;
    query.params.Add(std::string(ToString(kind)));
    query.params.Add(id);
    query.params.AddInt(as_of);
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
        page.ledger_index = filter.as_of ? *filter.as_of : GetLedgerIndex();
    }
    return page;
}

std::optional<std::string> Client::GetChainOutput(OutputKind kind, const std::string &id,
                                                  std::optional<std::int32_t> as_of)
{
    return Run(queries::ChainOutput(kind, id, as_of));
}

} // namespace permanode::client
