/*
 * columns.cpp
 *	  See columns.hpp.
 */
#include "ledger/columns.hpp"

extern "C"
{
#include "catalog/pg_type_d.h"
#include "datatype/timestamp.h"
}

#include "pgcpp/guard.hpp"

#include <limits>
#include <string>

namespace permanode::ledger
{

using permanode::pg::PgError;

ArrayColumn ColumnOfType(std::string_view type, const TypeOids &types)
{
    // The extension's identifiers are fixed-length byte strings.
    if (type == "permanode.hash32[]")
        return ArrayColumn(types.hash32, 32, TYPALIGN_CHAR);
    if (type == "permanode.output_id[]")
        return ArrayColumn(types.output_id, 34, TYPALIGN_CHAR);
    if (type == "permanode.address[]")
        return ArrayColumn(types.address, 33, TYPALIGN_CHAR);
    if (type == "permanode.foundry_id[]")
        return ArrayColumn(types.foundry_id, 38, TYPALIGN_CHAR);
    if (type == "int2[]")
        return ArrayColumn(INT2OID, 2, TYPALIGN_SHORT);
    if (type == "int4[]")
        return ArrayColumn(INT4OID, 4, TYPALIGN_INT);
    if (type == "int8[]")
        return ArrayColumn(INT8OID, 8, TYPALIGN_DOUBLE);
    if (type == "timestamptz[]")
        return ArrayColumn(TIMESTAMPTZOID, 8, TYPALIGN_DOUBLE);
    if (type == "bytea[]")
        return ArrayColumn(BYTEAOID, -1, TYPALIGN_INT);
    if (type == "text[]")
        return ArrayColumn(TEXTOID, -1, TYPALIGN_INT);
    throw PgError(ERRCODE_INTERNAL_ERROR, "no array column of type " + std::string(type));
}

StatementColumns::StatementColumns(const Statement &statement, const TypeOids &types)
    : statement_(statement)
{
    for (const Param &param : statement.params)
    {
        std::string_view type = param.type;
        if (type.size() > 2 && type.substr(type.size() - 2) == "[]")
            columns_.emplace_back(param.name, ColumnOfType(type, types));
    }
}

ArrayColumn &StatementColumns::operator[](std::string_view name)
{
    for (auto &[column_name, column] : columns_)
        if (name == column_name)
            return column;
    throw PgError(ERRCODE_INTERNAL_ERROR, std::string("ingest statement ") + statement_.name +
                                              " has no array parameter :" + std::string(name));
}

Params &StatementColumns::Bind(Params &params) const
{
    // unnest() pads shorter arrays with NULLs: a column filled for some rows only would shift
    // nothing but silently null its values, so unequal lengths are a bug to report.
    for (const auto &[name, column] : columns_)
        if (column.Count() != Rows())
            throw PgError(ERRCODE_INTERNAL_ERROR, std::string("ingest statement ") +
                                                      statement_.name + ": column :" + name +
                                                      " has " + std::to_string(column.Count()) +
                                                      " rows, not " + std::to_string(Rows()));
    for (const auto &[name, column] : columns_)
        params.Set(name, column);
    return params;
}

TimestampTz FromUnix(std::uint32_t seconds)
{
    return (static_cast<TimestampTz>(seconds) -
            ((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)) *
           USECS_PER_SEC;
}

int64 Amount(std::uint64_t amount)
{
    if (amount > static_cast<std::uint64_t>(std::numeric_limits<int64>::max()))
        throw PgError(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                      "token amount " + std::to_string(amount) + " is out of range for bigint");
    return static_cast<int64>(amount);
}

void AddOutputId(ArrayColumn &column, const codec::OutputId &output_id)
{
    codec::OutputIdBytes bytes = codec::ToBytes(output_id);
    column.AddFixed(bytes.data());
}

void AddAddress(ArrayColumn &column, const std::optional<codec::Address> &address)
{
    if (!address)
    {
        column.AddNull();
        return;
    }
    codec::AddressBytes bytes = codec::ToBytes(*address);
    column.AddFixed(bytes.data());
}

void AddBytes(ArrayColumn &column, const std::optional<codec::Bytes> &bytes)
{
    if (bytes)
        column.AddBytes(bytes->data(), bytes->size());
    else
        column.AddNull();
}

void AddTime(ArrayColumn &column, const std::optional<std::uint32_t> &unix_time)
{
    if (unix_time)
        column.AddInt64(FromUnix(*unix_time));
    else
        column.AddNull();
}

void AddOptionalAmount(ArrayColumn &column, const std::optional<std::uint64_t> &amount)
{
    if (amount)
        column.AddInt64(Amount(*amount));
    else
        column.AddNull();
}

void AddSenderType(ArrayColumn &column, const std::optional<codec::Address> &sender)
{
    if (sender)
        column.AddInt16(static_cast<int16>(sender->type));
    else
        column.AddNull();
}

} // namespace permanode::ledger
