// ByteReader's failures (reader.hpp): the messages are built here, off the decoding path.
#include "codec/reader.hpp"

#include <cstring>
#include <string>

namespace permanode::codec
{
namespace
{

// Lexicographic order of two 32-byte IDs. The first 8 bytes, as one big-endian word, almost always
// decide: a call of memcmp for each pair cost a fifth of decoding a block.
bool IdLess(const std::uint8_t *a, const std::uint8_t *b)
{
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y)
        return __builtin_bswap64(x) < __builtin_bswap64(y);
    return std::memcmp(a + 8, b + 8, 32 - 8) < 0;
}

} // namespace

void ByteReader::ReadAscendingIds(const char *field, std::size_t min_count, std::size_t max_count,
                                  Parents &ids)
{
    std::size_t count = ReadCountU8(field, min_count, max_count);
    // Checked where they lie, in the order a reader of one ID after another would fail, then
    // copied at once.
    const std::uint8_t *first = data_ + offset_;
    for (std::size_t i = 0; i < count; ++i)
    {
        std::size_t start = offset_ + 32 * i;
        if (size_ - start < 32)
            FailTruncated(field, start, 32, size_ - start);
        if (i > 0 && !IdLess(first + 32 * (i - 1), first + 32 * i))
            Fail(field, start, "not sorted and unique");
    }
    ids.assign_bytes(first, count);
    offset_ += 32 * count;
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
