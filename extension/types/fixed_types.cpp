/*
 * fixed_types.cpp
 *	  The ledger's binary identifier types: fixed-length, pass-by-reference, compared with memcmp
 *	  (so btree order is byte order), read and written as canonical 0x-hex text.
 *
 *	    hash32      32 bytes: block, transaction, milestone, alias and NFT IDs (domains over it)
 *	    output_id   34 bytes: transaction ID + output index (u16 little endian)
 *	    foundry_id  38 bytes: alias address + serial number + token scheme type
 *	    address     33 bytes: type byte + 32-byte ID; text is bech32 (see address.cpp)
 *	    trytes81, trytes27: legacy trit strings in t5b1 (text I/O in trytes.cpp)
 *
 *	  Comparison and hashing are generated per length; one template serves every type.
 */
#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "codec/hex.hpp"

extern "C"
{
#include "postgres.h"

#include "common/hashfn.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
}

#include "pgcpp/guard.hpp"
#include "types/fixed_types.hpp"

namespace permanode::types
{

int CompareFixed(Datum a, Datum b, size_t length)
{
    return std::memcmp(DatumGetPointer(a), DatumGetPointer(b), length);
}

template <size_t N> static Datum GuardedHexIn(FunctionCallInfo fcinfo, const char *type_name)
{
    return pg::Guarded(
        [&]() -> Datum
        {
            const char *text = PG_GETARG_CSTRING(0);
            /* Canonical text only: the 0x prefix is required. */
            auto bytes = std::strncmp(text, "0x", 2) == 0 ? codec::FromHexFixed<N>(text)
                                                          : std::optional<std::array<uint8_t, N>>();
            if (!bytes)
                throw pg::PgError(ERRCODE_INVALID_TEXT_REPRESENTATION,
                                  std::string("invalid input syntax for type ") + type_name +
                                      ": \"" + text + "\"",
                                  std::string("Values of type ") + type_name +
                                      " are \"0x\" followed by " + std::to_string(2 * N) +
                                      " hexadecimal digits (" + std::to_string(N) + " bytes).");
            void *result = pg::CallPg([] { return palloc(N); });
            std::memcpy(result, bytes->data(), N);
            return PointerGetDatum(result);
        });
}

template <size_t N> static Datum GuardedHexOut(FunctionCallInfo fcinfo)
{
    return pg::Guarded(
        [&]() -> Datum
        {
            const auto *data = reinterpret_cast<const uint8_t *>(PG_GETARG_POINTER(0));
            std::string hex = codec::ToHex(codec::ByteSpan(data, N));
            return CStringGetDatum(pg::CallPg([&] { return pstrdup(hex.c_str()); }));
        });
}

template <size_t N> static Datum BinaryRecv(FunctionCallInfo fcinfo, const char *type_name)
{
    StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    if (buf->len - buf->cursor != static_cast<int>(N))
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("invalid binary %s: expected %zu bytes, got %d", type_name, N,
                               buf->len - buf->cursor)));
    void *result = palloc(N);
    pq_copymsgbytes(buf, static_cast<char *>(result), N);
    PG_RETURN_POINTER(result);
}

} // namespace permanode::types

using namespace permanode::types;

/* Comparison operators, btree support and hashing for one length. */
#define PERMANODE_FIXED_COMPARE(prefix, N)                                                         \
    extern "C"                                                                                     \
    {                                                                                              \
        PG_FUNCTION_INFO_V1(prefix##_cmp);                                                         \
        PG_FUNCTION_INFO_V1(prefix##_eq);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_ne);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_lt);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_le);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_gt);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_ge);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_hash);                                                        \
        PG_FUNCTION_INFO_V1(prefix##_hash_extended);                                               \
    }                                                                                              \
    extern "C" Datum prefix##_cmp(PG_FUNCTION_ARGS)                                                \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        int c = CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N);                           \
        PG_RETURN_INT32(c < 0 ? -1 : (c > 0 ? 1 : 0));                                             \
    }                                                                                              \
    extern "C" Datum prefix##_eq(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) == 0);              \
    }                                                                                              \
    extern "C" Datum prefix##_ne(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) != 0);              \
    }                                                                                              \
    extern "C" Datum prefix##_lt(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) < 0);               \
    }                                                                                              \
    extern "C" Datum prefix##_le(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) <= 0);              \
    }                                                                                              \
    extern "C" Datum prefix##_gt(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) > 0);               \
    }                                                                                              \
    extern "C" Datum prefix##_ge(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        PG_RETURN_BOOL(CompareFixed(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), N) >= 0);              \
    }                                                                                              \
    extern "C" Datum prefix##_hash(PG_FUNCTION_ARGS)                                               \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        return hash_any(reinterpret_cast<const unsigned char *>(PG_GETARG_POINTER(0)), N);         \
    }                                                                                              \
    extern "C" Datum prefix##_hash_extended(PG_FUNCTION_ARGS)                                      \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        return hash_any_extended(reinterpret_cast<const unsigned char *>(PG_GETARG_POINTER(0)), N, \
                                 PG_GETARG_INT64(1));                                              \
    }

/* Hex text and binary I/O for one length. */
#define PERMANODE_FIXED_IO(prefix, N, type_name)                                                   \
    extern "C"                                                                                     \
    {                                                                                              \
        PG_FUNCTION_INFO_V1(prefix##_in);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_out);                                                         \
        PG_FUNCTION_INFO_V1(prefix##_recv);                                                        \
        PG_FUNCTION_INFO_V1(prefix##_send);                                                        \
    }                                                                                              \
    extern "C" Datum prefix##_in(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        return GuardedHexIn<N>(fcinfo, type_name);                                                 \
    }                                                                                              \
    extern "C" Datum prefix##_out(PG_FUNCTION_ARGS)                                                \
    {                                                                                              \
        return GuardedHexOut<N>(fcinfo);                                                           \
    }                                                                                              \
    extern "C" Datum prefix##_recv(PG_FUNCTION_ARGS)                                               \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        return BinaryRecv<N>(fcinfo, type_name);                                                   \
    }                                                                                              \
    extern "C" Datum prefix##_send(PG_FUNCTION_ARGS)                                               \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        return FixedSend<N>(fcinfo);                                                               \
    }

PERMANODE_FIXED_COMPARE(permanode_hash32, 32)
PERMANODE_FIXED_IO(permanode_hash32, 32, "hash32")
PERMANODE_FIXED_COMPARE(permanode_output_id, 34)
PERMANODE_FIXED_IO(permanode_output_id, 34, "output_id")
PERMANODE_FIXED_COMPARE(permanode_foundry_id, 38)
PERMANODE_FIXED_IO(permanode_foundry_id, 38, "foundry_id")
PERMANODE_FIXED_COMPARE(permanode_address, 33)
PERMANODE_FIXED_IO(permanode_address_hex, 33, "address")
/* The legacy ledger's tryte types (text and binary I/O in trytes.cpp): t5b1 bytes. */
PERMANODE_FIXED_COMPARE(permanode_trytes81, 49)
PERMANODE_FIXED_COMPARE(permanode_trytes27, 17)
