/*
 * statements.hpp
 *	  The SQL statements of ingest, prepared once per backend (SPI_prepare + SPI_keepplan) and
 *	  executed with array parameters, one statement per table per milestone.
 */
#ifndef PERMANODE_LEDGER_STATEMENTS_HPP
#define PERMANODE_LEDGER_STATEMENTS_HPP

#include "ledger/pg_array.hpp"

extern "C"
{
#include "utils/timestamp.h"
}

#include <string_view>
#include <utility>
#include <vector>

namespace permanode::ledger
{

// A parameter of a statement: its :name in the SQL and its type.
struct Param
{
    const char *name;
    const char *type;
};

// One of ingest's statements: its SQL, with a :name placeholder for each parameter, and the
// parameters. Preparing it numbers the placeholders from the list, and fails when the two
// disagree (ledger/named_sql.hpp); executing it binds the values by name.
struct Statement
{
    const char *name; // for errors
    const char *sql;
    std::vector<Param> params;
    // Planned at each execution, with the arrays as constants (see statements.cpp).
    bool custom_plan = false;
    // A relation the statement needs that older versions of the extension's schema lack: the
    // statement is prepared only where it exists (see Prepared()).
    const char *requires_relation = nullptr;
};

// The statements, defined in statements.cpp.
namespace sql
{
extern const Statement kLock, kIsSynced, kChunkSizes, kMessages, kParents, kBlockLocator,
    kParentHints, kTags, kTagHints, kTransactions, kTransactionLocator, kMilestones,
    kMilestoneLocator, kSpentOutputs, kLocateSpent, kUnspentDelete, kUnspentRetire, kBasicOutputs,
    kAliasOutputs, kFoundryOutputs, kNftOutputs, kChrysalisOutputs, kChrysalisUsedLate, kEraLock,
    kEraWait, kEraBounds, kMilestoneProtocol, kReceipts, kMigratedFunds, kStreamLedgerOn,
    kStreamLedger, kRetireMigrated, kRetireMigratedAsOf, kLocateChrysalis, kLocateCreated,
    kChainLocator, kFoundryLocator, kAddressHints, kUnspentInsert, kUnspentInsertAsOf, kLateSpends,
    kMsAnalytics, kAddressAnalytics, kMetrics, kDateCache, kSync;
} // namespace sql

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

// Whether the statement is prepared: false when the installed schema lacks the relation it
// requires (an extension not yet updated to this module's version).
bool Prepared(const Statement &statement);

// The values of one execution, by parameter name.
class Params
{
  public:
    Params &Set(const char *name, const ArrayColumn &column);
    Params &SetInt16(const char *name, int16 value) { return Push(name, Int16GetDatum(value)); }
    Params &SetInt32(const char *name, int32 value) { return Push(name, Int32GetDatum(value)); }
    Params &SetInt64(const char *name, int64 value) { return Push(name, Int64GetDatum(value)); }
    Params &SetTimestamp(const char *name, TimestampTz value)
    {
        return Push(name, TimestampTzGetDatum(value));
    }

  private:
    friend uint64 Execute(const Statement &statement, const Params &params);
    Params &Push(const char *name, Datum value)
    {
        values_.emplace_back(name, value);
        return *this;
    }
    std::vector<std::pair<std::string_view, Datum>> values_;
};

// Executes a statement (prepared once per backend); returns the rows it processed (SPI_tuptable
// holds returned rows). A parameter left unset, or a value set for no parameter, is an error.
// Errors are rethrown as PgError.
uint64 Execute(const Statement &statement, const Params &params);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_STATEMENTS_HPP */
