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
        if (type != expected)
            Fail(field, start,
                 "expected type " + std::to_string(expected) + ", got " + std::to_string(type));
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
        if (length > Remaining())
            Fail(length_field, length_at,
                 "declares " + std::to_string(length) + " bytes, " + std::to_string(Remaining()) +
                     " left");
        std::size_t start = offset_;
        auto part = read_part();
        if (offset_ - start != length)
            Fail(length_field, length_at,
                 "declares " + std::to_string(length) + " bytes, payload has " +
                     std::to_string(offset_ - start));
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

    // Copies `length` bytes into `out` (replacing its contents).
    void ReadBytes(const char *field, std::size_t length, Bytes &out)
    {
        Require(field, length);
        out.assign(data_ + offset_, data_ + offset_ + length);
        offset_ += length;
    }

    // Reads a u8, u16 or u32 length prefix, checks it against `max_length`, then the bytes.
    void ReadPrefixedU8(const char *field, std::size_t min_length, std::size_t max_length,
                        Bytes &out)
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

    [[noreturn]] void Fail(const char *field, std::size_t offset, const std::string &reason) const
    {
        throw DecodeError(field, offset, reason);
    }

  private:
    void Require(const char *field, std::size_t length) const
    {
        if (length > size_ - offset_)
            Fail(field, offset_,
                 "truncated: needs " + std::to_string(length) + " bytes, " +
                     std::to_string(size_ - offset_) + " left");
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
        if (length < min_length || length > max_length)
            Fail(field, start,
                 "length " + std::to_string(length) + " outside " + std::to_string(min_length) +
                     ".." + std::to_string(max_length));
    }

    void CheckCount(const char *field, std::size_t start, std::size_t count, std::size_t min_count,
                    std::size_t max_count) const
    {
        if (count < min_count || count > max_count)
            Fail(field, start,
                 "count " + std::to_string(count) + " outside " + std::to_string(min_count) + ".." +
                     std::to_string(max_count));
    }

    const std::uint8_t *data_;
    std::size_t size_;
    std::size_t offset_ = 0;
};

} // namespace permanode::codec
