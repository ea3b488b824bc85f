/*
 * statements.hpp
 *	  The SQL statements of ingest, prepared once per backend (SPI_prepare + SPI_keepplan) and
 *	  executed with array parameters, one statement per table per milestone.
 *	  Include only from .cpp files that include postgres.h (inside extern "C").
 */
#ifndef PERMANODE_LEDGER_STATEMENTS_HPP
#define PERMANODE_LEDGER_STATEMENTS_HPP

#include "ledger/pg_array.hpp"

extern "C"
{
#include "utils/timestamp.h"
}

#include <vector>

namespace permanode::ledger
{

enum class Statement
{
    kLock,
    kIsSynced,
    kChunkSizes,
    kMessages,
    kParents,
    kBlockLocator,
    kParentHints,
    kTags,
    kTagHints,
    kTransactions,
    kTransactionLocator,
    kMilestones,
    kMilestoneLocator,
    kSpentOutputs,
    kLocateSpent,
    kUnspentDelete,
    kBasicOutputs,
    kAliasOutputs,
    kFoundryOutputs,
    kNftOutputs,
    kLocateCreated,
    kChainLocator,
    kFoundryLocator,
    kAddressHints,
    kUnspentInsert,
    kLateSpends,
    kMsAnalytics,
    kAddressAnalytics,
    kMetrics,
    kDateCache,
    kSync,
    kCount
};

// Element type OIDs of the extension's identifier types, for building arrays of them.
struct TypeOids
{
    Oid hash32 = InvalidOid;
    Oid output_id = InvalidOid;
    Oid address = InvalidOid;
    Oid foundry_id = InvalidOid;
};

// Makes sure the statements are prepared for the installed extension (re-preparing after the
// extension was re-created) and returns its type OIDs. Call after SPI_connect.
const TypeOids &PrepareStatements();

// The parameters of one execution, in statement order.
class Params
{
  public:
    void Add(const ArrayColumn &column);
    void AddInt32(int32 value) { Push(Int32GetDatum(value)); }
    void AddInt64(int64 value) { Push(Int64GetDatum(value)); }
    void AddTimestamp(TimestampTz value) { Push(TimestampTzGetDatum(value)); }

  private:
    friend uint64 Execute(Statement statement, const Params &params);
    void Push(Datum value)
    {
        values_.push_back(value);
        nulls_.push_back(' ');
    }
    std::vector<Datum> values_;
    std::vector<char> nulls_;
};

// Executes a prepared statement; returns the rows it processed (SPI_tuptable holds returned
// rows). Errors are rethrown as PgError.
uint64 Execute(Statement statement, const Params &params);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_STATEMENTS_HPP */
