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

} // namespace permanode::codec::chrysalis
