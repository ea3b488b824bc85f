// Stardust protocol parameters (TIP-32 values) in the binary form a protocol parameters milestone
// option (TIP-29) carries. TIP-29 only says "the protocol parameters in binary, serialized form";
// the layout is the one iota.go v3 (Hornet) serializes and the core API /info returns as JSON:
//
//   version          uint8
//   network name     (uint8)string
//   bech32 HRP       (uint8)string
//   min PoW score    uint32
//   below max depth  uint8
//   rent structure   v byte cost uint32, v byte factor data uint8, v byte factor key uint8
//   token supply     uint64
#pragma once

#include "codec/reader.hpp"
#include "codec/types.hpp"
#include "codec/writer.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace permanode::codec
{

struct RentStructure
{
    std::uint32_t v_byte_cost = 0;
    std::uint8_t v_byte_factor_data = 0;
    std::uint8_t v_byte_factor_key = 0;
    bool operator==(const RentStructure &o) const
    {
        return v_byte_cost == o.v_byte_cost && v_byte_factor_data == o.v_byte_factor_data &&
               v_byte_factor_key == o.v_byte_factor_key;
    }
    bool operator!=(const RentStructure &o) const { return !(*this == o); }
};

struct ProtocolParameters
{
    std::uint8_t version = 0;
    std::string network_name; // UTF-8, at most 255 bytes
    std::string bech32_hrp;   // UTF-8, at most 255 bytes
    std::uint32_t min_pow_score = 0;
    std::uint8_t below_max_depth = 0;
    RentStructure rent_structure;
    std::uint64_t token_supply = 0;
    bool operator==(const ProtocolParameters &o) const
    {
        return version == o.version && network_name == o.network_name &&
               bech32_hrp == o.bech32_hrp && min_pow_score == o.min_pow_score &&
               below_max_depth == o.below_max_depth && rent_structure == o.rent_structure &&
               token_supply == o.token_supply;
    }
    bool operator!=(const ProtocolParameters &o) const { return !(*this == o); }
};

// Decodes a whole protocol parameters blob. Throws DecodeError (field "protocol_parameters.*",
// offset relative to the start of `bytes`) when it is truncated, a string length runs past the
// end, a string is not UTF-8, or bytes are left over. Every successfully decoded blob re-encodes to
// the same bytes: the layout has no optional parts or alternative spellings.
ProtocolParameters DecodeProtocolParameters(ByteSpan bytes);
// As above, but returns nullopt instead of throwing.
std::optional<ProtocolParameters> TryDecodeProtocolParameters(ByteSpan bytes);

// Throws EncodeError if a string is longer than 255 bytes.
void EncodeProtocolParameters(ByteWriter &writer, const ProtocolParameters &parameters);
Bytes EncodeProtocolParameters(const ProtocolParameters &parameters);

} // namespace permanode::codec
