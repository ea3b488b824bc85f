/*
 * decode_transactions.cpp
 *	  legacy.decode_transactions(transactions bytea[], hashes trytes81[], layout text): the stored
 *	  form of legacy transactions (t5b1, 1604 bytes each) decoded into the columns of the legacy
 *	  tables, each hashed again with Curl-P-81 (64 at a time, bitsliced) and, when the caller
 *	  names the hashes it expects, checked against them. legacy.ingest() writes its rows.
 */
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "codec/error.hpp"
#include "codec/error_position.hpp"
#include "codec/legacy/curl.hpp"
#include "codec/legacy/time.hpp"
#include "codec/legacy/transaction.hpp"
#include "codec/legacy/trinary.hpp"

extern "C"
{
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

    PG_FUNCTION_INFO_V1(permanode_legacy_decode_transactions);
}

#include "pgcpp/guard.hpp"

namespace codec = permanode::codec;
namespace legacy = permanode::codec::legacy;
using permanode::pg::CallPg;
using permanode::pg::PgError;

namespace
{

constexpr std::size_t kTrytes81Bytes = 49;
constexpr std::size_t kTrytes27Bytes = 17;

/* The stored bytes of `count` trits, as a pass-by-reference datum. */
Datum TritsDatum(const legacy::Trit *trits, std::size_t count, std::size_t bytes)
{
    permanode::codec::Bytes packed = legacy::EncodeT5b1(trits, count);
    void *result = CallPg([&] { return palloc(bytes); });
    std::memcpy(result, packed.data(), bytes);
    return PointerGetDatum(result);
}

/* Milliseconds since 1970 as a timestamptz (microseconds since 2000). */
TimestampTz ToTimestampTz(std::int64_t ms)
{
    return ms * 1000 - (static_cast<std::int64_t>(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
                        SECS_PER_DAY * USECS_PER_SEC);
}

Datum TrytesDatum(const std::string &trytes, std::size_t bytes)
{
    legacy::Trits trits = legacy::TrytesToTrits(trytes);
    return TritsDatum(trits.data(), trits.size(), bytes);
}

struct Input
{
    std::vector<Datum> transactions;
    std::vector<bool> transaction_nulls;
    std::vector<Datum> hashes; // empty: not checked
};

Input ReadArguments(FunctionCallInfo fcinfo)
{
    Input in;
    CallPg(
        [&]
        {
            Datum *elems;
            bool *nulls;
            int n;
            deconstruct_array(PG_GETARG_ARRAYTYPE_P(0), BYTEAOID, -1, false, TYPALIGN_INT, &elems,
                              &nulls, &n);
            in.transactions.assign(elems, elems + n);
            in.transaction_nulls.assign(nulls, nulls + n);
            if (!PG_ARGISNULL(1))
            {
                ArrayType *hashes = PG_GETARG_ARRAYTYPE_P(1);
                deconstruct_array(hashes, ARR_ELEMTYPE(hashes), kTrytes81Bytes, false,
                                  TYPALIGN_CHAR, &elems, &nulls, &n);
                for (int i = 0; i < n; i++)
                    if (nulls[i])
                        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                                        errmsg("hash %d of the batch is null", i + 1)));
                in.hashes.assign(elems, elems + n);
            }
        });
    if (!in.hashes.empty() && in.hashes.size() != in.transactions.size())
        throw PgError(ERRCODE_INVALID_PARAMETER_VALUE,
                      "the batch has " + std::to_string(in.transactions.size()) +
                          " transactions but " + std::to_string(in.hashes.size()) + " hashes");
    return in;
}

/* The layout argument: NULL detects each transaction's layout from its trits. */
std::optional<legacy::Layout> ReadLayout(FunctionCallInfo fcinfo)
{
    if (PG_ARGISNULL(2))
        return std::nullopt;
    std::string layout = CallPg([&] { return text_to_cstring(PG_GETARG_TEXT_PP(2)); });
    if (layout == "current")
        return legacy::Layout::kCurrent;
    if (layout == "old")
        return legacy::Layout::kOld;
    throw PgError(ERRCODE_INVALID_PARAMETER_VALUE, "unknown transaction layout \"" + layout + "\"",
                  {},
                  "The layouts are \"current\" (November 2017 on) and \"old\"; NULL detects it.");
}

/* Each transaction's 8019 trits; an error names the batch position of bytes that do not decode. */
std::vector<legacy::Trits> ReadTrits(const Input &in)
{
    std::vector<legacy::Trits> all;
    all.reserve(in.transactions.size());
    for (std::size_t i = 0; i < in.transactions.size(); i++)
    {
        if (in.transaction_nulls[i])
            throw PgError(ERRCODE_NULL_VALUE_NOT_ALLOWED,
                          "transaction " + std::to_string(i + 1) + " of the batch is null");
        bytea *bytes = reinterpret_cast<bytea *>(
            CallPg([&] { return PG_DETOAST_DATUM_PACKED(in.transactions[i]); }));
        std::size_t size = VARSIZE_ANY_EXHDR(bytes);
        try
        {
            if (size != legacy::kTransactionT5b1Bytes)
                throw permanode::codec::DecodeError(
                    "transaction", size,
                    "a stored transaction is " + std::to_string(legacy::kTransactionT5b1Bytes) +
                        " bytes (t5b1)");
            all.push_back(legacy::DecodeT5b1(
                permanode::codec::ByteSpan(
                    reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes)), size),
                legacy::kTransactionTrits));
        }
        catch (const permanode::codec::DecodeError &e)
        {
            throw PgError(ERRCODE_INVALID_BINARY_REPRESENTATION, "could not decode transaction " +
                                                                     std::to_string(i + 1) +
                                                                     " of the batch: " + e.what());
        }
    }
    return all;
}

} // namespace

/*
 * Returns (ord, hash, month_id, issued_at, old_layout, address, value, obsolete_tag, timestamp,
 * current_index, last_index, bundle, trunk, branch, tag, attachment_timestamp,
 * attachment_timestamp_lower_bound, attachment_timestamp_upper_bound, nonce), one row per
 * transaction in input order.
 */
extern "C" Datum permanode_legacy_decode_transactions(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            ReturnSetInfo *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
            CallPg([&] { InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC); });
            Input in = ReadArguments(fcinfo);
            std::optional<legacy::Layout> layout = ReadLayout(fcinfo);
            std::vector<legacy::Trits> trits = ReadTrits(in);

            std::vector<const legacy::Trit *> inputs;
            inputs.reserve(trits.size());
            for (const auto &t : trits)
                inputs.push_back(t.data());
            std::vector<legacy::HashTrits> hashes =
                legacy::CurlHashMany(inputs, legacy::kTransactionTrits);

            for (std::size_t i = 0; i < trits.size(); i++)
            {
                Datum hash = TritsDatum(hashes[i].data(), hashes[i].size(), kTrytes81Bytes);
                if (!in.hashes.empty() &&
                    std::memcmp(DatumGetPointer(hash), DatumGetPointer(in.hashes[i]),
                                kTrytes81Bytes) != 0)
                    throw PgError(ERRCODE_DATA_EXCEPTION,
                                  "the transaction hashes to " + legacy::TritsToTrytes(hashes[i]) +
                                      ", not the hash given",
                                  {}, "A transaction's hash is the Curl-P-81 hash of its trits.",
                                  codec::PositionContext(codec::kBatchTransaction, i + 1));
                legacy::Transaction tx = legacy::DecodeTransaction(
                    trits[i].data(), layout.value_or(legacy::DetectLayout(trits[i].data())));
                std::int64_t issued_ms = legacy::IssuedAtMs(tx);

                Datum values[19];
                bool nulls[19] = {};
                values[0] = Int32GetDatum(static_cast<int32>(i + 1));
                values[1] = hash;
                values[2] = Int32GetDatum(legacy::MonthId(issued_ms));
                values[3] = TimestampTzGetDatum(ToTimestampTz(issued_ms));
                values[4] = BoolGetDatum(tx.layout == legacy::Layout::kOld);
                values[5] = TrytesDatum(tx.address, kTrytes81Bytes);
                values[6] = Int64GetDatum(tx.value);
                values[7] = TrytesDatum(tx.obsolete_tag, kTrytes27Bytes);
                values[8] = Int64GetDatum(tx.timestamp);
                values[9] = Int64GetDatum(tx.current_index);
                values[10] = Int64GetDatum(tx.last_index);
                values[11] = TrytesDatum(tx.bundle, kTrytes81Bytes);
                values[12] = TrytesDatum(tx.trunk_transaction, kTrytes81Bytes);
                values[13] = TrytesDatum(tx.branch_transaction, kTrytes81Bytes);
                values[14] = TrytesDatum(tx.tag, kTrytes27Bytes);
                values[15] = Int64GetDatum(tx.attachment_timestamp);
                values[16] = Int64GetDatum(tx.attachment_timestamp_lower_bound);
                values[17] = Int64GetDatum(tx.attachment_timestamp_upper_bound);
                values[18] = CallPg([&] { return CStringGetTextDatum(tx.nonce.c_str()); });
                CallPg(
                    [&]
                    { tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls); });
            }
            return (Datum)0;
        });
}
