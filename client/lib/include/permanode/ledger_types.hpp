// Rows the client library returns. IDs are text in the database's canonical form (0x-hex, bech32
// addresses); raw bytes (blocks, outputs, payloads) are std::string byte buffers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "permanode/cursor.hpp"

namespace permanode::client
{

// The protocol versions (eras) the ledger holds: messages.version, milestone_protocols.
constexpr std::int16_t kChrysalis = 1; // messages, REST API v1
constexpr std::int16_t kStardust = 2;  // blocks, core API v2

// A block (seed: message) with its metadata.
struct BlockRow
{
    std::string block_id;
    std::int16_t protocol_version = kStardust;   // kChrysalis: a message (raw is TIP-6 bytes)
    std::string raw;                             // TIP-24 bytes
    std::string variant;                         // payload kind ("" when the block has none)
    std::optional<std::int32_t> milestone_index; // referencing milestone
    std::optional<std::int16_t> inclusion_state; // 0 no_transaction, 1 included, 2 conflicting
    std::optional<std::int16_t> conflict_reason;
    std::optional<std::int32_t> white_flag_index;
    bool is_solid = false;
    std::optional<bool> should_promote;
    std::optional<bool> should_reattach;
};

// An output with where it was booked and, once spent, where it was spent.
struct OutputRow
{
    std::string output_id;
    std::int16_t protocol_version = kStardust; // kChrysalis: a SigLocked output (legacy_outputs)
    std::string raw;                           // TIP-18 bytes (Chrysalis: TIP-7 output bytes)
    std::string block_id;
    std::int32_t milestone_index_booked = 0;
    std::int64_t milestone_timestamp_booked = 0; // unix seconds
    bool is_spent = false;
    std::int32_t milestone_index_spent = 0;
    std::int64_t milestone_timestamp_spent = 0;
    std::string transaction_id_spent;
    std::int32_t ledger_index = 0; // the newest ingested milestone when read
};

struct MilestoneRow
{
    std::int32_t milestone_index = 0;
    std::int16_t protocol_version = kStardust; // of the milestone (milestone_protocols)
    std::string milestone_id;
    std::string block_id;
    std::int64_t timestamp = 0; // unix seconds
    std::string payload;        // raw milestone payload (with its u32 type)
};

struct UtxoChanges
{
    std::int32_t milestone_index = 0;
    std::int16_t protocol_version = kStardust;
    std::vector<std::string> created_outputs;
    std::vector<std::string> consumed_outputs;
};

enum class OutputKind
{
    kBasic,
    kAlias,
    kFoundry,
    kNft,
};
const char *ToString(OutputKind kind); // "basic", "alias", "foundry", "nft"

// Indexer filters (IOTA indexer v1 names); unset fields do not filter. Addresses are bech32,
// tag is 0x-hex, times are unix seconds.
struct OutputFilter
{
    std::optional<std::string> address;
    std::optional<bool> has_native_tokens;
    std::optional<std::int32_t> min_native_token_count;
    std::optional<std::int32_t> max_native_token_count;
    std::optional<bool> has_storage_deposit_return;
    std::optional<std::string> storage_deposit_return_address;
    std::optional<bool> has_expiration;
    std::optional<std::int64_t> expires_before;
    std::optional<std::int64_t> expires_after;
    std::optional<std::string> expiration_return_address;
    std::optional<bool> has_timelock;
    std::optional<std::int64_t> timelocked_before;
    std::optional<std::int64_t> timelocked_after;
    std::optional<std::string> sender;
    std::optional<std::string> tag;
    std::optional<std::string> issuer;
    std::optional<std::string> state_controller;
    std::optional<std::string> governor;
    std::optional<std::string> alias_address;
    std::optional<std::int64_t> created_before;
    std::optional<std::int64_t> created_after;
    // What the address can unlock at the newest milestone's timestamp (or as_of's): an
    // expiration unlock condition (TIP-18) gives the output to its return address from its time
    // on.
    std::optional<std::string> unlockable_by_address;
    // Not a filter: the milestone to answer for (ledgerIndex), whose end the unspent set is
    // taken at; unset: the newest milestone held.
    std::optional<std::int32_t> as_of;
};

// The filters each kind supports (the rest must be unset): the IOTA indexer's sets.
// Returns the indexer name of the first unsupported filter that is set, or nullptr.
const char *UnsupportedFilter(OutputKind kind, const OutputFilter &filter);

struct OutputIdPage
{
    std::int32_t ledger_index = 0;
    std::vector<std::string> items; // output IDs
    std::optional<Cursor> next;
};

struct Balance
{
    std::string address;
    std::int64_t total_balance = 0;      // every unspent Stardust output the address unlocks
    std::int64_t sig_locked_balance = 0; // of those, the ones without return, timelock, expiry
    std::int32_t ledger_index = 0;       // the milestone the balance is at the end of
    // Per output kind (basic, alias, foundry, nft; legacy in the Chrysalis era): the total.
    std::vector<std::pair<std::string, std::int64_t>> by_kind;
};

// An output an address held at the end of a milestone.
struct HeldOutput
{
    std::string output_id;
    std::string output_kind;
    std::int64_t amount = 0;
    std::int32_t milestone_index_booked = 0;
    std::optional<std::int32_t> milestone_index_spent; // later than the milestone asked for
};

// An output created or spent, for an address or a milestone.
struct LedgerUpdate
{
    std::string output_id;
    bool is_spent = false;
    std::int32_t milestone_index = 0;
    std::int64_t milestone_timestamp = 0; // unix seconds
    std::int64_t amount = 0;
};

// One output of an address's history across eras (permanode.address_history): where it came in,
// where it was spent, and for funds migrated from the legacy network, where they came from.
struct HistoryEntry
{
    std::string era; // chrysalis or stardust
    std::string output_id;
    std::string output_kind; // basic, nft, sig_locked_single, sig_locked_dust_allowance
    std::int32_t milestone_index = 0;
    std::int64_t milestone_timestamp = 0; // unix seconds
    std::int64_t amount = 0;
    std::string block_id;
    std::optional<std::int32_t> spent_milestone_index; // the milestone that spent it
    std::optional<std::int32_t>
        carried_to_stardust_at;               // the Stardust milestone that booked it again
    std::optional<std::string> migrated_tail; // legacy tail transaction (81 trytes)
    std::optional<std::string> migrated_bundle;
    std::vector<std::string> migrated_from; // the legacy addresses the bundle spent from
};

// Milestones a history is read within (unset: unbounded).
struct MilestoneSpan
{
    std::optional<std::int32_t> from;
    std::optional<std::int32_t> to;
};

// A legacy address's migration (TIP-17): the bundle it spent from, the receipt entry's tail
// transaction, and the Ed25519 address and output credited.
struct Migration
{
    std::string bundle;
    std::string tail_transaction_hash;
    std::string output_id;
    std::string ed25519_address; // 0x-hex, type byte first
    std::int64_t amount = 0;
    std::int32_t milestone_index = 0;
    std::int64_t milestone_timestamp = 0; // unix seconds
};

// The explorer's lists of milestones (by index, newest or oldest first) and of a milestone's
// blocks (white-flag order, or its reverse).
enum class SortOrder
{
    kNewest,
    kOldest,
};

// Which milestones a list holds: those of [start, end] (unix seconds, inclusive; unset: open).
struct MilestoneFilter
{
    std::optional<std::int64_t> start_timestamp;
    std::optional<std::int64_t> end_timestamp;
    SortOrder sort = SortOrder::kNewest;
};

struct MilestoneListItem
{
    std::int32_t milestone_index = 0;
    std::string milestone_id;
    std::int64_t timestamp = 0; // unix seconds
};

// A block a milestone references.
struct MilestoneBlock
{
    std::string block_id;
    std::int32_t white_flag_index = 0;
    std::int16_t protocol_version = kStardust;
    std::string variant; // payload kind as BlockRow::variant ("" when the block has none)
};

// The addresses holding the most (the unspent outputs whose `address` they are).
struct AddressBalance
{
    std::string address;
    std::int64_t balance = 0;
};
struct RichestAddresses
{
    std::int32_t ledger_index = 0; // the milestone they are at the end of
    std::vector<AddressBalance> top;
};

// The addresses whose balance is in [10^exponent, 10^(exponent + 1)).
struct DistributionBucket
{
    int exponent = 0;
    std::int64_t address_count = 0;
    std::int64_t total_balance = 0;
};
struct TokenDistribution
{
    std::int32_t ledger_index = 0;
    std::vector<DistributionBucket> buckets; // by exponent
};

struct MilestoneAnalytics
{
    std::int32_t milestone_index = 0;
    std::int32_t block_count = 0;
    std::int32_t transaction_count = 0;
    std::int64_t transferred_tokens = 0;
};

struct DailyAnalytics
{
    std::string date; // YYYY-MM-DD
    std::int32_t total_addresses = 0;
    std::int32_t send_addresses = 0;
    std::int32_t recv_addresses = 0;
};

// --- Chrysalis (protocol 1) ---

// The milestones of one era: the first and the newest ingested, the newest one's timestamp and
// the last message of its cone in white-flag order (in Chrysalis, the milestone's own message
// when the cone holds it), which names the network.
struct EraMilestones
{
    std::int16_t protocol_version = 0;
    std::int32_t first_index = 0;
    std::int32_t last_index = 0;
    std::int64_t last_timestamp = 0; // unix seconds
    std::optional<std::string> last_message_id;
    std::string bech32_hrp; // the database's network HRP
};

// A node that `permanode sync` follows, as permanode.sync_health() judges it.
struct SyncFollowRow
{
    std::string source; // "INX localhost:9029"
    bool live = false;  // follows the tip (not a bounded run)
    std::string state;  // following, behind, not reporting, stopped
    bool healthy = true;
    std::string reason;                         // why not healthy; "" when healthy
    std::optional<std::int32_t> archived_index; // the archive's newest milestone
    std::int32_t node_confirmed_index = 0;
    std::int32_t lag_milestones = 0;
    std::optional<std::int32_t> lag_seconds; // unknown without both milestones' timestamps
    double milestones_per_second = 0;
    double blocks_per_second = 0;
    std::int64_t reconnects = 0;
    double heartbeat_age_seconds = 0;
};

// An address's unspent Chrysalis outputs (TIP-15 dust rules need the last three).
struct ChrysalisBalance
{
    std::int64_t balance = 0;
    std::int64_t dust_allowance = 0; // the sum of its SigLockedDustAllowanceOutputs
    std::int32_t dust_outputs = 0;   // SigLockedSingleOutputs below 1 Mi
    std::int32_t ledger_index = 0;   // the newest Chrysalis milestone
};

// Output IDs of an address, the unspent first (newest first), then the spent ones.
struct ChrysalisOutputIds
{
    std::vector<std::string> items;
    std::int32_t ledger_index = 0; // the newest Chrysalis milestone
};

// A milestone that carries a receipt (TIP-17); its payload holds the receipt.
struct ReceiptRow
{
    std::int32_t milestone_index = 0;
    std::int64_t migrated_at = 0;
    std::string milestone_id;
    std::string payload; // the raw milestone payload
};

// --- the legacy (ternary) era, 2016-2021: schema legacy ---
// Not to be confused with the Chrysalis outputs above, which seed 002 stores in legacy_outputs.
// Hashes, addresses and tags are trytes (A-Z and 9): 81 for hashes and addresses, 27 for tags.
namespace legacy
{

// A milestone of the Coordinator: the tail transaction of its bundle.
struct Milestone
{
    std::int32_t index = 0;
    std::string hash;
    std::int64_t issued_at_ms = 0; // the tail's time (legacy.transactions.issued_at)
};

// What the archive holds of the Coordinator's milestones.
struct Milestones
{
    std::optional<Milestone> latest;
    std::optional<std::int32_t> first_index; // the oldest milestone held
    std::string coordinator;                 // "" when none is configured (legacy.configure)
};

// findTransactions' fields: a transaction matches when it matches every field given (an
// intersection), and it matches a field when it matches any of its values (a union).
struct TransactionFilter
{
    std::optional<std::vector<std::string>> bundles;
    // The address of a transaction with or without value (legacy.edges and legacy.zero_value).
    std::optional<std::vector<std::string>> addresses;
    std::optional<std::vector<std::string>> tags; // 27 trytes each
    // Transactions whose trunk or branch is one of these.
    std::optional<std::vector<std::string>> approvees;
};

} // namespace legacy

} // namespace permanode::client
