// Bounds-checked little-endian cursor over a byte buffer; every failure is a DecodeError.
#pragma once

#include "codec/error.hpp"
#include "codec/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace permanode::codec
{

class ByteReader
{
  public:
    explicit ByteReader(ByteSpan bytes) : data_(bytes.data), size_(bytes.size) {}

    std::size_t Offset() const noexcept { return offset_; }
    std::size_t Remaining() const noexcept { return size_ - offset_; }
    const std::uint8_t *Data() const noexcept { return data_; }

    std::uint8_t ReadU8(const char *field)
    {
        Require(field, 1);
        return data_[offset_++];
    }

    // Reads a type byte that must be `expected`.
    void ExpectType(const char *field, std::uint8_t expected)
    {
        std::size_t start = offset_;
        std::uint8_t type = ReadU8(field);
        if (__builtin_expect(type != expected, 0))
            FailType(field, start, expected, type);
    }

    // A part behind a u32 length, 0 for none: the length must fit the bytes left, and read_part
    // (called at the part's first byte) must read exactly that many. Returns nullopt for none.
    template <typename ReadPart>
    auto ReadLengthPrefixed(const char *length_field, ReadPart read_part)
        -> std::optional<decltype(read_part())>
    {
        std::size_t length_at = offset_;
        std::uint32_t length = ReadU32(length_field);
        if (length == 0)
            return std::nullopt;
        if (__builtin_expect(length > Remaining(), 0))
            FailDeclared(length_field, length_at, length, Remaining(), true);
        std::size_t start = offset_;
        auto part = read_part();
        if (__builtin_expect(offset_ - start != length, 0))
            FailDeclared(length_field, length_at, length, offset_ - start, false);
        return part;
    }

    std::uint16_t ReadU16(const char *field) { return ReadLe<std::uint16_t>(field); }
    std::uint32_t ReadU32(const char *field) { return ReadLe<std::uint32_t>(field); }
    std::uint64_t ReadU64(const char *field) { return ReadLe<std::uint64_t>(field); }

    template <std::size_t N> std::array<std::uint8_t, N> ReadArray(const char *field)
    {
        Require(field, N);
        std::array<std::uint8_t, N> out;
        std::memcpy(out.data(), data_ + offset_, N);
        offset_ += N;
        return out;
    }

    // Copies `length` bytes into `out` (Bytes, or a BoundedVector of bytes), replacing what it
    // held.
    template <typename Out> void ReadBytes(const char *field, std::size_t length, Out &out)
    {
        Require(field, length);
        out.assign(data_ + offset_, data_ + offset_ + length);
        offset_ += length;
    }

    // Reads a u8, u16 or u32 length prefix, checks it against `max_length`, then the bytes.
    template <typename Out>
    void ReadPrefixedU8(const char *field, std::size_t min_length, std::size_t max_length, Out &out)
    {
        std::size_t start = offset_;
        std::uint8_t length = ReadU8(field);
        CheckLength(field, start, length, min_length, max_length);
        ReadBytes(field, length, out);
    }
    void ReadPrefixedU16(const char *field, std::size_t min_length, std::size_t max_length,
                         Bytes &out)
    {
        std::size_t start = offset_;
        std::uint16_t length = ReadU16(field);
        CheckLength(field, start, length, min_length, max_length);
        ReadBytes(field, length, out);
    }
    void ReadPrefixedU32(const char *field, std::size_t min_length, std::size_t max_length,
                         Bytes &out)
    {
        std::size_t start = offset_;
        std::uint32_t length = ReadU32(field);
        CheckLength(field, start, length, min_length, max_length);
        ReadBytes(field, length, out);
    }

    // Reads a count prefix (u8 or u16) and checks min <= count <= max.
    std::size_t ReadCountU8(const char *field, std::size_t min_count, std::size_t max_count)
    {
        std::size_t start = offset_;
        std::size_t count = ReadU8(field);
        CheckCount(field, start, count, min_count, max_count);
        return count;
    }
    std::size_t ReadCountU16(const char *field, std::size_t min_count, std::size_t max_count)
    {
        std::size_t start = offset_;
        std::size_t count = ReadU16(field);
        CheckCount(field, start, count, min_count, max_count);
        return count;
    }

    // A u8 count (min..max) of 32-byte IDs in strictly ascending order, as both eras' parents.
    void ReadAscendingIds(const char *field, std::size_t min_count, std::size_t max_count,
                          Parents &ids);

    [[noreturn]] void Fail(const char *field, std::size_t offset, const std::string &reason) const
    {
        throw DecodeError(field, offset, reason);
    }

  private:
    // The checks stay inline on the decoding path; the messages are built out of line (reader.cpp).
    void Require(const char *field, std::size_t length) const
    {
        if (__builtin_expect(length > size_ - offset_, 0))
            FailTruncated(field, offset_, length, size_ - offset_);
    }

    // One unaligned load; the wire is little endian like every host we build for.
    template <typename T> T ReadLe(const char *field)
    {
        static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                      "big-endian hosts need a byte swap");
        Require(field, sizeof(T));
        T value;
        std::memcpy(&value, data_ + offset_, sizeof(T));
        offset_ += sizeof(T);
        return value;
    }

    void CheckLength(const char *field, std::size_t start, std::size_t length,
                     std::size_t min_length, std::size_t max_length) const
    {
        if (__builtin_expect(length < min_length || length > max_length, 0))
            FailOutside(field, start, "length ", length, min_length, max_length);
    }

    void CheckCount(const char *field, std::size_t start, std::size_t count, std::size_t min_count,
                    std::size_t max_count) const
    {
        if (__builtin_expect(count < min_count || count > max_count, 0))
            FailOutside(field, start, "count ", count, min_count, max_count);
    }

    [[noreturn, gnu::cold, gnu::noinline]] static void
    FailTruncated(const char *field, std::size_t offset, std::size_t needed, std::size_t left);
    [[noreturn, gnu::cold, gnu::noinline]] static void
    FailType(const char *field, std::size_t offset, std::uint8_t expected, std::uint8_t type);
    [[noreturn, gnu::cold, gnu::noinline]] static void
    FailDeclared(const char *field, std::size_t offset, std::size_t declared, std::size_t found,
                 bool found_left);
    [[noreturn, gnu::cold, gnu::noinline]] static void
    FailOutside(const char *field, std::size_t offset, const char *what, std::size_t value,
                std::size_t min, std::size_t max);

    const std::uint8_t *data_;
    std::size_t size_;
    std::size_t offset_ = 0;
};

} // namespace permanode::codec
