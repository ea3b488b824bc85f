// Bech32 (BIP-173 checksum) and the bech32 form of Stardust addresses (TIP-31).
#pragma once

#include "codec/address.hpp"
#include "codec/types.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace permanode::codec
{

class Bech32Error : public std::runtime_error
{
  public:
    enum class Kind
    {
        kMixedCase,          // upper and lower case letters in one string
        kInvalidCharacter,   // outside the bech32 alphabet or printable ASCII
        kMissingSeparator,   // no '1' between HRP and data
        kBadLength,          // too long/short overall, or wrong payload size for an address
        kBadChecksum,        // the 6-character BIP-173 checksum does not verify
        kBadPadding,         // 5-to-8 bit conversion left non-zero padding
        kWrongHrp,           // HRP not the expected one, or not a known network
        kUnknownAddressType, // first data byte is not 0, 8 or 16
    };

    Bech32Error(Kind kind, const std::string &message) : std::runtime_error(message), kind_(kind) {}
    Kind GetKind() const noexcept { return kind_; }

  private:
    Kind kind_;
};

struct Bech32Data
{
    std::string hrp; // lower case
    Bytes data;      // 8-bit bytes
};

// Encodes 8-bit data under `hrp` (lower case output).
std::string Bech32Encode(std::string_view hrp, ByteSpan data);
// Decodes and verifies the checksum; accepts all-lower or all-upper case input.
Bech32Data Bech32Decode(std::string_view text);

// The networks' HRPs: iota (IOTA mainnet), atoi (IOTA testnet), smr (Shimmer), rms (Shimmer
// testnet).
bool IsKnownHrp(std::string_view hrp);

// Address <-> "smr1..." text. Encoding requires a known HRP.
std::string AddressToBech32(const Address &address, std::string_view hrp);
// Decodes an address; with an empty `expected_hrp` any known HRP is accepted.
Address AddressFromBech32(std::string_view text, std::string_view expected_hrp = {});
// An address of either era as the 0x-hex of its 33 bytes (type first), from bech32 under any
// known HRP (either case), or the hex of an Ed25519 address's hash (64 digits) or of its 33
// bytes; 0x optional. Throws Bech32Error naming what is wrong.
std::string AddressHexOfAnyEra(std::string_view text);

} // namespace permanode::codec
