/*
 * address.cpp
 *	  Text I/O of the `address` type: bech32 with the database's network HRP (TIP-31), e.g.
 *	  smr1qr... on Shimmer. The HRP comes from the permanode.bech32_hrp setting, which
 *	  permanode.init() stores on the database. Input also takes the 0x-hex form of the 33 bytes.
 */
#include <cstring>
#include <string>

#include "codec/bech32.hpp"

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "permanode.h"

    PG_FUNCTION_INFO_V1(permanode_address_in);
    PG_FUNCTION_INFO_V1(permanode_address_out);
}

#include "pgcpp/guard.hpp"
#include "types/fixed_types.hpp"

namespace codec = permanode::codec;
using permanode::pg::Guarded;
using permanode::pg::PgError;

/* Whether hrp is one of the networks' human-readable parts (for the setting's check hook). */
extern "C" bool permanode_is_known_hrp(const char *hrp)
{
    return hrp != nullptr && codec::IsKnownHrp(hrp);
}

/* Parses bech32 (with the configured HRP) or 0x-hex into the 33-byte form. */
extern "C" Datum permanode_address_in(PG_FUNCTION_ARGS)
{
    const char *text = PG_GETARG_CSTRING(0);
    if (std::strncmp(text, "0x", 2) == 0)
        return DirectFunctionCall1(permanode_address_hex_in, CStringGetDatum(text));
    return Guarded(
        [&]() -> Datum
        {
            codec::Address address;
            try
            {
                address = codec::AddressFromBech32(text, permanode_bech32_hrp);
            }
            catch (const codec::Bech32Error &e)
            {
                throw PgError(
                    ERRCODE_INVALID_TEXT_REPRESENTATION,
                    std::string("invalid bech32 address \"") + text + "\": " + e.what(),
                    std::string("This database's addresses use the human-readable part \"") +
                        permanode_bech32_hrp + "\".");
            }
            codec::AddressBytes bytes = codec::ToBytes(address);
            void *result = palloc(bytes.size());
            std::memcpy(result, bytes.data(), bytes.size());
            return PointerGetDatum(result);
        });
}

/* Renders the address in bech32 with the configured HRP. */
extern "C" Datum permanode_address_out(PG_FUNCTION_ARGS)
{
    const auto *bytes = reinterpret_cast<const uint8_t *>(PG_GETARG_POINTER(0));
    return Guarded(
        [&]() -> Datum
        {
            codec::Address address;
            address.type = static_cast<codec::AddressType>(bytes[0]);
            std::memcpy(address.id.data(), bytes + 1, address.id.size());
            std::string text = codec::AddressToBech32(address, permanode_bech32_hrp);
            return CStringGetDatum(pstrdup(text.c_str()));
        });
}
