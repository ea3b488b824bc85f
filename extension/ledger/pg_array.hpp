/*
 * pg_array.hpp
 *	  ArrayColumn: one column of a set-based insert, accumulated in C++ and turned into a
 *	  one-dimensional PostgreSQL array with a single palloc (no per-element allocation).
 */
#ifndef PERMANODE_LEDGER_PG_ARRAY_HPP
#define PERMANODE_LEDGER_PG_ARRAY_HPP

extern "C"
{
#include "postgres.h"
}

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace permanode::ledger
{

class ArrayColumn
{
  public:
    // typlen > 0: fixed-length elements (by value or by reference); -1: varlena (bytea, text).
    ArrayColumn(Oid element_type, int typlen, char typalign);

    void AddFixed(const void *bytes);
    void AddInt16(int16 value) { AddFixed(&value); }
    void AddInt32(int32 value) { AddFixed(&value); }
    void AddInt64(int64 value) { AddFixed(&value); }
    void AddBytes(const void *bytes, std::size_t length);
    void AddText(const char *text) { AddBytes(text, std::strlen(text)); }
    void AddNull();
    std::size_t Count() const { return not_null_.size(); }

    // The array in CurrentMemoryContext; run it through CallPg (palloc may ereport).
    Datum Build() const;

  private:
    void Align();

    Oid element_type_;
    int typlen_;
    std::size_t alignment_;
    std::vector<char> data_;
    std::vector<bool> not_null_;
    bool has_nulls_ = false;
};

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_PG_ARRAY_HPP */
