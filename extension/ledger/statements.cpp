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
 *	  start, but for the few marked custom_plan. Operators on the extension's types are
 *	  schema-qualified, so the statements do not depend on the caller's search_path.
 *	  Parameters are named (:message_id) and bound by name: see ledger/named_sql.hpp.
 */
extern "C"
{
#include "postgres.h"

#include "catalog/namespace.h"
#include "utils/regproc.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "parser/parse_type.h"
#include "utils/timestamp.h"
}

#include "pgcpp/guard.hpp"
#include "ledger/named_sql.hpp"
#include "ledger/statements.hpp"

#include <stdexcept>
#include <unordered_map>

namespace permanode::ledger
{
namespace
{

using permanode::pg::CallPg;

constexpr const char *kH = "permanode.hash32[]";
constexpr const char *kO = "permanode.output_id[]";
constexpr const char *kA = "permanode.address[]";
constexpr const char *kF = "permanode.foundry_id[]";

// Every statement a milestone may run, to prepare (and check) them all up front.
const std::vector<const Statement *> &AllStatements();

} // namespace

namespace sql
{

// One ingest of a milestone at a time; held until the transaction ends.
const Statement kLock{
    "lock",
    "SELECT pg_advisory_xact_lock(hashtext('permanode.ingest_milestone'), :milestone_index)",
    {{"milestone_index", "int4"}}};

const Statement kIsSynced{"is_synced",
                          "SELECT 1 FROM permanode.sync WHERE ms_range_id = :ms_range_id AND "
                          "milestone_index = :milestone_index",
                          {{"ms_range_id", "int4"}, {"milestone_index", "int4"}}};

const Statement kChunkSizes{
    "chunk_sizes", "SELECT table_name::text, chunk_size FROM permanode.ledger_tables", {}};

// Each block's parents are a slice of one flat array (the spaces around the slice's colon keep
// it from reading as a placeholder).
const Statement kMessages{
    "messages",
    "INSERT INTO permanode.messages (message_id, version, message, milestone_index, "
    "inclusion_state, conflict_reason, ms_range_id, ms_timestamp, white_flag_index, variant, "
    "parents, is_solid, should_promote, should_reattach) "
    "SELECT u.id, u.version, u.message, :milestone_index, u.state, u.reason, :ms_range_id, "
    ":ms_timestamp, u.wfi, u.variant, (:parents)[u.pfrom : u.pto], true, false, false "
    "FROM unnest(:message_id, :version, :message, :inclusion_state, :conflict_reason, "
    ":white_flag_index, :variant, :parents_from, :parents_to) "
    "AS u(id, version, message, state, reason, wfi, variant, pfrom, pto)",
    {{"message_id", kH},
     {"version", "int2[]"},
     {"message", "bytea[]"},
     {"inclusion_state", "int2[]"},
     {"conflict_reason", "int2[]"},
     {"white_flag_index", "int4[]"},
     {"variant", "text[]"},
     {"parents_from", "int4[]"},
     {"parents_to", "int4[]"},
     {"parents", kH},
     {"milestone_index", "int4"},
     {"ms_range_id", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kParents{
    "parents",
    "INSERT INTO permanode.parents (parent_id, message_id, inclusion_state, milestone_index, "
    "ms_range_id, ms_timestamp) SELECT u.*, :milestone_index, :ms_range_id, :ms_timestamp "
    "FROM unnest(:parent_id, :message_id, :inclusion_state) AS u",
    {{"parent_id", kH},
     {"message_id", kH},
     {"inclusion_state", "int2[]"},
     {"milestone_index", "int4"},
     {"ms_range_id", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kBlockLocator{"block_locator",
                              "INSERT INTO permanode.block_locator (block_id, ms_range_id) "
                              "SELECT u.*, :ms_range_id FROM unnest(:block_id) AS u",
                              {{"block_id", kH}, {"ms_range_id", "int4"}}};

const Statement kParentHints{
    "parent_hints",
    "INSERT INTO permanode.parent_hints (parent_id, ms_range_id) "
    "SELECT u.*, :ms_range_id FROM unnest(:parent_id) AS u ON CONFLICT DO NOTHING",
    {{"parent_id", kH}, {"ms_range_id", "int4"}}};

const Statement kTags{
    "tags",
    "INSERT INTO permanode.tags (tag, message_id, inclusion_state, ms_range_id, milestone_index, "
    "ms_timestamp) SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp "
    "FROM unnest(:tag, :message_id, :inclusion_state) AS u",
    {{"tag", "bytea[]"},
     {"message_id", kH},
     {"inclusion_state", "int2[]"},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kTagHints{
    "tag_hints",
    "INSERT INTO permanode.tag_hints (tag, table_kind, ms_range_id) "
    "SELECT * FROM unnest(:tag, :table_kind, :ms_range_id) "
    "ON CONFLICT DO NOTHING",
    {{"tag", "bytea[]"}, {"table_kind", "text[]"}, {"ms_range_id", "int4[]"}}};

const Statement kTransactions{
    "transactions",
    "INSERT INTO permanode.transactions (transaction_id, idx, variant, message_id, data, "
    "inclusion_state, milestone_index, ms_range_id, ms_timestamp) "
    "SELECT u.*, :milestone_index, :ms_range_id, :ms_timestamp "
    "FROM unnest(:transaction_id, :idx, :variant, :message_id, :data, :inclusion_state) AS u",
    {{"transaction_id", kH},
     {"idx", "int2[]"},
     {"variant", "text[]"},
     {"message_id", kH},
     {"data", "bytea[]"},
     {"inclusion_state", "int2[]"},
     {"milestone_index", "int4"},
     {"ms_range_id", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kTransactionLocator{
    "transaction_locator",
    "INSERT INTO permanode.transaction_locator (transaction_id, ms_range_id) "
    "SELECT u.*, :ms_range_id FROM unnest(:transaction_id) AS u ON CONFLICT DO NOTHING",
    {{"transaction_id", kH}, {"ms_range_id", "int4"}}};

const Statement kMilestones{
    "milestones",
    "INSERT INTO permanode.milestones (message_id, payload, milestone_id, milestone_index, "
    "timestamp, ms_range_id) SELECT * FROM unnest(:message_id, :payload, :milestone_id, "
    ":milestone_index, :timestamp, :ms_range_id) ON CONFLICT DO NOTHING",
    {{"message_id", kH},
     {"payload", "bytea[]"},
     {"milestone_id", kH},
     {"milestone_index", "int4[]"},
     {"timestamp", "int8[]"},
     {"ms_range_id", "int4[]"}}};

const Statement kMilestoneLocator{"milestone_locator",
                                  "INSERT INTO permanode.milestone_locator (milestone_id, "
                                  "ms_range_id) SELECT * FROM unnest(:milestone_id, :ms_range_id) "
                                  "ON CONFLICT DO NOTHING",
                                  {{"milestone_id", kH}, {"ms_range_id", "int4[]"}}};

// Append-only, in the spending milestone's range.
const Statement kSpentOutputs{
    "spent_outputs",
    "INSERT INTO permanode.spent_outputs (output_id, transaction_id, message_id, ms_range_id, "
    "milestone_index, ms_timestamp) SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp "
    "FROM unnest(:output_id, :transaction_id, :message_id) AS u",
    {{"output_id", kO},
     {"transaction_id", kH},
     {"message_id", kH},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kLocateSpent{
    "locate_spent",
    "INSERT INTO permanode.output_locator (output_id, spent_ms_range_id) "
    "SELECT u.*, :ms_range_id FROM unnest(:output_id) AS u "
    "ON CONFLICT (output_id) DO UPDATE SET spent_ms_range_id = EXCLUDED.spent_ms_range_id",
    {{"output_id", kO}, {"ms_range_id", "int4"}}};

// What the spent outputs were, for the analytics. It probes a growing table by key: a generic
// plan, made once per backend and usually while the tables are still empty, would keep the
// sequential scan it chose then; planned each time, with the array as a constant, it sees the
// table's real size and probes the unique index.
const Statement kUnspentDelete{
    "unspent_delete",
    "DELETE FROM permanode.unspent_outputs WHERE output_id OPERATOR(permanode.=) ANY (:output_id) "
    "RETURNING output_id, address, amount, output_kind, "
    "CASE WHEN output_kind = 'legacy' THEN data END, tag",
    {{"output_id", kO}},
    true};

// The columns the unspent set and retired_outputs share (all but the unspent set's bytes).
#define PERMANODE_RETIRED_COLUMNS                                                                  \
    "output_id, output_kind, amount, address, sender, issuer, tag, state_controller, governor, "   \
    "dust_return_address, dust_return_amount, timelock, expiration, "                              \
    "expiration_return_address, native_token_count, chain_id, foundry_id, milestone_index, "       \
    "ms_timestamp, message_id"

// A Chrysalis output's type: its first byte.
#define PERMANODE_LEGACY_TYPE(row)                                                                 \
    "CASE WHEN " row ".output_kind = 'legacy' THEN get_byte(" row ".data, 0)::int2 END"

// kUnspentDelete where the schema keeps the ledger as of any milestone (0.7.0): the spent rows
// move to retired_outputs, with the milestone that spent them.
const Statement kUnspentRetire{
    "unspent_retire",
    "WITH d AS (DELETE FROM permanode.unspent_outputs "
    "WHERE output_id OPERATOR(permanode.=) ANY (:output_id) RETURNING *), "
    "r AS (INSERT INTO permanode.retired_outputs (" PERMANODE_RETIRED_COLUMNS
    ", spent_milestone_index, output_type) SELECT " PERMANODE_RETIRED_COLUMNS
    ", :milestone_index, " PERMANODE_LEGACY_TYPE(
        "d") " FROM d "
             "WHERE d.milestone_index < :milestone_index ON CONFLICT DO NOTHING) "
             "SELECT output_id, address, amount, output_kind, "
             "CASE WHEN output_kind = 'legacy' THEN data END, tag FROM d",
    {{"output_id", kO}, {"milestone_index", "int4"}},
    true,
    "permanode.retired_outputs"};

// The output tables: their columns, then ms_range_id, milestone_index and ms_timestamp.
const Statement kBasicOutputs{
    "basic_outputs",
    "INSERT INTO permanode.basic_outputs (output_id, address, sender, sender_type, tag, data, "
    "amount, message_id, native_token_count, dust_return_address, dust_return_amount, timelock, "
    "expiration, expiration_return_address, ms_range_id, milestone_index, ms_timestamp, "
    "inclusion_state) SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp, 1 "
    "FROM unnest(:output_id, :address, :sender, :sender_type, :tag, :data, :amount, :message_id, "
    ":native_token_count, :dust_return_address, :dust_return_amount, :timelock, :expiration, "
    ":expiration_return_address) AS u",
    {{"output_id", kO},
     {"address", kA},
     {"sender", kA},
     {"sender_type", "int2[]"},
     {"tag", "bytea[]"},
     {"data", "bytea[]"},
     {"amount", "int8[]"},
     {"message_id", kH},
     {"native_token_count", "int2[]"},
     {"dust_return_address", kA},
     {"dust_return_amount", "int8[]"},
     {"timelock", "timestamptz[]"},
     {"expiration", "timestamptz[]"},
     {"expiration_return_address", kA},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

// Chrysalis outputs: created (is_used 0) and, when spent in the same milestone, used (1) rows,
// both in this milestone's range (is_used is given as int2: the columns have no bool arrays).
const Statement kChrysalisOutputs{
    "legacy_outputs",
    "INSERT INTO permanode.legacy_outputs (output_id, output_type, is_used, message_id, amount, "
    "address, data, ms_range_id, milestone_index, ms_timestamp, inclusion_state) "
    "SELECT u.output_id, u.output_type, u.is_used <> 0, u.message_id, u.amount, u.address, u.data, "
    ":ms_range_id, :milestone_index, :ms_timestamp, 1 "
    "FROM unnest(:output_id, :output_type, :is_used, :message_id, :amount, :address, :data) "
    "AS u(output_id, output_type, is_used, message_id, amount, address, data)",
    {{"output_id", kO},
     {"output_type", "int2[]"},
     {"is_used", "int2[]"},
     {"message_id", kH},
     {"amount", "int8[]"},
     {"address", kA},
     {"data", "bytea[]"},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

// A receipt's entries: the output each booked and the legacy tail transaction it names (an
// entry whose tail is not a legacy hash names none).
const Statement kMigratedFunds{
    "migrated_funds",
    "INSERT INTO permanode.migrated_funds (output_id, tail_transaction_hash, milestone_index) "
    "SELECT u.output_id, h.hash, :milestone_index FROM unnest(:output_id, :tail) "
    "AS u(output_id, tail) CROSS JOIN LATERAL (SELECT permanode.trytes81_from_t5b1(u.tail) "
    "AS hash) h WHERE h.hash IS NOT NULL ON CONFLICT DO NOTHING",
    {{"output_id", kO}, {"tail", "bytea[]"}, {"milestone_index", "int4"}},
    false,
    "permanode.migrated_funds"};

// The used rows of Chrysalis outputs a milestone committed earlier already spent (milestones
// commit out of order): in the spender's range, with its milestone and message, and the address
// hints of that range.
const Statement kChrysalisUsedLate{
    "legacy_used_late",
    "WITH used AS (INSERT INTO permanode.legacy_outputs (output_id, output_type, is_used, "
    "message_id, amount, "
    "address, data, ms_range_id, milestone_index, ms_timestamp, inclusion_state) "
    "SELECT u.output_id, u.output_type, true, sp.message_id, u.amount, u.address, u.data, "
    "sp.ms_range_id, sp.milestone_index, sp.ms_timestamp, 1 "
    "FROM unnest(:output_id, :output_type, :amount, :address, :data) "
    "AS u(output_id, output_type, amount, address, data) "
    "JOIN permanode.output_locator l ON l.output_id OPERATOR(permanode.=) u.output_id "
    "AND l.spent_ms_range_id IS NOT NULL "
    "CROSS JOIN LATERAL (SELECT s.message_id, s.ms_range_id, s.milestone_index, s.ms_timestamp "
    "FROM permanode.spent_outputs s WHERE s.output_id OPERATOR(permanode.=) u.output_id "
    "AND s.ms_range_id = l.spent_ms_range_id LIMIT 1) sp RETURNING address, ms_range_id) "
    "INSERT INTO permanode.addresses_hints (address, output_kind, variant, ms_range_id) "
    "SELECT DISTINCT address, 'legacy', 'address', ms_range_id FROM used "
    "ORDER BY 1, 4 ON CONFLICT DO NOTHING",
    {{"output_id", kO},
     {"output_type", "int2[]"},
     {"amount", "int8[]"},
     {"address", kA},
     {"data", "bytea[]"}},
    true};

// The eras' locks. Ingests of one era share their era's lock and run at once; an ingest of
// another era waits until those commit (taking and releasing that era's lock exclusively) before
// its era check, so the check sees them: two eras never pass the check side by side. (Two that
// start together deadlock instead: one is rolled back with 40P01, which the CLI retries.)
const Statement kEraLock{"era_lock",
                         "SELECT pg_advisory_xact_lock_shared(hashtext('permanode.era'), "
                         ":protocol_version)",
                         {{"protocol_version", "int4"}}};
const Statement kEraWait{"era_wait",
                         "SELECT pg_advisory_lock(hashtext('permanode.era'), e.v), "
                         "pg_advisory_unlock(hashtext('permanode.era'), e.v) "
                         "FROM (VALUES (1), (2)) AS e(v) WHERE e.v <> :protocol_version",
                         {{"protocol_version", "int4"}}};

// The era check: the last milestone of each earlier protocol and the first of each later one.
const Statement kEraBounds{
    "era_bounds",
    "SELECT v.protocol_version, CASE WHEN v.protocol_version < :protocol_version "
    "THEN (SELECT max(p.milestone_index) FROM permanode.milestone_protocols p "
    "WHERE p.protocol_version = v.protocol_version) "
    "ELSE (SELECT min(p.milestone_index) FROM permanode.milestone_protocols p "
    "WHERE p.protocol_version = v.protocol_version) END "
    "FROM (VALUES (1::int2), (2::int2)) AS v(protocol_version) "
    "WHERE v.protocol_version <> :protocol_version",
    {{"protocol_version", "int2"}},
    false,
    "permanode.milestone_protocols"};

const Statement kReceipts{
    "receipts",
    "INSERT INTO permanode.receipts (milestone_index, migrated_at, final) "
    "SELECT * FROM unnest(:milestone_index, :migrated_at, :final::int2[]::int4[]::bool[]) "
    "ON CONFLICT DO NOTHING",
    {{"milestone_index", "int4[]"}, {"migrated_at", "int4[]"}, {"final", "int2[]"}},
    false,
    "permanode.receipts"};

// Chrysalis outputs that a Stardust snapshot books again (writer.cpp, RetireMigratedOutputs).
const Statement kRetireMigrated{
    "retire_migrated",
    "DELETE FROM permanode.unspent_outputs WHERE output_id OPERATOR(permanode.=) ANY "
    "(:output_id) AND output_kind = 'legacy'",
    {{"output_id", kO}},
    true,
    "permanode.milestone_protocols"};

// kRetireMigrated, keeping the Chrysalis outputs as of the milestones before the genesis.
const Statement kRetireMigratedAsOf{
    "retire_migrated_as_of",
    "WITH d AS (DELETE FROM permanode.unspent_outputs WHERE output_id OPERATOR(permanode.=) ANY "
    "(:output_id) AND output_kind = 'legacy' RETURNING *) "
    "INSERT INTO permanode.retired_outputs (" PERMANODE_RETIRED_COLUMNS
    ", spent_milestone_index, output_type) SELECT " PERMANODE_RETIRED_COLUMNS
    ", :milestone_index, " PERMANODE_LEGACY_TYPE(
        "d") " FROM d "
             "WHERE d.milestone_index < :milestone_index ON CONFLICT DO NOTHING",
    {{"output_id", kO}, {"milestone_index", "int4"}},
    true,
    "permanode.retired_outputs"};

// kLocateCreated for Chrysalis outputs: their creating range is also kept apart, for a Stardust
// creation of the same ID (the era's genesis) to take over ms_range_id only.
const Statement kLocateChrysalis{
    "locate_legacy",
    "INSERT INTO permanode.output_locator (output_id, ms_range_id, legacy_ms_range_id) "
    "SELECT u.output_id, u.ms_range_id, u.ms_range_id FROM unnest(:output_id, :ms_range_id) "
    "AS u(output_id, ms_range_id) ON CONFLICT (output_id) DO UPDATE SET "
    "ms_range_id = EXCLUDED.ms_range_id, legacy_ms_range_id = EXCLUDED.legacy_ms_range_id",
    {{"output_id", kO}, {"ms_range_id", "int4[]"}},
    false,
    "permanode.milestone_protocols"};

const Statement kMilestoneProtocol{
    "milestone_protocol",
    "INSERT INTO permanode.milestone_protocols (milestone_index, protocol_version) "
    "VALUES (:milestone_index, :protocol_version) ON CONFLICT DO NOTHING",
    {{"milestone_index", "int4"}, {"protocol_version", "int2"}},
    false,
    "permanode.milestone_protocols"};

const Statement kAliasOutputs{
    "alias_outputs",
    "INSERT INTO permanode.alias_outputs (alias_id, sender, issuer, state_controller, governor, "
    "data, output_id, amount, message_id, state_index, foundry_counter, native_token_count, "
    "ms_range_id, milestone_index, ms_timestamp, inclusion_state) "
    "SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp, 1 "
    "FROM unnest(:alias_id, :sender, :issuer, :state_controller, :governor, :data, :output_id, "
    ":amount, :message_id, :state_index, :foundry_counter, :native_token_count) AS u",
    {{"alias_id", kH},
     {"sender", kA},
     {"issuer", kA},
     {"state_controller", kA},
     {"governor", kA},
     {"data", "bytea[]"},
     {"output_id", kO},
     {"amount", "int8[]"},
     {"message_id", kH},
     {"state_index", "int8[]"},
     {"foundry_counter", "int8[]"},
     {"native_token_count", "int2[]"},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kFoundryOutputs{
    "foundry_outputs",
    "INSERT INTO permanode.foundry_outputs (foundry_id, address, data, output_id, amount, "
    "message_id, native_token_count, ms_range_id, milestone_index, ms_timestamp, "
    "inclusion_state) SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp, 1 "
    "FROM unnest(:foundry_id, :address, :data, :output_id, :amount, :message_id, "
    ":native_token_count) AS u",
    {{"foundry_id", kF},
     {"address", kA},
     {"data", "bytea[]"},
     {"output_id", kO},
     {"amount", "int8[]"},
     {"message_id", kH},
     {"native_token_count", "int2[]"},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kNftOutputs{
    "nft_outputs",
    "INSERT INTO permanode.nft_outputs (nft_id, address, dust_return_address, sender, issuer, "
    "tag, data, output_id, amount, message_id, native_token_count, dust_return_amount, "
    "timelock, expiration, expiration_return_address, ms_range_id, milestone_index, "
    "ms_timestamp, inclusion_state) SELECT u.*, :ms_range_id, :milestone_index, :ms_timestamp, 1 "
    "FROM unnest(:nft_id, :address, :dust_return_address, :sender, :issuer, :tag, :data, "
    ":output_id, :amount, :message_id, :native_token_count, :dust_return_amount, :timelock, "
    ":expiration, :expiration_return_address) AS u",
    {{"nft_id", kH},
     {"address", kA},
     {"dust_return_address", kA},
     {"sender", kA},
     {"issuer", kA},
     {"tag", "bytea[]"},
     {"data", "bytea[]"},
     {"output_id", kO},
     {"amount", "int8[]"},
     {"message_id", kH},
     {"native_token_count", "int2[]"},
     {"dust_return_amount", "int8[]"},
     {"timelock", "timestamptz[]"},
     {"expiration", "timestamptz[]"},
     {"expiration_return_address", kA},
     {"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"ms_timestamp", "timestamptz"}}};

const Statement kLocateCreated{
    "locate_created",
    "INSERT INTO permanode.output_locator (output_id, ms_range_id) "
    "SELECT * FROM unnest(:output_id, :ms_range_id) "
    "ON CONFLICT (output_id) DO UPDATE SET ms_range_id = EXCLUDED.ms_range_id",
    {{"output_id", kO}, {"ms_range_id", "int4[]"}}};

const Statement kChainLocator{"chain_locator",
                              "INSERT INTO permanode.chain_locator (chain_id, ms_range_id) "
                              "SELECT * FROM unnest(:chain_id, :ms_range_id) "
                              "ON CONFLICT DO NOTHING",
                              {{"chain_id", kH}, {"ms_range_id", "int4[]"}}};

const Statement kFoundryLocator{"foundry_locator",
                                "INSERT INTO permanode.foundry_locator (foundry_id, ms_range_id) "
                                "SELECT * FROM unnest(:foundry_id, :ms_range_id) "
                                "ON CONFLICT DO NOTHING",
                                {{"foundry_id", kF}, {"ms_range_id", "int4[]"}}};

const Statement kAddressHints{
    "address_hints",
    "INSERT INTO permanode.addresses_hints (address, output_kind, variant, ms_range_id) "
    "SELECT * FROM unnest(:address, :output_kind, :variant, :ms_range_id) ON CONFLICT DO NOTHING",
    {{"address", kA}, {"output_kind", "text[]"}, {"variant", "text[]"}, {"ms_range_id", "int4[]"}}};

// An output whose spend is already recorded (milestones may arrive in any order) never enters
// the unspent set. Planned each time, as kUnspentDelete is: it probes output_locator by key.
// The columns of an output bound for the unspent set.
const std::vector<Param> kUnspentColumns{{"output_id", kO},
                                         {"output_kind", "text[]"},
                                         {"amount", "int8[]"},
                                         {"address", kA},
                                         {"sender", kA},
                                         {"issuer", kA},
                                         {"tag", "bytea[]"},
                                         {"state_controller", kA},
                                         {"governor", kA},
                                         {"dust_return_address", kA},
                                         {"dust_return_amount", "int8[]"},
                                         {"timelock", "timestamptz[]"},
                                         {"expiration", "timestamptz[]"},
                                         {"expiration_return_address", kA},
                                         {"native_token_count", "int2[]"},
                                         {"chain_id", kH},
                                         {"foundry_id", kF},
                                         {"message_id", kH},
                                         {"data", "bytea[]"},
                                         {"milestone_index", "int4"},
                                         {"ms_timestamp", "timestamptz"}};

#define PERMANODE_UNSPENT_ROWS                                                                     \
    "unnest(:output_id, :output_kind, :amount, :address, :sender, :issuer, :tag, "                 \
    ":state_controller, :governor, :dust_return_address, :dust_return_amount, :timelock, "         \
    ":expiration, :expiration_return_address, :native_token_count, :chain_id, :foundry_id, "       \
    ":message_id, :data) AS u(output_id, output_kind, amount, address, sender, issuer, tag, "      \
    "state_controller, governor, dust_return_address, dust_return_amount, timelock, "              \
    "expiration, expiration_return_address, native_token_count, chain_id, foundry_id, "            \
    "message_id, data)"
#define PERMANODE_UNSPENT_INSERT                                                                   \
    "INSERT INTO permanode.unspent_outputs (output_id, output_kind, amount, address, sender, "     \
    "issuer, tag, state_controller, governor, dust_return_address, dust_return_amount, "           \
    "timelock, expiration, expiration_return_address, native_token_count, chain_id, "              \
    "foundry_id, message_id, data, milestone_index, ms_timestamp) "                                \
    "SELECT u.*, :milestone_index, :ms_timestamp FROM "
#define PERMANODE_NOT_SPENT                                                                        \
    " WHERE NOT EXISTS (SELECT 1 FROM permanode.output_locator l "                                 \
    "WHERE l.output_id OPERATOR(permanode.=) u.output_id AND l.spent_ms_range_id IS NOT NULL) "    \
    "RETURNING output_id"

// An output whose spend is already recorded (milestones may arrive in any order) never enters
// the unspent set. Planned each time, as kUnspentDelete is: it probes output_locator by key.
const Statement kUnspentInsert{"unspent_insert",
                               PERMANODE_UNSPENT_INSERT PERMANODE_UNSPENT_ROWS PERMANODE_NOT_SPENT,
                               kUnspentColumns, true};

// kUnspentInsert where the schema keeps the ledger as of any milestone (0.7.0): an output whose
// spend is already recorded goes to retired_outputs instead, until the milestone that spent it.
const Statement kUnspentInsertAsOf{
    "unspent_insert_as_of",
    "WITH u AS (SELECT * FROM " PERMANODE_UNSPENT_ROWS "), "
    "late AS (SELECT u.output_id, s.milestone_index AS spent FROM u "
    "JOIN permanode.output_locator l ON l.output_id OPERATOR(permanode.=) u.output_id "
    "AND l.spent_ms_range_id IS NOT NULL CROSS JOIN LATERAL (SELECT o.milestone_index "
    "FROM permanode.spent_outputs o WHERE o.output_id OPERATOR(permanode.=) u.output_id "
    "AND o.ms_range_id = l.spent_ms_range_id LIMIT 1) s), "
    "r AS (INSERT INTO permanode.retired_outputs (" PERMANODE_RETIRED_COLUMNS
    ", spent_milestone_index, output_type) SELECT u.output_id, u.output_kind, u.amount, "
    "u.address, u.sender, "
    "u.issuer, u.tag, u.state_controller, u.governor, u.dust_return_address, "
    "u.dust_return_amount, u.timelock, u.expiration, u.expiration_return_address, "
    "u.native_token_count, u.chain_id, u.foundry_id, :milestone_index, :ms_timestamp, "
    "u.message_id, late.spent, " PERMANODE_LEGACY_TYPE(
        "u") " FROM u JOIN late ON late.output_id OPERATOR(permanode.=) "
             "u.output_id WHERE late.spent > :milestone_index ON CONFLICT DO "
             "NOTHING) " PERMANODE_UNSPENT_INSERT "u" PERMANODE_NOT_SPENT,
    kUnspentColumns, true, "permanode.retired_outputs"};

const Statement kLateSpends{"late_spends",
                            "SELECT owner, ms_range_id, inserted, ms_timestamp "
                            "FROM permanode.book_late_spends(:output_id, :owner, :amount)",
                            {{"output_id", kO}, {"owner", kA}, {"amount", "int8[]"}}};

const Statement kMsAnalytics{
    "ms_analytics",
    "INSERT INTO permanode.ms_analytics (ms_range_id, milestone_index, message_count, "
    "transaction_count, transferred_tokens) VALUES (:ms_range_id, :milestone_index, "
    ":message_count, :transaction_count, :transferred_tokens) ON CONFLICT DO NOTHING",
    {{"ms_range_id", "int4"},
     {"milestone_index", "int4"},
     {"message_count", "int4"},
     {"transaction_count", "int4"},
     {"transferred_tokens", "int8"}}};

const Statement kAddressAnalytics{
    "address_analytics",
    "INSERT INTO permanode.address_analytics (address, sent_tokens, recv_tokens, "
    "milestone_index, ms_range_id) SELECT u.*, :milestone_index, :ms_range_id "
    "FROM unnest(:address, :sent_tokens, :recv_tokens) AS u",
    {{"address", kA},
     {"sent_tokens", "int8[]"},
     {"recv_tokens", "int8[]"},
     {"milestone_index", "int4"},
     {"ms_range_id", "int4"}}};

// Values are the text forms, bech32 addresses and 0x-hex tags.
const Statement kMetrics{
    "metrics",
    "INSERT INTO permanode.metrics_cache (date, variant, metric, value) "
    "SELECT (u.at AT TIME ZONE 'UTC')::date, u.variant, u.metric, "
    "coalesce(u.address::text, '0x' || encode(u.tag, 'hex')) "
    "FROM unnest(:variant, :metric, :address, :tag, :at) AS u(variant, metric, address, tag, at) "
    "ON CONFLICT DO NOTHING",
    {{"variant", "text[]"},
     {"metric", "text[]"},
     {"address", kA},
     {"tag", "bytea[]"},
     {"at", "timestamptz[]"}}};

const Statement kDateCache{
    "date_cache",
    "INSERT INTO permanode.date_cache (date, start_ms, end_ms) "
    "VALUES ((:ms_timestamp AT TIME ZONE 'UTC')::date, :milestone_index, :milestone_index) "
    "ON CONFLICT (date) DO UPDATE SET start_ms = least(date_cache.start_ms, EXCLUDED.start_ms), "
    "end_ms = greatest(date_cache.end_ms, EXCLUDED.end_ms)",
    {{"milestone_index", "int4"}, {"ms_timestamp", "timestamptz"}}};

// Whether the ledger is a stream here: shard ledger/events exists (88_streams.sql).
const Statement kStreamLedgerOn{"stream_ledger_on",
                                "SELECT 1 FROM streams.shards WHERE namespace = 'ledger' AND "
                                "shard = 'events'",
                                {},
                                false,
                                "streams.shards"};

// The milestone's events on the ledger stream (appended only where shard ledger/events exists).
const Statement kStreamLedger{"stream_ledger",
                              "SELECT streams.append_ledger(:milestone_index, :ms_timestamp, "
                              ":event, :milestone_id, :confirmed_index, :output_id, :output_kind, "
                              ":address, :amount, :tag)",
                              {{"milestone_index", "int4"},
                               {"ms_timestamp", "timestamptz"},
                               {"event", "text[]"},
                               {"milestone_id", kH},
                               {"confirmed_index", "int4[]"},
                               {"output_id", kO},
                               {"output_kind", "text[]"},
                               {"address", kA},
                               {"amount", "int8[]"},
                               {"tag", "bytea[]"}},
                              false,
                              "streams.shards"};

// synced_by 1 = permanode.ingest_milestone.
const Statement kSync{"sync",
                      "INSERT INTO permanode.sync (ms_range_id, milestone_index, synced_by) "
                      "VALUES (:ms_range_id, :milestone_index, 1) ON CONFLICT DO NOTHING",
                      {{"ms_range_id", "int4"}, {"milestone_index", "int4"}}};

} // namespace sql

namespace
{

const std::vector<const Statement *> &AllStatements()
{
    static const std::vector<const Statement *> all = {&sql::kLock,
                                                       &sql::kIsSynced,
                                                       &sql::kChunkSizes,
                                                       &sql::kMessages,
                                                       &sql::kParents,
                                                       &sql::kBlockLocator,
                                                       &sql::kParentHints,
                                                       &sql::kTags,
                                                       &sql::kTagHints,
                                                       &sql::kTransactions,
                                                       &sql::kTransactionLocator,
                                                       &sql::kMilestones,
                                                       &sql::kMilestoneLocator,
                                                       &sql::kSpentOutputs,
                                                       &sql::kLocateSpent,
                                                       &sql::kUnspentDelete,
                                                       &sql::kUnspentRetire,
                                                       &sql::kBasicOutputs,
                                                       &sql::kAliasOutputs,
                                                       &sql::kFoundryOutputs,
                                                       &sql::kNftOutputs,
                                                       &sql::kChrysalisOutputs,
                                                       &sql::kChrysalisUsedLate,
                                                       &sql::kEraLock,
                                                       &sql::kEraWait,
                                                       &sql::kEraBounds,
                                                       &sql::kMilestoneProtocol,
                                                       &sql::kRetireMigrated,
                                                       &sql::kRetireMigratedAsOf,
                                                       &sql::kLocateChrysalis,
                                                       &sql::kReceipts,
                                                       &sql::kMigratedFunds,
                                                       &sql::kLocateCreated,
                                                       &sql::kChainLocator,
                                                       &sql::kFoundryLocator,
                                                       &sql::kAddressHints,
                                                       &sql::kUnspentInsert,
                                                       &sql::kUnspentInsertAsOf,
                                                       &sql::kLateSpends,
                                                       &sql::kMsAnalytics,
                                                       &sql::kAddressAnalytics,
                                                       &sql::kMetrics,
                                                       &sql::kDateCache,
                                                       &sql::kSync,
                                                       &sql::kStreamLedgerOn,
                                                       &sql::kStreamLedger};
    return all;
}

// Per backend: the plans, for the extension (by OID) they were prepared against.
struct PlanCache
{
    Oid extension = InvalidOid;
    TypeOids types;
    std::unordered_map<const Statement *, SPIPlanPtr> plans;
};
PlanCache plan_cache;

Oid TypeOid(const char *name)
{
    Oid type = InvalidOid;
    int32 typmod = -1;
    parseTypeString(name, &type, &typmod, false);
    return type;
}

// The statement's SQL with its placeholders numbered; a mismatch between the SQL and the
// parameter list is a bug of this file, reported before anything runs.
std::string NumberedSql(const Statement &statement)
{
    std::vector<std::string_view> names;
    for (const Param &param : statement.params)
        names.push_back(param.name);
    try
    {
        return NumberPlaceholders(statement.sql, names);
    }
    catch (const std::invalid_argument &e)
    {
        throw pg::PgError(ERRCODE_INTERNAL_ERROR,
                          std::string("ingest statement ") + statement.name + ": " + e.what());
    }
}

SPIPlanPtr PrepareOne(const Statement &statement)
{
    int options = statement.custom_plan ? CURSOR_OPT_CUSTOM_PLAN : CURSOR_OPT_GENERIC_PLAN;
    std::string sql = NumberedSql(statement);
    std::vector<Oid> types(statement.params.size(), InvalidOid);
    SPIPlanPtr plan = nullptr;
    const char *text = sql.c_str();
    const std::vector<Param> *params = &statement.params;
    int nargs = static_cast<int>(types.size());
    Oid *argtypes = types.data();
    CallPg(
        [&]
        {
            for (int i = 0; i < nargs; ++i)
                argtypes[i] = TypeOid((*params)[i].type);
            plan = SPI_prepare_cursor(text, nargs, argtypes, options);
            if (plan == nullptr)
                elog(ERROR, "SPI_prepare_cursor failed: %s", SPI_result_code_string(SPI_result));
            SPI_keepplan(plan);
        });
    return plan;
}

bool RequiredRelationExists(const Statement &statement)
{
    if (!statement.requires_relation)
        return true;
    bool exists = false;
    const char *name = statement.requires_relation;
    CallPg(
        [&]
        {
            exists = OidIsValid(RangeVarGetRelid(
                makeRangeVarFromNameList(stringToQualifiedNameList(name)), NoLock, true));
        });
    return exists;
}

} // namespace

const TypeOids &PrepareStatements()
{
    Oid extension = InvalidOid;
    CallPg([&] { extension = get_extension_oid("permanode", false); });
    if (extension == plan_cache.extension)
        return plan_cache.types;

    // The extension was (re)created since: forget the old plans and types.
    for (auto &[statement, plan] : plan_cache.plans)
        CallPg([&] { SPI_freeplan(plan); });
    plan_cache.plans.clear();
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
    for (const Statement *statement : AllStatements())
        if (RequiredRelationExists(*statement))
            plan_cache.plans[statement] = PrepareOne(*statement);
    plan_cache.types = types;
    plan_cache.extension = extension;
    return plan_cache.types;
}

bool Prepared(const Statement &statement)
{
    if (plan_cache.plans.count(&statement) > 0)
        return true;
    // ALTER EXTENSION UPDATE keeps the extension's OID: prepare it once its relation exists.
    if (!statement.requires_relation || !RequiredRelationExists(statement))
        return false;
    plan_cache.plans[&statement] = PrepareOne(statement);
    return true;
}

Params &Params::Set(const char *name, const ArrayColumn &column)
{
    Datum value = 0;
    CallPg([&] { value = column.Build(); });
    return Push(name, value);
}

uint64 Execute(const Statement &statement, const Params &params)
{
    auto found = plan_cache.plans.find(&statement);
    if (found == plan_cache.plans.end())
        throw pg::PgError(ERRCODE_INTERNAL_ERROR,
                          std::string("ingest statement ") + statement.name + " is not prepared");
    // The values in the order of the statement's parameters, each set exactly once.
    std::vector<Datum> values(statement.params.size(), 0);
    std::vector<bool> set(statement.params.size(), false);
    for (const auto &[name, value] : params.values_)
    {
        std::size_t i = 0;
        while (i < statement.params.size() && name != statement.params[i].name)
            ++i;
        if (i == statement.params.size() || set[i])
            throw pg::PgError(ERRCODE_INTERNAL_ERROR,
                              std::string("ingest statement ") + statement.name + ": value for " +
                                  (i == statement.params.size() ? "unknown" : "repeated") +
                                  " parameter :" + std::string(name));
        values[i] = value;
        set[i] = true;
    }
    for (std::size_t i = 0; i < set.size(); ++i)
        if (!set[i])
            throw pg::PgError(ERRCODE_INTERNAL_ERROR,
                              std::string("ingest statement ") + statement.name +
                                  ": parameter :" + statement.params[i].name + " not set");
    std::string nulls(values.size(), ' ');
    SPIPlanPtr plan = found->second;
    Datum *datums = values.data();
    const char *null_flags = nulls.c_str();
    int result = 0;
    CallPg([&] { result = SPI_execute_plan(plan, datums, null_flags, false, 0); });
    if (result < 0)
        throw pg::PgError(ERRCODE_INTERNAL_ERROR, std::string("ingest statement failed: ") +
                                                      SPI_result_code_string(result));
    return SPI_processed;
}

} // namespace permanode::ledger
