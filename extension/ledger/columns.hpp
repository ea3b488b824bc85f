/*
 * columns.hpp
 *	  The array columns of a set-based statement, filled row by row and bound by parameter name,
 *	  and the conversions of ledger values into their elements.
 */
#ifndef PERMANODE_LEDGER_COLUMNS_HPP
#define PERMANODE_LEDGER_COLUMNS_HPP

#include "codec/address.hpp"
#include "codec/ids.hpp"
#include "codec/types.hpp"

extern "C"
{
#include "postgres.h"

#include "utils/timestamp.h"
}

#include "ledger/pg_array.hpp"
#include "ledger/statements.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace permanode::ledger
{

// An empty column for a parameter of type `type` (an array type of a statement's list).
ArrayColumn ColumnOfType(std::string_view type, const TypeOids &types);

// A column for each array parameter of a statement, by name: a row adds to each, and Bind sets
// them all on the statement's parameters (the scalar ones are set by the caller).
class StatementColumns
{
  public:
    StatementColumns(const Statement &statement, const TypeOids &types);
    // The column of parameter `name`; an internal error when the statement has no such array.
    ArrayColumn &operator[](std::string_view name);
    // Rows added (every column gets one element per row).
    std::size_t Rows() const { return columns_.empty() ? 0 : columns_.front().second.Count(); }
    const Statement &Of() const { return statement_; }
    Params &Bind(Params &params) const;

  private:
    const Statement &statement_;
    std::vector<std::pair<const char *, ArrayColumn>> columns_;
};

TimestampTz FromUnix(std::uint32_t seconds);
// Token amounts are u64 on the wire and bigint in SQL; out of range is an error.
int64 Amount(std::uint64_t amount);

void AddOutputId(ArrayColumn &column, const codec::OutputId &output_id);
void AddAddress(ArrayColumn &column, const std::optional<codec::Address> &address);
void AddBytes(ArrayColumn &column, const std::optional<codec::Bytes> &bytes);
void AddTime(ArrayColumn &column, const std::optional<std::uint32_t> &unix_time);
void AddOptionalAmount(ArrayColumn &column, const std::optional<std::uint64_t> &amount);
// The sender's address type (the seed's sender_type column).
void AddSenderType(ArrayColumn &column, const std::optional<codec::Address> &sender);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_COLUMNS_HPP */
