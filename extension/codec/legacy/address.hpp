// Legacy addresses: 81 trytes (a Kerl hash), written by wallets with a 9-tryte checksum appended:
// the last 9 trytes of the Kerl hash of the address.
#pragma once

#include <string>
#include <string_view>

namespace permanode::codec::legacy
{

constexpr std::size_t kChecksumTrytes = 9;

// The 9-tryte checksum of an 81-tryte address.
std::string AddressChecksum(std::string_view address);

// An address given as 81 trytes, or as 90 whose last 9 are its checksum: returns the 81.
// DecodeError (field `field`, offset in trytes) for another length, a character that is not a
// tryte or a checksum that does not match.
std::string ParseAddress(std::string_view text, const char *field = "address");

} // namespace permanode::codec::legacy
