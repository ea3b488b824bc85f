/*
 * stored_row.cpp
 *	  Bounds-checked parsing of stored rows (see stored_row.hpp): the walk of PostgreSQL's
 *	  heap_deform_tuple, each step checked against the value's size.
 */
#include "engine/stored_row.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/key_encoding.hpp"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "stored rows are read as PostgreSQL lays them out on little-endian machines"
#endif

namespace permanode::fdw
{

namespace
{

[[noreturn]] void Invalid(const char *what)
{
    throw KeyFormatError(std::string("archived row ") + what);
}

template <typename T> T Read(std::string_view bytes, size_t pos)
{
    T value;
    memcpy(&value, bytes.data() + pos, sizeof(value));
    return value;
}

/* off aligned as a column of alignment `align` requires (att_align_nominal). */
size_t Align(size_t off, char align)
{
    switch (align)
    {
        case 'c':
            return off;
        case 's':
            return (off + 1) & ~size_t{1};
        case 'i':
            return (off + 3) & ~size_t{3};
        case 'd':
            return (off + 7) & ~size_t{7};
        default:
            throw KeyFormatError("invalid column alignment");
    }
}

/* Bytes of the varlena at data[off] (at least one byte there), its header included. Only the
 * forms archives store are accepted: inline, uncompressed. */
size_t VarlenaSize(std::string_view data, size_t off)
{
    auto first = static_cast<uint8_t>(data[off]);
    if (first == 0x01)
        Invalid("holds a TOAST pointer");
    if ((first & 0x01) != 0)
        return first >> 1; /* a one-byte header: 1..127 */
    if (data.size() - off < 4)
        Invalid("ends inside a value's header");
    uint32_t header = Read<uint32_t>(data, off);
    if ((header & 0x03) != 0)
        Invalid("holds a compressed value");
    size_t size = header >> 2;
    if (size < 4)
        Invalid("holds a value shorter than its header");
    return size;
}

/* Where the column at offset off (of the data) lies: its aligned offset and its bytes. */
void LocateColumn(std::string_view data, const StoredColumn &c, size_t *off, size_t *size)
{
    if (c.len == -1)
    {
        if (*off >= data.size())
            Invalid("ends before a value");
        /* a zero byte is padding before an aligned four-byte header (VARATT_NOT_PAD_BYTE) */
        if (data[*off] == '\0')
            *off = Align(*off, c.align);
        if (*off >= data.size())
            Invalid("ends before a value");
        *size = VarlenaSize(data, *off);
        return;
    }
    *off = Align(*off, c.align);
    if (c.len > 0)
    {
        *size = static_cast<size_t>(c.len);
        return;
    }
    if (c.len != -2)
        throw KeyFormatError("invalid column length");
    const void *end =
        *off < data.size() ? memchr(data.data() + *off, '\0', data.size() - *off) : nullptr;
    if (end == nullptr)
        Invalid("ends inside a string");
    *size = static_cast<size_t>(static_cast<const char *>(end) - (data.data() + *off)) + 1;
}

} // namespace

void ParseStoredRow(std::string_view tuple, const std::vector<StoredColumn> &columns,
                    size_t ncolumns, StoredField *fields)
{
    if (tuple.size() < kTupleHeaderBytes)
        Invalid("is too short");
    if (Read<uint32_t>(tuple, kTupleLenOffset) != tuple.size())
        Invalid("has an invalid length");
    size_t natts = Read<uint16_t>(tuple, kTupleInfomask2Offset) & kTupleNattsMask;
    bool hasnull = (Read<uint16_t>(tuple, kTupleInfomaskOffset) & kTupleHasNull) != 0;
    size_t hoff = static_cast<uint8_t>(tuple[kTupleHoffOffset]);
    if (natts > columns.size())
        Invalid("has more columns than the archive");
    size_t bitmap_bytes = hasnull ? (natts + 7) / 8 : 0;
    if (hoff < kMinimalTupleOffset + kTupleHeaderBytes + bitmap_bytes)
        Invalid("has an invalid header");
    size_t start = hoff - kMinimalTupleOffset;
    if (start % kMaxAlign != 0 || start > tuple.size())
        Invalid("has an invalid header");
    const auto *bits = reinterpret_cast<const uint8_t *>(tuple.data() + kTupleHeaderBytes);
    std::string_view data = tuple.substr(start);

    ncolumns = std::min(ncolumns, columns.size());
    size_t parsed = std::min(natts, ncolumns);
    size_t off = 0;
    for (size_t i = 0; i < parsed; i++)
    {
        fields[i] = StoredField();
        if (hasnull && (bits[i >> 3] & (1 << (i & 7))) == 0)
            continue;
        size_t size = 0;
        LocateColumn(data, columns[i], &off, &size);
        if (off > data.size() || size > data.size() - off)
            Invalid("ends inside a value");
        fields[i] =
            StoredField{false, static_cast<uint32_t>(start + off), static_cast<uint32_t>(size)};
        off += size;
    }
    for (size_t i = parsed; i < ncolumns; i++)
        fields[i] = StoredField();
    if (parsed == natts && off != data.size())
        Invalid("has trailing bytes");
}

} // namespace permanode::fdw
