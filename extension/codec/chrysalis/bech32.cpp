// Bech32 text of a Chrysalis Ed25519 address; reuses the Stardust bech32 primitive.
#include "codec/bech32.hpp"
#include "codec/chrysalis/message.hpp"

#include <algorithm>

namespace permanode::codec::chrysalis
{
namespace
{

bool IsChrysalisHrp(std::string_view hrp)
{
    return hrp == "iota" || hrp == "atoi";
}

} // namespace

std::string AddressToBech32(const Ed25519Address &address, std::string_view hrp)
{
    if (!IsChrysalisHrp(hrp))
        throw Bech32Error(Bech32Error::Kind::kWrongHrp,
                          "HRP \"" + std::string(hrp) + "\" is not iota or atoi");
    Bytes data(1 + address.hash.size(), 0); // type byte 0: Ed25519
    std::copy(address.hash.begin(), address.hash.end(), data.begin() + 1);
    return Bech32Encode(hrp, data);
}

Ed25519Address AddressFromBech32(std::string_view text, std::string_view expected_hrp)
{
    Bech32Data decoded = Bech32Decode(text);
    if (!IsChrysalisHrp(decoded.hrp) || decoded.hrp != expected_hrp)
        throw Bech32Error(Bech32Error::Kind::kWrongHrp, "HRP \"" + decoded.hrp + "\", expected \"" +
                                                            std::string(expected_hrp) + "\"");
    if (decoded.data.size() != 33)
        throw Bech32Error(Bech32Error::Kind::kBadLength, "an Ed25519 address has 33 bytes");
    if (decoded.data[0] != 0)
        throw Bech32Error(Bech32Error::Kind::kUnknownAddressType,
                          "address type " + std::to_string(decoded.data[0]) + " is not Ed25519");
    Ed25519Address address;
    std::copy(decoded.data.begin() + 1, decoded.data.end(), address.hash.begin());
    return address;
}

} // namespace permanode::codec::chrysalis
