/*
 * fixed_types.hpp
 *	  Shared helpers of the fixed-length identifier types (fixed_types.cpp, address.cpp).
 */
#ifndef PERMANODE_TYPES_FIXED_TYPES_HPP
#define PERMANODE_TYPES_FIXED_TYPES_HPP

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "libpq/pqformat.h"
}

#include <cstddef>

namespace permanode::types
{

constexpr std::size_t kAddressLength = 33;

/* memcmp of two pass-by-reference values of the given length. */
int CompareFixed(Datum a, Datum b, std::size_t length);

/* Binary output (typsend) of a value of N bytes: the bytes. Plain C calls only. */
template <std::size_t N> Datum FixedSend(FunctionCallInfo fcinfo)
{
    StringInfoData buf;
    pq_begintypsend(&buf);
    pq_sendbytes(&buf, static_cast<const char *>(PG_GETARG_POINTER(0)), N);
    PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

} // namespace permanode::types

extern "C" Datum permanode_address_hex_in(PG_FUNCTION_ARGS);

#endif
