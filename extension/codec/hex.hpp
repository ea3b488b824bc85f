// "0x"-prefixed lowercase hex, the text form of IDs and byte fields in the core API (TIP-25).
#pragma once

#include "codec/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace permanode::codec
{

std::string ToHex(ByteSpan bytes); // with 0x prefix
template <std::size_t N> std::string ToHex(const std::array<std::uint8_t, N> &bytes)
{
    return ToHex(ByteSpan(bytes.data(), N));
}

// Accepts an optional 0x prefix and either case; nullopt on odd length or a non-hex character.
std::optional<Bytes> FromHex(std::string_view text);
// Like FromHex but requires exactly N bytes.
template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> FromHexFixed(std::string_view text)
{
    std::optional<Bytes> bytes = FromHex(text);
    if (!bytes || bytes->size() != N)
        return std::nullopt;
    std::array<std::uint8_t, N> out;
    for (std::size_t i = 0; i < N; ++i)
        out[i] = (*bytes)[i];
    return out;
}

// U256 (little-endian wire bytes) as a minimal big-endian hex number, "0x0" for zero, and back.
std::string U256ToHex(const U256 &value);
std::optional<U256> U256FromHex(std::string_view text);

} // namespace permanode::codec
