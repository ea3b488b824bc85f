// ByteReader's failures (reader.hpp): the messages are built here, off the decoding path.
#include "codec/reader.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace permanode::codec
{
namespace
{

// Lexicographic order of two IDs. The first 8 bytes, as one big-endian word, almost always decide:
// a call of memcmp for each pair cost a fifth of decoding a block.
bool IdLess(const Hash32 &a, const Hash32 &b)
{
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, a.data(), 8);
    std::memcpy(&y, b.data(), 8);
    if (x != y)
        return __builtin_bswap64(x) < __builtin_bswap64(y);
    return std::memcmp(a.data() + 8, b.data() + 8, a.size() - 8) < 0;
}

} // namespace

void ByteReader::ReadAscendingIds(const char *field, std::size_t min_count, std::size_t max_count,
                                  ParentIds &ids)
{
    std::size_t capacity = ParentIds::static_capacity; // a copy: std::min takes references
    std::size_t count = ReadCountU8(field, min_count, std::min(max_count, capacity));
    std::size_t start = offset_;
    bool whole = count * sizeof(Hash32) <= Remaining();
    ids.resize(count, boost::container::default_init);
    for (std::size_t i = 0; i < count; ++i)
    {
        // Truncated lists are read ID by ID, so the error names the first ID out of order or cut
        // short; whole ones in one copy.
        if (whole)
            std::memcpy(ids[i].data(), data_ + start + i * sizeof(Hash32), sizeof(Hash32));
        else
            ids[i] = ReadArray<32>(field);
        if (i > 0 && !IdLess(ids[i - 1], ids[i]))
            Fail(field, start + i * sizeof(Hash32), "not sorted and unique");
    }
    if (whole)
        offset_ += count * sizeof(Hash32);
}

void ByteReader::FailTruncated(const char *field, std::size_t offset, std::size_t needed,
                               std::size_t left)
{
    throw DecodeError(field, offset,
                      "truncated: needs " + std::to_string(needed) + " bytes, " +
                          std::to_string(left) + " left");
}

void ByteReader::FailType(const char *field, std::size_t offset, std::uint8_t expected,
                          std::uint8_t type)
{
    throw DecodeError(field, offset,
                      "expected type " + std::to_string(expected) + ", got " +
                          std::to_string(type));
}

// `found`: the bytes left after the length (found_left), or those the part took.
void ByteReader::FailDeclared(const char *field, std::size_t offset, std::size_t declared,
                              std::size_t found, bool found_left)
{
    std::string rest =
        found_left ? std::to_string(found) + " left" : "payload has " + std::to_string(found);
    throw DecodeError(field, offset, "declares " + std::to_string(declared) + " bytes, " + rest);
}

void ByteReader::FailOutside(const char *field, std::size_t offset, const char *what,
                             std::size_t value, std::size_t min, std::size_t max)
{
    throw DecodeError(field, offset,
                      what + std::to_string(value) + " outside " + std::to_string(min) + ".." +
                          std::to_string(max));
}

} // namespace permanode::codec
