/*
 * output_rows.hpp
 *	  An output's row in the table of its kind (basic_outputs, alias_outputs, foundry_outputs,
 *	  nft_outputs) and in the unspent set, added to the columns of the table's statement.
 */
#ifndef PERMANODE_LEDGER_OUTPUT_ROWS_HPP
#define PERMANODE_LEDGER_OUTPUT_ROWS_HPP

#include "ledger/columns.hpp"
#include "ledger/derive.hpp"

#include <array>

namespace permanode::ledger
{

// The rows of one milestone's outputs, a set of columns per output table.
class OutputTableColumns
{
  public:
    explicit OutputTableColumns(const TypeOids &types);
    // Adds the output to the columns of its kind's table; false for a kind without a table.
    bool Add(const OutputRow &output);
    // The used row of a Chrysalis output spent in this milestone by message `spender`.
    void AddChrysalisUsed(const OutputRow &output, const codec::BlockId &spender);
    // Each table's columns (the statement's name is the table's).
    std::array<StatementColumns, 5> &Tables() { return tables_; }

  private:
    std::array<StatementColumns, 5> tables_; // basic, alias, foundry, nft, legacy
};

// Adds an output that stays unspent to the columns of sql::kUnspentInsert.
void AddUnspentOutput(StatementColumns &unspent, const OutputRow &output);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_OUTPUT_ROWS_HPP */
