// Little-endian appender used by every Encode function.
#pragma once

#include "codec/error.hpp"
#include "codec/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace permanode::codec
{

class ByteWriter
{
  public:
    explicit ByteWriter(Bytes &out) : out_(out) {}

    std::size_t Size() const noexcept { return out_.size(); }

    void WriteU8(std::uint8_t value) { out_.push_back(value); }
    void WriteU16(std::uint16_t value) { WriteLe(value, 2); }
    void WriteU32(std::uint32_t value) { WriteLe(value, 4); }
    void WriteU64(std::uint64_t value) { WriteLe(value, 8); }

    template <std::size_t N> void WriteArray(const std::array<std::uint8_t, N> &bytes)
    {
        out_.insert(out_.end(), bytes.begin(), bytes.end());
    }
    void WriteBytes(const Bytes &bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }

    void WritePrefixedU8(const char *field, const Bytes &bytes)
    {
        WriteU8(static_cast<std::uint8_t>(CheckFits<std::uint8_t>(field, bytes.size())));
        WriteBytes(bytes);
    }
    void WritePrefixedU16(const char *field, const Bytes &bytes)
    {
        WriteU16(static_cast<std::uint16_t>(CheckFits<std::uint16_t>(field, bytes.size())));
        WriteBytes(bytes);
    }
    void WritePrefixedU32(const char *field, const Bytes &bytes)
    {
        WriteU32(static_cast<std::uint32_t>(CheckFits<std::uint32_t>(field, bytes.size())));
        WriteBytes(bytes);
    }
    void WriteCountU8(const char *field, std::size_t count)
    {
        WriteU8(static_cast<std::uint8_t>(CheckFits<std::uint8_t>(field, count)));
    }
    void WriteCountU16(const char *field, std::size_t count)
    {
        WriteU16(static_cast<std::uint16_t>(CheckFits<std::uint16_t>(field, count)));
    }

    // Reserves a u32 length prefix; PatchU32 fills it in once the body is written.
    std::size_t ReserveU32()
    {
        std::size_t at = out_.size();
        WriteU32(0);
        return at;
    }
    void PatchU32(std::size_t at, std::uint32_t value)
    {
        for (std::size_t i = 0; i < 4; ++i)
            out_[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
    }

  private:
    template <typename Prefix> static std::size_t CheckFits(const char *field, std::size_t value)
    {
        if (value > std::numeric_limits<Prefix>::max())
            throw EncodeError(std::string(field) + ": " + std::to_string(value) +
                              " does not fit its length prefix");
        return value;
    }

    void WriteLe(std::uint64_t value, std::size_t width)
    {
        static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                      "big-endian hosts need a byte swap");
        std::size_t at = out_.size();
        out_.resize(at + width);
        std::memcpy(out_.data() + at, &value, width);
    }

    Bytes &out_;
};

} // namespace permanode::codec
