/*
 * pg_array.cpp
 *	  Builds one-dimensional arrays in PostgreSQL's on-disk layout: header, dimensions, optional
 *	  null bitmap, then the elements, each aligned to its type's alignment. The data part starts
 *	  MAXALIGNed in a palloc'd chunk, so aligning offsets relative to it aligns them absolutely.
 */
extern "C"
{
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "utils/array.h"
#include "utils/memutils.h"
}

#include "ledger/pg_array.hpp"

namespace permanode::ledger
{
namespace
{

std::size_t AlignmentOf(char typalign)
{
    switch (typalign)
    {
        case TYPALIGN_SHORT:
            return ALIGNOF_SHORT;
        case TYPALIGN_INT:
            return ALIGNOF_INT;
        case TYPALIGN_DOUBLE:
            return ALIGNOF_DOUBLE;
        default:
            return 1;
    }
}

} // namespace

ArrayColumn::ArrayColumn(Oid element_type, int typlen, char typalign)
    : element_type_(element_type), typlen_(typlen), alignment_(AlignmentOf(typalign))
{
}

void ArrayColumn::Align()
{
    std::size_t size = data_.size();
    std::size_t aligned = (size + alignment_ - 1) / alignment_ * alignment_;
    data_.resize(aligned, 0);
}

void ArrayColumn::AddFixed(const void *bytes)
{
    Align();
    const char *from = static_cast<const char *>(bytes);
    data_.insert(data_.end(), from, from + typlen_);
    not_null_.push_back(true);
}

void ArrayColumn::AddBytes(const void *bytes, std::size_t length)
{
    Align();
    std::size_t at = data_.size();
    data_.resize(at + VARHDRSZ + length);
    SET_VARSIZE(data_.data() + at, VARHDRSZ + length);
    if (length > 0)
        std::memcpy(data_.data() + at + VARHDRSZ, bytes, length);
    not_null_.push_back(true);
}

void ArrayColumn::AddNull()
{
    not_null_.push_back(false);
    has_nulls_ = true;
}

Datum ArrayColumn::Build() const
{
    int nitems = static_cast<int>(not_null_.size());
    int ndim = nitems > 0 ? 1 : 0;
    bool with_nulls = has_nulls_ && nitems > 0;
    std::size_t overhead =
        with_nulls ? ARR_OVERHEAD_WITHNULLS(ndim, nitems) : ARR_OVERHEAD_NONULLS(ndim);
    std::size_t total = overhead + data_.size();
    if (!AllocSizeIsValid(total))
        ereport(ERROR,
                (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                 errmsg("array of %d elements exceeds the maximum allocation size", nitems)));
    auto *array = static_cast<ArrayType *>(palloc0(total));
    SET_VARSIZE(array, total);
    array->ndim = ndim;
    array->dataoffset = with_nulls ? static_cast<int32>(overhead) : 0;
    array->elemtype = element_type_;
    if (ndim == 1)
    {
        ARR_DIMS(array)[0] = nitems;
        ARR_LBOUND(array)[0] = 1;
    }
    if (with_nulls)
    {
        bits8 *bitmap = ARR_NULLBITMAP(array);
        for (int i = 0; i < nitems; ++i)
            if (not_null_[i])
                bitmap[i / 8] |= static_cast<bits8>(1 << (i % 8));
    }
    if (!data_.empty())
        std::memcpy(ARR_DATA_PTR(array), data_.data(), data_.size());
    return PointerGetDatum(array);
}

} // namespace permanode::ledger
