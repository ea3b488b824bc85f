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

// --- outputs ---
Query<std::optional<OutputRow>> Output(const std::string &output_id);
Query<Page<std::string>> AddressOutputs(const std::string &address, int page_size,
                                        const std::optional<Cursor> &after);
// Throws Error (22023) when a filter does not apply to the kind. An empty page reads with
// ledger_index 0: then take it from LedgerIndex().
Query<OutputIdPage> Outputs(OutputKind kind, const OutputFilter &filter, bool include_spent,
                            int page_size, const std::optional<Cursor> &after);
Query<std::optional<std::string>> ChainOutput(OutputKind kind, const std::string &id);

// --- milestones ---
Query<std::optional<MilestoneRow>> MilestoneByIndex(std::int32_t milestone_index);
Query<std::optional<MilestoneRow>> MilestoneById(const std::string &milestone_id);
Query<std::vector<MilestoneRow>> LatestMilestones(int count);
Query<std::optional<UtxoChanges>> UtxoChangesAt(std::int32_t milestone_index);
Query<std::int32_t> LedgerIndex();

// --- explorer and analytics ---
Query<Balance> BalanceOf(const std::string &address);
Query<Page<LedgerUpdate>> LedgerUpdatesByAddress(const std::string &address, int page_size,
                                                 const std::optional<Cursor> &after);
Query<Page<LedgerUpdate>> LedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                   const std::optional<Cursor> &after);
Query<std::optional<MilestoneAnalytics>> AnalyticsAt(std::int32_t milestone_index);
Query<std::vector<DailyAnalytics>> DailyAnalyticsBetween(const std::string &from_date,
                                                         const std::string &to_date);

} // namespace permanode::client::queries
