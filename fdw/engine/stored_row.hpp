/*
 * stored_row.hpp
 *	  The bytes of a stored row (a rows family's value): a PostgreSQL MinimalTuple of the
 *	  archive's columns. Parsed here, every length and offset checked against the value's size,
 *	  so that a value that does not fit the columns' layout (a corrupt file, or a manifest that
 *	  lies about the columns) is an error, never a read beyond the value; the backend turns the
 *	  fields into Datums. The constants are PostgreSQL 15's tuple format, which row_codec.cpp
 *	  checks against PostgreSQL's headers at compile time. Free of PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_STORED_ROW_HPP
#define PERMANODE_FDW_ENGINE_STORED_ROW_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace permanode::fdw
{

/* MinimalTupleData: t_len, padding, t_infomask2, t_infomask, t_hoff, then the NULL bitmap. */
inline constexpr size_t kTupleLenOffset = 0;
inline constexpr size_t kTupleInfomask2Offset = 10;
inline constexpr size_t kTupleInfomaskOffset = 12;
inline constexpr size_t kTupleHoffOffset = 14;
inline constexpr size_t kTupleHeaderBytes = 15; /* SizeofMinimalTupleHeader */
/* t_hoff counts from where a heap tuple header would start, this many bytes before */
inline constexpr size_t kMinimalTupleOffset = 8;
inline constexpr uint16_t kTupleHasNull = 0x0001;   /* HEAP_HASNULL */
inline constexpr uint16_t kTupleNattsMask = 0x07FF; /* HEAP_NATTS_MASK */
inline constexpr size_t kMaxAlign = 8;              /* MAXIMUM_ALIGNOF */

/* How a column's values lie in a tuple: PostgreSQL's attlen, attalign and attbyval. */
struct StoredColumn
{
    int16_t len = -1; /* bytes when > 0; -1 a varlena, -2 a C string */
    char align = 'i'; /* 'c', 's', 'i' or 'd' */
    bool byval = false;
};

/* A column of a parsed row: NULL, or where its bytes lie in the tuple (a varlena's header
 * included). */
struct StoredField
{
    bool null = true;
    uint32_t offset = 0;
    uint32_t size = 0;
};

/*
 * Parses the first `ncolumns` columns of a stored row laid out as `columns` into fields (which
 * holds ncolumns); the columns the tuple does not hold are NULL. Every varlena must be stored
 * inline and uncompressed, as archives store them. Throws KeyFormatError (key_encoding.hpp)
 * when the tuple does not fit. The tuple should be 8-byte aligned: a field's offset is aligned
 * as its column requires.
 */
void ParseStoredRow(std::string_view tuple, const std::vector<StoredColumn> &columns,
                    size_t ncolumns, StoredField *fields);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_STORED_ROW_HPP */
