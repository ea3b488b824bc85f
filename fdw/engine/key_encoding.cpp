/*
 * key_encoding.cpp
 *	  Memcomparable key encoding (see key_encoding.hpp for the format).
 */
#include "engine/key_encoding.hpp"

#include <cstring>

namespace permanode::fdw
{

namespace
{

/* Appends b, inverted for a DESC column. */
inline void Put(std::string &out, uint8_t b, bool desc)
{
    out.push_back(static_cast<char>(desc ? static_cast<uint8_t>(~b) : b));
}

/* Reads the byte at pos, undoing the inversion of a DESC column. */
inline uint8_t Get(std::string_view key, size_t pos, bool desc)
{
    if (pos >= key.size())
        throw KeyFormatError("archive key ends inside a column");
    auto b = static_cast<uint8_t>(key[pos]);
    return desc ? static_cast<uint8_t>(~b) : b;
}

} // namespace

int IntWidth(KeyKind kind)
{
    switch (kind)
    {
        case KeyKind::kInt16:
            return 2;
        case KeyKind::kInt32:
            return 4;
        case KeyKind::kInt64:
            return 8;
        case KeyKind::kBool:
            return 1;
        default:
            throw KeyFormatError("not an integer key kind");
    }
}

int64_t IntMin(KeyKind kind)
{
    switch (kind)
    {
        case KeyKind::kInt16:
            return INT16_MIN;
        case KeyKind::kInt32:
            return INT32_MIN;
        case KeyKind::kBool:
            return 0;
        default:
            return INT64_MIN;
    }
}

int64_t IntMax(KeyKind kind)
{
    switch (kind)
    {
        case KeyKind::kInt16:
            return INT16_MAX;
        case KeyKind::kInt32:
            return INT32_MAX;
        case KeyKind::kBool:
            return 1;
        default:
            return INT64_MAX;
    }
}

void EncodeNull(std::string &out, const KeyColumn &col)
{
    out.push_back(static_cast<char>(col.nulls_first ? kMarkerNullFirst : kMarkerNullLast));
}

void EncodeInt(std::string &out, const KeyColumn &col, int64_t value)
{
    out.push_back(static_cast<char>(kMarkerValue));
    int width = IntWidth(col.kind);
    uint64_t bits = static_cast<uint64_t>(value);
    if (col.kind != KeyKind::kBool)
        bits ^= uint64_t{1} << (width * 8 - 1); /* flip the sign bit of the narrowed value */
    for (int i = width - 1; i >= 0; i--)
        Put(out, static_cast<uint8_t>(bits >> (i * 8)), col.desc);
}

void EncodeBytes(std::string &out, const KeyColumn &col, const char *data, size_t len)
{
    out.push_back(static_cast<char>(kMarkerValue));
    if (col.kind == KeyKind::kFixed)
    {
        for (size_t i = 0; i < len; i++)
            Put(out, static_cast<uint8_t>(data[i]), col.desc);
        return;
    }
    for (size_t i = 0; i < len; i++)
    {
        auto b = static_cast<uint8_t>(data[i]);
        Put(out, b, col.desc);
        if (b == 0x00)
            Put(out, 0xFF, col.desc);
    }
    Put(out, 0x00, col.desc);
    Put(out, 0x01, col.desc);
}

bool IsNullAt(std::string_view key, size_t pos)
{
    if (pos >= key.size())
        throw KeyFormatError("archive key ends before a column");
    return static_cast<uint8_t>(key[pos]) != kMarkerValue;
}

size_t SkipColumn(std::string_view key, size_t pos, const KeyColumn &col)
{
    if (IsNullAt(key, pos))
        return pos + 1;
    pos++;
    switch (col.kind)
    {
        case KeyKind::kInt16:
        case KeyKind::kInt32:
        case KeyKind::kInt64:
        case KeyKind::kBool:
            pos += IntWidth(col.kind);
            break;
        case KeyKind::kFixed:
            pos += col.fixed_len;
            break;
        case KeyKind::kBytes:
        {
            /* the terminator and every escape start with 0x00 (0xFF when inverted) */
            const char marker = col.desc ? static_cast<char>(0xFF) : '\0';
            for (;;)
            {
                const void *hit = memchr(key.data() + pos, marker, key.size() - pos);
                if (hit == nullptr || static_cast<const char *>(hit) + 1 >= key.data() + key.size())
                    throw KeyFormatError("archive key ends inside a column");
                pos = static_cast<size_t>(static_cast<const char *>(hit) - key.data()) + 1;
                uint8_t next = Get(key, pos, col.desc);
                pos++;
                if (next == 0x01)
                    break;
                if (next != 0xFF)
                    throw KeyFormatError("invalid escape in archive key");
            }
            break;
        }
        case KeyKind::kNone:
            throw KeyFormatError("column kind cannot be decoded");
    }
    if (pos > key.size())
        throw KeyFormatError("archive key ends inside a column");
    return pos;
}

int64_t DecodeInt(std::string_view key, size_t pos, const KeyColumn &col)
{
    int width = IntWidth(col.kind);
    uint64_t bits = 0;
    for (int i = 0; i < width; i++)
        bits = (bits << 8) | Get(key, pos + 1 + i, col.desc);
    if (col.kind == KeyKind::kBool)
        return static_cast<int64_t>(bits);
    bits ^= uint64_t{1} << (width * 8 - 1);
    /* sign-extend the narrowed value */
    int shift = 64 - width * 8;
    return static_cast<int64_t>(bits << shift) >> shift;
}

void DecodeBytes(std::string_view key, size_t pos, const KeyColumn &col, std::string &out)
{
    out.clear();
    pos++; /* marker */
    if (col.kind == KeyKind::kFixed)
    {
        for (int i = 0; i < col.fixed_len; i++)
            out.push_back(static_cast<char>(Get(key, pos + i, col.desc)));
        return;
    }
    size_t end = SkipColumn(key, pos - 1, col); /* validates, and bounds the copy */
    for (;;)
    {
        if (!col.desc)
        {
            /* copy the run up to the next 0x00 at once */
            const void *hit = memchr(key.data() + pos, 0, end - pos);
            size_t run = static_cast<size_t>(static_cast<const char *>(hit) - (key.data() + pos));
            out.append(key.data() + pos, run);
            pos += run;
        }
        uint8_t b = Get(key, pos++, col.desc);
        if (b != 0x00)
        {
            out.push_back(static_cast<char>(b));
            continue;
        }
        uint8_t next = Get(key, pos++, col.desc);
        if (next == 0x01)
            return;
        if (next != 0xFF)
            throw KeyFormatError("invalid escape in archive key");
        out.push_back('\0');
    }
}

std::string PrefixSuccessor(std::string_view prefix)
{
    std::string out(prefix);
    while (!out.empty())
    {
        auto last = static_cast<uint8_t>(out.back());
        if (last != 0xFF)
        {
            out.back() = static_cast<char>(last + 1);
            return out;
        }
        out.pop_back();
    }
    return out;
}

} // namespace permanode::fdw
