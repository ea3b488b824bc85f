/*
 * trytes.cpp
 *	  The legacy (ternary) ledger's identifier types: fixed-length trit strings stored as t5b1
 *	  bytes (five trits a byte), read and written as trytes.
 *
 *	    trytes81  49 bytes: transaction hashes, bundle hashes and addresses (243 trits); text
 *	              input also takes an address with its 9-tryte checksum, which is checked
 *	    trytes27  17 bytes: tags and obsolete tags (81 trits)
 *
 *	  Comparison is memcmp of the bytes (PERMANODE_FIXED_COMPARE in fixed_types.cpp): an order
 *	  for btree, not the trytes' alphabetical one.
 */
#include <cstring>
#include <string>
#include <string_view>

#include "codec/error.hpp"
#include "codec/legacy/address.hpp"
#include "codec/legacy/trinary.hpp"

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
}

#include "pgcpp/guard.hpp"
#include "types/fixed_types.hpp"

namespace legacy = permanode::codec::legacy;

namespace
{

constexpr std::size_t BytesFor(std::size_t trytes)
{
    return (trytes * legacy::kTritsPerTryte + legacy::kTritsPerByte - 1) / legacy::kTritsPerByte;
}

/* Trytes to the stored bytes; a PgError that names the type on anything else. */
template <std::size_t Trytes> Datum TrytesIn(const char *text, const char *type_name)
{
    std::string_view given(text);
    std::string trytes;
    try
    {
        // An 81-tryte value may be an address written with its checksum.
        trytes = Trytes == legacy::kHashTrytes && given.size() == Trytes + legacy::kChecksumTrytes
                     ? legacy::ParseAddress(given, type_name)
                     : std::string(given);
        if (trytes.size() != Trytes)
            throw permanode::codec::DecodeError(type_name, trytes.size(), "wrong length", "tryte");
        legacy::Trits trits = legacy::TrytesToTrits(trytes, type_name);
        permanode::codec::Bytes bytes = legacy::EncodeT5b1(trits.data(), trits.size());
        void *result = permanode::pg::CallPg([&] { return palloc(bytes.size()); });
        std::memcpy(result, bytes.data(), bytes.size());
        return PointerGetDatum(result);
    }
    catch (const permanode::codec::DecodeError &e)
    {
        std::string hint = std::string("Values of type ") + type_name + " are " +
                           std::to_string(Trytes) + " trytes (9 and A to Z)" +
                           (Trytes == legacy::kHashTrytes
                                ? ", or an address of 81 followed by its 9-tryte checksum."
                                : ".");
        throw permanode::pg::PgError(ERRCODE_INVALID_TEXT_REPRESENTATION,
                                     std::string("invalid input syntax for type ") + type_name +
                                         ": \"" + text + "\"",
                                     e.what(), hint);
    }
}

template <std::size_t Trytes> std::string TrytesOf(const void *data)
{
    constexpr std::size_t n = BytesFor(Trytes);
    legacy::Trits trits =
        legacy::DecodeT5b1(permanode::codec::ByteSpan(static_cast<const std::uint8_t *>(data), n),
                           Trytes * legacy::kTritsPerTryte);
    return legacy::TritsToTrytes(trits.data(), trits.size());
}

} // namespace

#define PERMANODE_TRYTES_IO(prefix, Trytes, type_name)                                             \
    extern "C"                                                                                     \
    {                                                                                              \
        PG_FUNCTION_INFO_V1(prefix##_in);                                                          \
        PG_FUNCTION_INFO_V1(prefix##_out);                                                         \
        PG_FUNCTION_INFO_V1(prefix##_recv);                                                        \
        PG_FUNCTION_INFO_V1(prefix##_send);                                                        \
    }                                                                                              \
    extern "C" Datum prefix##_in(PG_FUNCTION_ARGS)                                                 \
    {                                                                                              \
        return permanode::pg::Guarded(                                                             \
            [&] { return TrytesIn<Trytes>(PG_GETARG_CSTRING(0), type_name); });                    \
    }                                                                                              \
    extern "C" Datum prefix##_out(PG_FUNCTION_ARGS)                                                \
    {                                                                                              \
        return permanode::pg::Guarded(                                                             \
            [&]() -> Datum                                                                         \
            {                                                                                      \
                std::string trytes = TrytesOf<Trytes>(PG_GETARG_POINTER(0));                       \
                return CStringGetDatum(                                                            \
                    permanode::pg::CallPg([&] { return pstrdup(trytes.c_str()); }));               \
            });                                                                                    \
    }                                                                                              \
    /* Binary I/O is the t5b1 bytes, checked to decode. */                                         \
    extern "C" Datum prefix##_recv(PG_FUNCTION_ARGS)                                               \
    {                                                                                              \
        return permanode::pg::Guarded(                                                             \
            [&]() -> Datum                                                                         \
            {                                                                                      \
                StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));               \
                constexpr std::size_t n = BytesFor(Trytes);                                        \
                std::size_t left = static_cast<std::size_t>(buf->len - buf->cursor);               \
                const char *data = buf->data + buf->cursor;                                        \
                try                                                                                \
                {                                                                                  \
                    if (left != n)                                                                 \
                        throw permanode::codec::DecodeError(type_name, left, "wrong length");      \
                    (void)TrytesOf<Trytes>(data);                                                  \
                }                                                                                  \
                catch (const permanode::codec::DecodeError &e)                                     \
                {                                                                                  \
                    throw permanode::pg::PgError(ERRCODE_INVALID_BINARY_REPRESENTATION,            \
                                                 std::string("invalid binary ") + type_name +      \
                                                     ": " + e.what());                             \
                }                                                                                  \
                void *result = permanode::pg::CallPg([&] { return palloc(n); });                   \
                std::memcpy(result, data, n);                                                      \
                buf->cursor += static_cast<int>(n);                                                \
                return PointerGetDatum(result);                                                    \
            });                                                                                    \
    }                                                                                              \
    extern "C" Datum prefix##_send(PG_FUNCTION_ARGS)                                               \
    {                                                                                              \
        PERMANODE_PURE_C;                                                                          \
        return permanode::types::FixedSend<BytesFor(Trytes)>(fcinfo);                              \
    }

PERMANODE_TRYTES_IO(permanode_trytes81, 81, "trytes81")
PERMANODE_TRYTES_IO(permanode_trytes27, 27, "trytes27")

/*
 * trytes81 from its 49 t5b1 bytes given as bytea (as a Chrysalis receipt carries a legacy tail
 * transaction hash); NULL when they are not t5b1 of 243 trits, so not a legacy hash.
 */
extern "C"
{
    PG_FUNCTION_INFO_V1(permanode_trytes81_from_t5b1);
}
extern "C" Datum permanode_trytes81_from_t5b1(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            bytea *given = PG_GETARG_BYTEA_PP(0);
            constexpr std::size_t n = BytesFor(legacy::kHashTrytes);
            const char *data = VARDATA_ANY(given);
            try
            {
                if (VARSIZE_ANY_EXHDR(given) != n)
                    PG_RETURN_NULL();
                (void)TrytesOf<legacy::kHashTrytes>(data);
            }
            catch (const permanode::codec::DecodeError &)
            {
                PG_RETURN_NULL();
            }
            void *result = permanode::pg::CallPg([&] { return palloc(n); });
            std::memcpy(result, data, n);
            return PointerGetDatum(result);
        });
}
