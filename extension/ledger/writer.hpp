/*
 * writer.hpp
 *	  MilestoneWriter: writes one milestone's derived rows through SPI, one set-based statement
 *	  per table. Call inside SPI_connect/SPI_finish; errors are thrown as PgError.
 */
#ifndef PERMANODE_LEDGER_WRITER_HPP
#define PERMANODE_LEDGER_WRITER_HPP

#include "ledger/analytics.hpp"
#include "ledger/columns.hpp"
#include "ledger/derive.hpp"
#include "ledger/known_hints.hpp"
#include "ledger/statements.hpp"

#include <map>
#include <string>
#include <vector>

namespace permanode::ledger
{

// The range (ms_range_id) of the milestone in each ledger table, from the tables' chunk sizes.
class Ranges
{
  public:
    Ranges(uint32 milestone_index, std::map<std::string, int32> chunk_sizes)
        : milestone_index_(milestone_index), chunk_sizes_(std::move(chunk_sizes))
    {
    }
    int32 Of(const char *table) const { return Of(table, milestone_index_); }
    // The range of another milestone in the table.
    int32 Of(const char *table, uint32 milestone_index) const;
    // The (table, range) of every ledger table for a milestone.
    std::vector<std::pair<std::string, int32>> AllOf(uint32 milestone_index) const;

  private:
    uint32 milestone_index_;
    std::map<std::string, int32> chunk_sizes_;
};

// Reads permanode.ledger_tables.
Ranges ReadRanges(uint32 milestone_index);

class MilestoneWriter
{
  public:
    MilestoneWriter(const MilestoneRows &rows, const TypeOids &types, const Ranges &ranges);

    // messages, parents, tags, transactions, milestones and their locators.
    void WriteBlocks();
    // spent_outputs, output_locator and the unspent set; returns what the unspent set knew of
    // the spent outputs.
    std::vector<KnownOutput> WriteSpends();
    // The output tables, their locators and the unspent set.
    void WriteOutputs();
    // ms_analytics and address_analytics.
    void WriteAnalytics(const MilestoneAnalytics &analytics);
    // The rows that concurrent milestones share, whose row locks last until commit, so they are
    // written last: parent_hints, addresses_hints (outputs and analytics) and tag_hints ...
    void WriteHints(const MilestoneAnalytics &analytics);
    // ... then metrics_cache and date_cache, which every milestone of a day touches.
    void WriteDailyMetrics(const MilestoneAnalytics &analytics);
    // The sync row that marks the milestone as ingested, and its protocol's row.
    void WriteSync();
    // The milestone's events on the ledger stream (88_streams.sql): the milestone payloads the
    // cone carries, the outputs created and those spent (`spent`, from WriteSpends).
    void WriteStream(const std::vector<KnownOutput> &spent);

  private:
    // An address_analytics row of another milestone that BookLateSpends added tokens to.
    struct LateSpend
    {
        codec::Address owner;
        int32 range;
        bool inserted; // a new row, which needs its hint
        TimestampTz spent_at;
    };
    // Analytics of spends that committed before the outputs they spent were created.
    void BookLateSpends(const std::map<codec::OutputId, const OutputRow *> &outputs);
    // Chrysalis outputs a Stardust snapshot books again under their IDs leave the unspent set.
    void RetireMigratedOutputs();
    // The used rows of Chrysalis outputs among those (in the spender's range).
    void WriteChrysalisUsedLate(const std::map<codec::OutputId, const OutputRow *> &outputs);
    // Per block of the cone: it came earlier in the cone, and is written once.
    std::vector<bool> RepeatedBlocks() const;
    // messages and the block locator.
    void WriteMessages(const std::vector<bool> &repeated);
    void WriteParents(const std::vector<bool> &repeated);
    void WriteTags(const std::vector<bool> &repeated);
    // transactions and the transaction locator.
    void WriteTransactions(const std::vector<bool> &repeated);
    // The milestone payloads the cone carries, and the milestone locator.
    void WriteMilestones();
    void WriteReceipts();
    void WriteMigratedFunds(const ReceiptRow &receipt);
    // Parameters with the milestone's index and timestamp and the range `range`.
    Params InRange(int32 range) const;
    ArrayColumn Hashes() const;
    ArrayColumn OutputIds() const;
    ArrayColumn Addresses() const;

    const MilestoneRows &rows_;
    const TypeOids &types_;
    const Ranges &ranges_;
    TimestampTz ms_timestamp_;
    int32 milestone_index_;
    std::vector<LateSpend> late_spends_;
    // Outputs this milestone creates that an earlier-ingested milestone spent (for WriteStream).
    std::vector<const OutputRow *> spent_before_;
    // Chrysalis outputs of earlier milestones that this one spends, each with its spender.
    std::vector<OutputRow> chrysalis_used_;
};

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_WRITER_HPP */
