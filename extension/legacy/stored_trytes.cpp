/*
 * stored_trytes.cpp
 *	  legacy.trytes(bytea): a stored legacy transaction (t5b1, 1604 bytes) as the 2673 trytes it
 *	  was stored from, byte-exact, as IRI's getTrytes served it; legacy.t5b1(text), the reverse.
 */
#include <cstring>
#include <string>

#include "codec/error.hpp"
#include "codec/legacy/transaction.hpp"

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

    PG_FUNCTION_INFO_V1(permanode_legacy_trytes);
    PG_FUNCTION_INFO_V1(permanode_legacy_t5b1);
}

#include "pgcpp/guard.hpp"

extern "C" Datum permanode_legacy_trytes(PG_FUNCTION_ARGS)
{
    using permanode::pg::CallPg;
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            bytea *bytes = CallPg([&] { return PG_GETARG_BYTEA_PP(0); });
            std::string trytes;
            try
            {
                trytes = permanode::codec::legacy::TransactionFromBytes(permanode::codec::ByteSpan(
                    reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes)),
                    VARSIZE_ANY_EXHDR(bytes)));
            }
            catch (const permanode::codec::DecodeError &e)
            {
                throw permanode::pg::PgError(ERRCODE_INVALID_BINARY_REPRESENTATION,
                                             std::string("could not decode legacy transaction: ") +
                                                 e.what());
            }
            return CallPg([&] { return PointerGetDatum(cstring_to_text(trytes.c_str())); });
        });
}

extern "C" Datum permanode_legacy_t5b1(PG_FUNCTION_ARGS)
{
    using permanode::pg::CallPg;
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            std::string trytes = CallPg([&] { return text_to_cstring(PG_GETARG_TEXT_PP(0)); });
            permanode::codec::Bytes bytes;
            try
            {
                bytes = permanode::codec::legacy::TransactionToBytes(trytes);
            }
            catch (const permanode::codec::DecodeError &e)
            {
                throw permanode::pg::PgError(ERRCODE_INVALID_TEXT_REPRESENTATION,
                                             std::string("invalid legacy transaction trytes: ") +
                                                 e.what());
            }
            bytea *result =
                CallPg([&] { return static_cast<bytea *>(palloc(VARHDRSZ + bytes.size())); });
            SET_VARSIZE(result, VARHDRSZ + bytes.size());
            std::memcpy(VARDATA(result), bytes.data(), bytes.size());
            return PointerGetDatum(result);
        });
}
