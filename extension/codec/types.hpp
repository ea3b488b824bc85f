// Fixed-size values and protocol limits shared by every Stardust structure.
#pragma once

#include "codec/bounded_vector.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace permanode::codec
{

using Bytes = std::vector<std::uint8_t>;
using Hash32 = std::array<std::uint8_t, 32>;

using BlockId = Hash32;
using TransactionId = Hash32;
using MilestoneId = Hash32;
using AliasId = Hash32;
using NftId = Hash32;

// Foundry ID and native token ID: alias address (1 + 32) + serial number (4) + token scheme (1).
using TokenId = std::array<std::uint8_t, 38>;
using FoundryId = TokenId;

// Unsigned 256-bit integer kept as its 32 little-endian wire bytes.
using U256 = std::array<std::uint8_t, 32>;

// A read-only view of bytes (C++17 has no std::span).
struct ByteSpan
{
    const std::uint8_t *data = nullptr;
    std::size_t size = 0;

    ByteSpan() = default;
    ByteSpan(const std::uint8_t *bytes, std::size_t length) : data(bytes), size(length) {}
    ByteSpan(const Bytes &bytes) : data(bytes.data()), size(bytes.size()) {}
    template <std::size_t N>
    ByteSpan(const BoundedVector<std::uint8_t, N> &bytes) : data(bytes.data()), size(bytes.size())
    {
    }
};

// Output ID: the creating transaction plus the output's index in it.
struct OutputId
{
    TransactionId transaction_id{};
    std::uint16_t index = 0;

    bool operator==(const OutputId &other) const
    {
        return index == other.index && transaction_id == other.transaction_id;
    }
    bool operator!=(const OutputId &other) const { return !(*this == other); }
    bool operator<(const OutputId &other) const
    {
        return transaction_id != other.transaction_id ? transaction_id < other.transaction_id
                                                      : index < other.index;
    }
};

// Serialized output ID: transaction ID followed by the index as u16 little endian.
using OutputIdBytes = std::array<std::uint8_t, 34>;

// Protocol limits (TIP-22 / TIP-24 / TIP-20 / TIP-18 / TIP-23).
namespace limits
{
constexpr std::uint8_t kProtocolVersion = 2;
constexpr std::size_t kMaxBlockLength = 32768;
constexpr std::size_t kMinParents = 1;
constexpr std::size_t kMaxParents = 8;
constexpr std::size_t kMaxInputs = 128;
constexpr std::size_t kMaxOutputs = 128;
constexpr std::size_t kMaxNativeTokensPerOutput = 64;
constexpr std::size_t kMaxTagLength = 64;
constexpr std::size_t kMaxMetadataLength = 8192;
} // namespace limits

// A block's or milestone's parents (both eras), and a tagged-data payload's tag, as their wire
// formats bound them.
using Parents = BoundedVector<BlockId, limits::kMaxParents>;
using Tag = BoundedVector<std::uint8_t, limits::kMaxTagLength>;

} // namespace permanode::codec
