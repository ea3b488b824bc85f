// Stardust addresses (TIP-18): Ed25519, Alias and NFT, each a type byte plus 32 bytes.
#pragma once

#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <array>
#include <cstdint>

namespace permanode::codec
{

enum class AddressType : std::uint8_t
{
    kEd25519 = 0,
    kAlias = 8,
    kNft = 16,
};

struct Address
{
    AddressType type = AddressType::kEd25519;
    Hash32 id{}; // Ed25519 public key hash, alias ID or NFT ID

    bool operator==(const Address &other) const { return type == other.type && id == other.id; }
    bool operator!=(const Address &other) const { return !(*this == other); }
    bool operator<(const Address &other) const
    {
        return type != other.type ? type < other.type : id < other.id;
    }
};

// Serialized form: type byte followed by the 32-byte ID.
using AddressBytes = std::array<std::uint8_t, 33>;

bool IsKnownAddressType(std::uint8_t type);
AddressBytes ToBytes(const Address &address);

Address DecodeAddress(ByteReader &reader, const char *field);
void EncodeAddress(ByteWriter &writer, const Address &address);

} // namespace permanode::codec
