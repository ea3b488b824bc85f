#include "codec/address.hpp"

#include <algorithm>

namespace permanode::codec
{

bool IsKnownAddressType(std::uint8_t type)
{
    return type == static_cast<std::uint8_t>(AddressType::kEd25519) ||
           type == static_cast<std::uint8_t>(AddressType::kAlias) ||
           type == static_cast<std::uint8_t>(AddressType::kNft);
}

AddressBytes ToBytes(const Address &address)
{
    AddressBytes bytes;
    bytes[0] = static_cast<std::uint8_t>(address.type);
    std::copy(address.id.begin(), address.id.end(), bytes.begin() + 1);
    return bytes;
}

Address DecodeAddress(ByteReader &reader, const char *field)
{
    std::size_t start = reader.Offset();
    std::uint8_t type = reader.ReadU8(field);
    if (!IsKnownAddressType(type))
        reader.Fail(field, start, "unknown address type " + std::to_string(type));
    Address address;
    address.type = static_cast<AddressType>(type);
    address.id = reader.ReadArray<32>(field);
    return address;
}

void EncodeAddress(ByteWriter &writer, const Address &address)
{
    writer.WriteU8(static_cast<std::uint8_t>(address.type));
    writer.WriteArray(address.id);
}

} // namespace permanode::codec
