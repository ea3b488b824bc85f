/*
 * statements.cpp
 *	  Ingest's SQL, one set-based statement per table: the rows arrive as parallel arrays and
 *	  are expanded with unnest(). Rows that only their milestone writes (blocks, their parents,
 *	  tags and transaction parts, block_locator, outputs, spends, the unspent set, the address
 *	  analytics) are inserted without ON CONFLICT: the milestone lock and sync row keep a
 *	  milestone from being written twice, and ON CONFLICT would probe each unique index before
 *	  every insert, which cost a fifth of ingest. A block in two milestones' cones then fails on
 *	  a unique key (23505), as invalid input. Rows that several milestones share (hints, chain
 *	  and transaction locators, metrics) keep ON CONFLICT; the output locator is an upsert
 *	  because a creation and its spend may arrive in either order. Plans are generic from the
 *	  start, but for the few that NeedsCustomPlan names. Operators on the extension's types are
 *	  schema-qualified, so the statements do not depend on the caller's search_path.
 */
extern "C"
{
#include "postgres.h"

#include "catalog/namespace.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "parser/parse_type.h"
#include "utils/timestamp.h"
}

#include "pgcpp/guard.hpp"
#include "ledger/statements.hpp"

#include <array>

namespace permanode::ledger
{
namespace
{

using permanode::pg::CallPg;

struct StatementText
{
    const char *sql;
    std::vector<const char *> types;
};

constexpr const char *kH = "permanode.hash32[]";
constexpr const char *kO = "permanode.output_id[]";
constexpr const char *kA = "permanode.address[]";
constexpr const char *kF = "permanode.foundry_id[]";

// Indexed by Statement.
const StatementText &TextOf(Statement statement)
{
    static const std::array<StatementText, static_cast<std::size_t>(Statement::kCount)> texts = {{
        // kLock: one ingest of a milestone at a time; held until the transaction ends.
        {"SELECT pg_advisory_xact_lock(hashtext('permanode.ingest_milestone'), $1)", {"int4"}},
        // kIsSynced
        {"SELECT 1 FROM permanode.sync WHERE ms_range_id = $1 AND milestone_index = $2",
         {"int4", "int4"}},
        // kChunkSizes
        {"SELECT table_name::text, chunk_size FROM permanode.ledger_tables", {}},
        // kMessages: each block's parents are a slice of one flat array.
        {"INSERT INTO permanode.messages (message_id, version, message, milestone_index, "
         "inclusion_state, conflict_reason, ms_range_id, ms_timestamp, white_flag_index, variant, "
         "parents, is_solid, should_promote, should_reattach) "
         "SELECT u.id, u.version, u.message, $11, u.state, u.reason, $12, $13, u.wfi, u.variant, "
         "$10[u.pfrom:u.pto], true, false, false "
         "FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9) "
         "AS u(id, version, message, state, reason, wfi, variant, pfrom, pto)",
         {kH, "int2[]", "bytea[]", "int2[]", "int2[]", "int4[]", "text[]", "int4[]", "int4[]", kH,
          "int4", "int4", "timestamptz"}},
        // kParents
        {"INSERT INTO permanode.parents (parent_id, message_id, inclusion_state, milestone_index, "
         "ms_range_id, ms_timestamp) SELECT u.*, $4, $5, $6 FROM unnest($1, $2, $3) AS u",
         {kH, kH, "int2[]", "int4", "int4", "timestamptz"}},
        // kBlockLocator
        {"INSERT INTO permanode.block_locator (block_id, ms_range_id) "
         "SELECT u.*, $2 FROM unnest($1) AS u",
         {kH, "int4"}},
        // kParentHints
        {"INSERT INTO permanode.parent_hints (parent_id, ms_range_id) "
         "SELECT u.*, $2 FROM unnest($1) AS u ON CONFLICT DO NOTHING",
         {kH, "int4"}},
        // kTags
        {"INSERT INTO permanode.tags (tag, message_id, inclusion_state, ms_range_id, "
         "milestone_index, ms_timestamp) SELECT u.*, $4, $5, $6 FROM unnest($1, $2, $3) AS u",
         {"bytea[]", kH, "int2[]", "int4", "int4", "timestamptz"}},
        // kTagHints
        {"INSERT INTO permanode.tag_hints (tag, table_kind, ms_range_id) "
         "SELECT * FROM unnest($1, $2, $3) ON CONFLICT DO NOTHING",
         {"bytea[]", "text[]", "int4[]"}},
        // kTransactions
        {"INSERT INTO permanode.transactions (transaction_id, idx, variant, message_id, data, "
         "inclusion_state, milestone_index, ms_range_id, ms_timestamp) "
         "SELECT u.*, $7, $8, $9 FROM unnest($1, $2, $3, $4, $5, $6) AS u",
         {kH, "int2[]", "text[]", kH, "bytea[]", "int2[]", "int4", "int4", "timestamptz"}},
        // kTransactionLocator
        {"INSERT INTO permanode.transaction_locator (transaction_id, ms_range_id) "
         "SELECT u.*, $2 FROM unnest($1) AS u ON CONFLICT DO NOTHING",
         {kH, "int4"}},
        // kMilestones
        {"INSERT INTO permanode.milestones (message_id, payload, milestone_id, milestone_index, "
         "timestamp, ms_range_id) SELECT * FROM unnest($1, $2, $3, $4, $5, $6) "
         "ON CONFLICT DO NOTHING",
         {kH, "bytea[]", kH, "int4[]", "int8[]", "int4[]"}},
        // kMilestoneLocator
        {"INSERT INTO permanode.milestone_locator (milestone_id, ms_range_id) "
         "SELECT * FROM unnest($1, $2) ON CONFLICT DO NOTHING",
         {kH, "int4[]"}},
        // kSpentOutputs: append-only, in the spending milestone's range.
        {"INSERT INTO permanode.spent_outputs (output_id, transaction_id, message_id, ms_range_id, "
         "milestone_index, ms_timestamp) SELECT u.*, $4, $5, $6 FROM unnest($1, $2, $3) AS u",
         {kO, kH, kH, "int4", "int4", "timestamptz"}},
        // kLocateSpent
        {"INSERT INTO permanode.output_locator (output_id, spent_ms_range_id) "
         "SELECT u.*, $2 FROM unnest($1) AS u "
         "ON CONFLICT (output_id) DO UPDATE SET spent_ms_range_id = EXCLUDED.spent_ms_range_id",
         {kO, "int4"}},
        // kUnspentDelete: what the spent outputs were, for the analytics.
        {"DELETE FROM permanode.unspent_outputs WHERE output_id OPERATOR(permanode.=) ANY ($1) "
         "RETURNING output_id, address, amount",
         {kO}},
        // kBasicOutputs
        {"INSERT INTO permanode.basic_outputs (output_id, address, sender, sender_type, tag, data, "
         "amount, message_id, native_token_count, dust_return_address, dust_return_amount, "
         "timelock, expiration, expiration_return_address, ms_range_id, milestone_index, "
         "ms_timestamp, inclusion_state) "
         "SELECT u.*, $15, $16, $17, 1 "
         "FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) AS u",
         {kO, kA, kA, "int2[]", "bytea[]", "bytea[]", "int8[]", kH, "int2[]", kA, "int8[]",
          "timestamptz[]", "timestamptz[]", kA, "int4", "int4", "timestamptz"}},
        // kAliasOutputs
        {"INSERT INTO permanode.alias_outputs (alias_id, sender, issuer, state_controller, "
         "governor, data, output_id, amount, message_id, state_index, foundry_counter, "
         "native_token_count, ms_range_id, milestone_index, ms_timestamp, inclusion_state) "
         "SELECT u.*, $13, $14, $15, 1 "
         "FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS u",
         {kH, kA, kA, kA, kA, "bytea[]", kO, "int8[]", kH, "int8[]", "int8[]", "int2[]", "int4",
          "int4", "timestamptz"}},
        // kFoundryOutputs
        {"INSERT INTO permanode.foundry_outputs (foundry_id, address, data, output_id, amount, "
         "message_id, native_token_count, ms_range_id, milestone_index, ms_timestamp, "
         "inclusion_state) SELECT u.*, $8, $9, $10, 1 "
         "FROM unnest($1, $2, $3, $4, $5, $6, $7) AS u",
         {kF, kA, "bytea[]", kO, "int8[]", kH, "int2[]", "int4", "int4", "timestamptz"}},
        // kNftOutputs
        {"INSERT INTO permanode.nft_outputs (nft_id, address, dust_return_address, sender, "
         "issuer, tag, data, output_id, amount, message_id, native_token_count, "
         "dust_return_amount, timelock, expiration, expiration_return_address, ms_range_id, "
         "milestone_index, ms_timestamp, inclusion_state) SELECT u.*, $16, $17, $18, 1 "
         "FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) AS u",
         {kH, kA, kA, kA, kA, "bytea[]", "bytea[]", kO, "int8[]", kH, "int2[]", "int8[]",
          "timestamptz[]", "timestamptz[]", kA, "int4", "int4", "timestamptz"}},
        // kLocateCreated
        {"INSERT INTO permanode.output_locator (output_id, ms_range_id) "
         "SELECT * FROM unnest($1, $2) "
         "ON CONFLICT (output_id) DO UPDATE SET ms_range_id = EXCLUDED.ms_range_id",
         {kO, "int4[]"}},
        // kChainLocator
        {"INSERT INTO permanode.chain_locator (chain_id, ms_range_id) "
         "SELECT * FROM unnest($1, $2) ON CONFLICT DO NOTHING",
         {kH, "int4[]"}},
        // kFoundryLocator
        {"INSERT INTO permanode.foundry_locator (foundry_id, ms_range_id) "
         "SELECT * FROM unnest($1, $2) ON CONFLICT DO NOTHING",
         {kF, "int4[]"}},
        // kAddressHints
        {"INSERT INTO permanode.addresses_hints (address, output_kind, variant, ms_range_id) "
         "SELECT * FROM unnest($1, $2, $3, $4) ON CONFLICT DO NOTHING",
         {kA, "text[]", "text[]", "int4[]"}},
        // kUnspentInsert: an output whose spend is already recorded (milestones may arrive in
        // any order) never enters the unspent set.
        {"INSERT INTO permanode.unspent_outputs (output_id, output_kind, amount, address, sender, "
         "issuer, tag, state_controller, governor, dust_return_address, dust_return_amount, "
         "timelock, expiration, expiration_return_address, native_token_count, chain_id, "
         "foundry_id, message_id, data, milestone_index, ms_timestamp) "
         "SELECT u.*, $20, $21 FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
         "$13, $14, $15, $16, $17, $18, $19) "
         "AS u(output_id, kind, amount, address, sender, issuer, tag, state_controller, governor, "
         "dust_return_address, dust_return_amount, timelock, expiration, "
         "expiration_return_address, native_token_count, chain_id, foundry_id, message_id, data) "
         "WHERE NOT EXISTS (SELECT 1 FROM permanode.output_locator l "
         "WHERE l.output_id OPERATOR(permanode.=) u.output_id AND l.spent_ms_range_id IS NOT NULL) "
         "RETURNING output_id",
         {kO,
          "text[]",
          "int8[]",
          kA,
          kA,
          kA,
          "bytea[]",
          kA,
          kA,
          kA,
          "int8[]",
          "timestamptz[]",
          "timestamptz[]",
          kA,
          "int2[]",
          kH,
          kF,
          kH,
          "bytea[]",
          "int4",
          "timestamptz"}},
        // kLateSpends
        {"SELECT owner, ms_range_id, inserted, ms_timestamp "
         "FROM permanode.book_late_spends($1, $2, $3)",
         {kO, kA, "int8[]"}},
        // kMsAnalytics
        {"INSERT INTO permanode.ms_analytics (ms_range_id, milestone_index, message_count, "
         "transaction_count, transferred_tokens) VALUES ($1, $2, $3, $4, $5) "
         "ON CONFLICT DO NOTHING",
         {"int4", "int4", "int4", "int4", "int8"}},
        // kAddressAnalytics
        {"INSERT INTO permanode.address_analytics (address, sent_tokens, recv_tokens, "
         "milestone_index, ms_range_id) SELECT u.*, $4, $5 FROM unnest($1, $2, $3) AS u",
         {kA, "int8[]", "int8[]", "int4", "int4"}},
        // kMetrics: values are the text forms, bech32 addresses and 0x-hex tags.
        {"INSERT INTO permanode.metrics_cache (date, variant, metric, value) "
         "SELECT (u.at AT TIME ZONE 'UTC')::date, u.variant, u.metric, "
         "coalesce(u.address::text, '0x' || encode(u.tag, 'hex')) "
         "FROM unnest($1, $2, $3, $4, $5) AS u(variant, metric, address, tag, at) "
         "ON CONFLICT DO NOTHING",
         {"text[]", "text[]", kA, "bytea[]", "timestamptz[]"}},
        // kDateCache
        {"INSERT INTO permanode.date_cache (date, start_ms, end_ms) "
         "VALUES (($2 AT TIME ZONE 'UTC')::date, $1, $1) ON CONFLICT (date) DO UPDATE "
         "SET start_ms = least(date_cache.start_ms, EXCLUDED.start_ms), "
         "end_ms = greatest(date_cache.end_ms, EXCLUDED.end_ms)",
         {"int4", "timestamptz"}},
        // kSync: synced_by 1 = permanode.ingest_milestone.
        {"INSERT INTO permanode.sync (ms_range_id, milestone_index, synced_by) "
         "VALUES ($1, $2, 1) ON CONFLICT DO NOTHING",
         {"int4", "int4"}},
    }};
    return texts[static_cast<std::size_t>(statement)];
}

// Per backend: the plans, for the extension (by OID) they were prepared against.
struct PlanCache
{
    Oid extension = InvalidOid;
    TypeOids types;
    std::array<SPIPlanPtr, static_cast<std::size_t>(Statement::kCount)> plans{};
};
PlanCache plan_cache;

Oid TypeOid(const char *name)
{
    Oid type = InvalidOid;
    int32 typmod = -1;
    parseTypeString(name, &type, &typmod, false);
    return type;
}

// Statements that probe a growing table by key. A generic plan is made once per backend,
// usually when the tables are still empty, and would then keep the sequential scans it chose
// for them (a hash anti join over all of output_locator, a scan of all of unspent_outputs).
// Planned each time instead, with the arrays as constants, they see the tables' real size and
// the arrays' real length, and probe the unique indexes.
bool NeedsCustomPlan(Statement statement)
{
    return statement == Statement::kUnspentDelete || statement == Statement::kUnspentInsert;
}

SPIPlanPtr PrepareOne(Statement statement, const StatementText &text)
{
    int options = NeedsCustomPlan(statement) ? CURSOR_OPT_CUSTOM_PLAN : CURSOR_OPT_GENERIC_PLAN;
    std::vector<Oid> types(text.types.size(), InvalidOid);
    SPIPlanPtr plan = nullptr;
    const char *sql = text.sql;
    const char *const *names = text.types.data();
    int nargs = static_cast<int>(types.size());
    Oid *argtypes = types.data();
    CallPg(
        [&]
        {
            for (int i = 0; i < nargs; ++i)
                argtypes[i] = TypeOid(names[i]);
            plan = SPI_prepare_cursor(sql, nargs, argtypes, options);
            if (plan == nullptr)
                elog(ERROR, "SPI_prepare_cursor failed: %s", SPI_result_code_string(SPI_result));
            SPI_keepplan(plan);
        });
    return plan;
}

} // namespace

const TypeOids &PrepareStatements()
{
    Oid extension = InvalidOid;
    CallPg([&] { extension = get_extension_oid("permanode", false); });
    if (extension == plan_cache.extension)
        return plan_cache.types;

    // The extension was (re)created since: forget the old plans and types.
    for (SPIPlanPtr &plan : plan_cache.plans)
    {
        if (plan != nullptr)
            CallPg([&] { SPI_freeplan(plan); });
        plan = nullptr;
    }
    plan_cache.extension = InvalidOid;
    TypeOids types;
    CallPg(
        [&]
        {
            types.hash32 = TypeOid("permanode.hash32");
            types.output_id = TypeOid("permanode.output_id");
            types.address = TypeOid("permanode.address");
            types.foundry_id = TypeOid("permanode.foundry_id");
        });
    for (std::size_t i = 0; i < plan_cache.plans.size(); ++i)
        plan_cache.plans[i] =
            PrepareOne(static_cast<Statement>(i), TextOf(static_cast<Statement>(i)));
    plan_cache.types = types;
    plan_cache.extension = extension;
    return plan_cache.types;
}

void Params::Add(const ArrayColumn &column)
{
    Datum value = 0;
    CallPg([&] { value = column.Build(); });
    Push(value);
}

uint64 Execute(Statement statement, const Params &params)
{
    SPIPlanPtr plan = plan_cache.plans[static_cast<std::size_t>(statement)];
    Datum *values = const_cast<Datum *>(params.values_.data());
    const char *nulls = params.nulls_.data();
    int result = 0;
    CallPg([&] { result = SPI_execute_plan(plan, values, nulls, false, 0); });
    if (result < 0)
        throw pg::PgError(ERRCODE_INTERNAL_ERROR, std::string("ingest statement failed: ") +
                                                      SPI_result_code_string(result));
    return SPI_processed;
}

} // namespace permanode::ledger
