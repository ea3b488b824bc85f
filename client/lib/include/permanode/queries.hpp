// The library's queries, one per typed call of Client (which runs them one at a time). Run them
// yourself, for instance in libpq's pipeline mode, to have many in flight on one connection.
// A call that Client makes of two queries says so; run the second when the first tells you to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "permanode/cursor.hpp"
#include "permanode/ledger_types.hpp"
#include "permanode/query.hpp"

namespace permanode::client::queries
{

// What every session on the archive runs first (no parameters): schema permanode on the search
// path, where our types' operators live. Client runs it when it connects.
const char *SessionSetupSql();
// Run around a Statement with index_order: its planner settings, then the session's own again;
// one statement each, without parameters (a pipeline sends each on its own).
const std::vector<std::string> &IndexOrderOn();
const std::vector<std::string> &IndexOrderOff();

// --- blocks ---
Query<std::optional<BlockRow>> Block(const std::string &block_id);
// The ID of the block that carries a transaction and was included; then Block(id).
Query<std::optional<std::string>> TransactionBlockId(const std::string &transaction_id);
Query<Page<std::string>> BlockChildren(const std::string &block_id, int page_size,
                                       const std::optional<Cursor> &after);
Query<Page<std::string>> BlocksByTag(const std::string &tag, int page_size,
                                     const std::optional<Cursor> &after);
// Throws Error (22023) when `after` is not a cursor of this list.
Query<Page<std::string>> MilestoneBlocks(std::int32_t milestone_index, int page_size,
                                         const std::optional<Cursor> &after);
// The same list with each block's payload kind, in white-flag order (kOldest) or its reverse.
// Throws Error (22023) when `after` is not a cursor of this list.
Query<Page<MilestoneBlock>> MilestoneBlocksWithKind(std::int32_t milestone_index, SortOrder sort,
                                                    int page_size,
                                                    const std::optional<Cursor> &after);

// --- outputs ---
// The output, created in era `era` (a protocol version) when given, else its newest row (an
// output the Stardust genesis carried on from Chrysalis has a row of each era), with its spend
// in that era.
Query<std::optional<OutputRow>> Output(const std::string &output_id,
                                       std::optional<std::int16_t> era = std::nullopt);
Query<Page<std::string>> AddressOutputs(const std::string &address, int page_size,
                                        const std::optional<Cursor> &after);
// Throws Error (22023) when a filter does not apply to the kind. An empty page reads with
// ledger_index 0: then take it from LedgerIndex().
Query<OutputIdPage> Outputs(OutputKind kind, const OutputFilter &filter, bool include_spent,
                            int page_size, const std::optional<Cursor> &after);
Query<std::optional<std::string>> ChainOutput(OutputKind kind, const std::string &id,
                                              std::optional<std::int32_t> as_of = std::nullopt);

// --- milestones ---
Query<std::optional<MilestoneRow>> MilestoneByIndex(std::int32_t milestone_index);
Query<std::optional<MilestoneRow>> MilestoneById(const std::string &milestone_id);
// The milestones held (of both eras), by index; the cursor's id is the milestone ID.
Query<Page<MilestoneListItem>> Milestones(const MilestoneFilter &filter, int page_size,
                                          const std::optional<Cursor> &after);
Query<std::vector<MilestoneRow>> LatestMilestones(int count);
Query<std::optional<UtxoChanges>> UtxoChangesAt(std::int32_t milestone_index);
Query<std::int32_t> LedgerIndex();
// The first and the newest milestone held (zeros when none).
Query<std::pair<std::int32_t, std::int32_t>> HeldMilestones();

// --- following a node ---
// Each node `permanode sync` follows (or followed), judged healthy when its sync reported within
// max_silence_seconds and the archive is at most max_lag milestones behind it
// (permanode.sync_health); none when no sync ever ran.
Query<std::vector<SyncFollowRow>> SyncHealth(int max_lag, int max_silence_seconds);

// --- explorer and analytics ---
// Now, or at the end of milestone `as_of` (its era's outputs).
Query<Balance> BalanceOf(const std::string &address,
                         std::optional<std::int32_t> as_of = std::nullopt);
// The outputs an address holds at the end of milestone `as_of` (default: the newest held),
// newest first.
Query<Page<HeldOutput>> OutputsAt(const std::string &address, std::optional<std::int32_t> as_of,
                                  int page_size, const std::optional<Cursor> &after);
Query<Page<LedgerUpdate>> LedgerUpdatesByAddress(const std::string &address, int page_size,
                                                 const std::optional<Cursor> &after);
Query<Page<LedgerUpdate>> LedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                   const std::optional<Cursor> &after);
// An address's outputs of every era, newest first (address: 0x-hex, type byte first, or bech32
// in the database's HRP), within `span`.
Query<Page<HistoryEntry>> AddressHistory(const std::string &address, int page_size,
                                         const std::optional<Cursor> &after,
                                         const MilestoneSpan &span = {});
// Where a legacy address's funds went by migration, oldest first.
Query<std::vector<Migration>> MigrationsOf(const std::string &legacy_address);
// An entry as CSV (the header's columns, RFC 4180) and as one line of JSON, without newline.
std::string HistoryCsvHeader();
std::string HistoryCsvLine(const HistoryEntry &entry);
std::string HistoryJsonLine(const HistoryEntry &entry);
// The `top` addresses with the largest balances, largest first (ties by address), and the
// balances' distribution by powers of ten: now (the Stardust outputs), or at the end of milestone
// `as_of` (its era's outputs), as BalanceOf counts them.
Query<RichestAddresses> RichestAddressesAt(std::optional<std::int32_t> as_of, int top);
Query<TokenDistribution> TokenDistributionAt(std::optional<std::int32_t> as_of);
Query<std::optional<MilestoneAnalytics>> AnalyticsAt(std::int32_t milestone_index);
Query<std::vector<DailyAnalytics>> DailyAnalyticsBetween(const std::string &from_date,
                                                         const std::string &to_date);

// --- Chrysalis (protocol 1) ---
// Messages, outputs and milestones by ID and index are the queries above: their rows carry the
// protocol version. Addresses are bech32 or the 0x-hex of their 33 bytes (type 0, the hash).
// The first and newest milestone of an era (kChrysalis, kStardust); nullopt when it has none.
Query<std::optional<EraMilestones>> EraOf(std::int16_t protocol_version);
// Messages with an indexation index (bytea's text form: a backslash, x, hex digits; as
// BlocksByTag), of Chrysalis milestones only, newest first.
Query<Page<std::string>> ChrysalisMessagesByIndex(const std::string &index, int page_size,
                                                  const std::optional<Cursor> &after);
Query<ChrysalisBalance> ChrysalisBalanceOf(const std::string &address);
// At the end of a Chrysalis milestone (ledger_index is that milestone).
Query<ChrysalisBalance> ChrysalisBalanceAt(const std::string &address,
                                           std::int32_t milestone_index);
// The outputs held at the end of a Chrysalis milestone, newest first.
Query<ChrysalisOutputIds> ChrysalisAddressOutputsAt(const std::string &address,
                                                    std::optional<std::int16_t> output_type,
                                                    std::int32_t milestone_index, int max_results);
// At most max_results output IDs: unspent ones (of output_type, 0 or 1, when given), then with
// include_spent the spent ones.
Query<ChrysalisOutputIds> ChrysalisAddressOutputs(const std::string &address,
                                                  std::optional<std::int16_t> output_type,
                                                  bool include_spent, int max_results);
// Milestones with a receipt (of migrated_at, when given), by migratedAt then milestone index.
// They are found by reading every Chrysalis milestone's payload.
Query<std::vector<ReceiptRow>> Receipts(std::optional<std::int64_t> migrated_at);
// The newest milestone with a receipt: its treasury transaction made the current treasury.
Query<std::optional<ReceiptRow>> LatestReceipt();

// --- the legacy (ternary) era, 2016-2021: schema legacy ---
// Lists of hashes or addresses go as one array parameter; answers come in the order asked.
namespace legacy
{
// The trytes (2673) of each transaction, nullopt for those the archive does not hold.
Query<std::vector<std::optional<std::string>>> Trytes(const std::vector<std::string> &hashes);
// Hashes of the transactions that match the filter (in no particular order), at most limit + 1:
// more than limit tells the caller that the answer was cut. A filter without fields matches
// nothing.
Query<std::vector<std::string>> FindTransactions(const client::legacy::TransactionFilter &filter,
                                                 int limit);
// Whether each transaction was confirmed by a milestone (false for those not held).
Query<std::vector<bool>> InclusionStates(const std::vector<std::string> &hashes);
// Whether each address was spent from: an input of it was confirmed (legacy.was_spent_from).
Query<std::vector<bool>> WereSpentFrom(const std::vector<std::string> &addresses);
// Each address's balance at the end of milestone_index (legacy.balance; nullopt: every confirmed
// transaction counts).
Query<std::vector<std::int64_t>> Balances(const std::vector<std::string> &addresses,
                                          std::optional<std::int32_t> milestone_index);
// A milestone by index, or the newest one (nullopt); nullopt when the archive does not hold it.
Query<std::optional<client::legacy::Milestone>> MilestoneAt(std::optional<std::int32_t> index);
// The newest and oldest milestones held and the Coordinator.
Query<client::legacy::Milestones> MilestoneRange();
} // namespace legacy

} // namespace permanode::client::queries
