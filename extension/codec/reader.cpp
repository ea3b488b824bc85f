// ByteReader's failures (reader.hpp): the messages are built here, off the decoding path.
#include "codec/reader.hpp"

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

std::vector<Hash32> ByteReader::ReadAscendingIds(const char *field, std::size_t min_count,
                                                 std::size_t max_count)
{
    std::size_t count = ReadCountU8(field, min_count, max_count);
    std::vector<Hash32> ids(count);
    for (std::size_t i = 0; i < count; ++i)
    {
        std::size_t start = offset_;
        ids[i] = ReadArray<32>(field);
        if (i > 0 && !IdLess(ids[i - 1], ids[i]))
            Fail(field, start, "not sorted and unique");
    }
    return ids;
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
