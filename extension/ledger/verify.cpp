/*
 * verify.cpp
 *	  permanode.verify_cone(): what one milestone's stored cone says, for permanode.verify() to
 *	  hold against the stored rows (86_verify.sql). Each block's ID is computed again from its
 *	  bytes; the cone is derived again, by ingest's own derivation, into the rows ingest wrote
 *	  (outputs created, spends, tags, parents); its white-flag order is checked (every parent in
 *	  the cone comes before its children), and the milestone payload's Merkle roots (TIP-4) are
 *	  computed over the cone: Stardust's inclusion root over every block and applied root over
 *	  the included transactions, Chrysalis's inclusion proof over the included transactions.
 *	  Also permanode.blake2b256(), the floor verify's speed is measured against.
 */
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/merkle.hpp"
#include "codec/payload.hpp"
#include "ledger/cone_input.hpp"
#include "ledger/derive.hpp"
#include "ledger/hints.hpp"

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

    PG_FUNCTION_INFO_V1(permanode_verify_cone);
    PG_FUNCTION_INFO_V1(permanode_blake2b256);
    PG_FUNCTION_INFO_V1(permanode_digest_add);
    PG_FUNCTION_INFO_V1(permanode_digest_combine);
}

#include "pgcpp/guard.hpp"

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ledger = permanode::ledger;
namespace codec = permanode::codec;
using permanode::pg::CallPg;

namespace
{

enum VerifyArg
{
    kMilestoneIndexArg,
    kTimestampArg,
    kBlocksArg,
    kInclusionStatesArg,
    kConflictReasonsArg,
    kProtocolVersionArg,
    kPayloadArg,
    kStoredIdsArg,
    kDigestsArg,
};

// An order-independent digest of a table's rows: the sums (mod 2^64, lane by lane) of each row's
// BLAKE2b-256 over its key, a zero byte and its detail, and the number of rows. A row changed,
// missing or repeated changes it; permanode.row_digest() computes the same over stored rows.
struct Digest
{
    std::uint64_t lanes[4] = {0, 0, 0, 0};
    std::int64_t rows = 0;

    void Add(std::string_view key, codec::ByteSpan detail)
    {
        static const std::uint8_t kSeparator = 0;
        codec::Hash32 hash = codec::Blake2b256(
            {codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(key.data()), key.size()),
             codec::ByteSpan(&kSeparator, 1), detail});
        for (int lane = 0; lane < 4; ++lane)
        {
            std::uint64_t word = 0;
            for (int b = 7; b >= 0; --b)
                word = (word << 8) | hash[lane * 8 + b];
            lanes[lane] += word;
        }
        rows++;
    }
    codec::Bytes Bytes() const
    {
        codec::Bytes out(32);
        for (int lane = 0; lane < 4; ++lane)
            for (int b = 0; b < 8; ++b)
                out[lane * 8 + b] = static_cast<std::uint8_t>(lanes[lane] >> (8 * b));
        return out;
    }
};

// The result rows: (table_name, block_index, key, detail, problem).
class Rows
{
  public:
    // With `digests`, the rows of each table (but messages) are summed into one digest row per
    // table instead: (table, NULL, rows, digest, NULL); problems are rows as ever.
    Rows(FunctionCallInfo fcinfo, bool digests)
        : rsinfo_(reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo)), digests_(digests)
    {
    }
    void Add(const char *table, std::optional<int> position, const std::string &key,
             const std::optional<codec::ByteSpan> &detail,
             const std::optional<std::string> &problem = std::nullopt)
    {
        if (digests_ && !problem)
        {
            if (std::string_view(table) != "messages")
                sums_[table].Add(key, detail.value_or(codec::ByteSpan(nullptr, 0)));
            return;
        }
        Put(table, position, key, detail, problem);
    }
    void Problem(const char *table, std::optional<int> position, const std::string &key,
                 const std::string &problem)
    {
        Add(table, position, key, std::nullopt, problem);
    }
    // A derived row keyed by IDs: its key is their bytes in a digest, their 0x-hex (joined by
    // '>') in a row.
    void Row(const char *table, codec::ByteSpan key, std::optional<codec::ByteSpan> second,
             std::optional<codec::ByteSpan> detail)
    {
        if (digests_)
        {
            codec::Bytes bytes(key.data, key.data + key.size);
            if (second)
                bytes.insert(bytes.end(), second->data, second->data + second->size);
            sums_[table].Add(
                std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
                detail.value_or(codec::ByteSpan(nullptr, 0)));
            return;
        }
        Put(table, std::nullopt,
            codec::ToHex(key) + (second ? ">" + codec::ToHex(*second) : std::string()), detail,
            std::nullopt);
    }
    // The digest rows (with `digests`).
    void Finish()
    {
        for (const auto &[table, digest] : sums_)
        {
            codec::Bytes bytes = digest.Bytes();
            Put(table.c_str(), std::nullopt, std::to_string(digest.rows),
                codec::ByteSpan(bytes.data(), bytes.size()), std::nullopt);
        }
    }

  private:
    void Put(const char *table, std::optional<int> position, const std::string &key,
             const std::optional<codec::ByteSpan> &detail,
             const std::optional<std::string> &problem)
    {
        CallPg(
            [&]
            {
                Datum values[5];
                bool nulls[5] = {false, !position, key.empty(), !detail, !problem};
                values[0] = CStringGetTextDatum(table);
                values[1] = Int32GetDatum(position.value_or(0));
                values[2] = key.empty() ? 0 : CStringGetTextDatum(key.c_str());
                if (detail)
                {
                    bytea *bytes = static_cast<bytea *>(palloc(VARHDRSZ + detail->size));
                    SET_VARSIZE(bytes, VARHDRSZ + detail->size);
                    if (detail->size > 0)
                        std::memcpy(VARDATA(bytes), detail->data, detail->size);
                    values[3] = PointerGetDatum(bytes);
                }
                else
                    values[3] = 0;
                values[4] = problem ? CStringGetTextDatum(problem->c_str()) : 0;
                tuplestore_putvalues(rsinfo_->setResult, rsinfo_->setDesc, values, nulls);
            });
    }

    ReturnSetInfo *rsinfo_;
    bool digests_;
    std::map<std::string, Digest> sums_;
};

codec::ByteSpan Span(const codec::Hash32 &hash)
{
    return codec::ByteSpan(hash.data(), hash.size());
}

// Every parent the cone holds comes before its child (white-flag order is a post-order).
void CheckWhiteFlagOrder(const ledger::MilestoneRows &derived, Rows &out)
{
    std::map<codec::BlockId, std::size_t> position;
    for (std::size_t i = 0; i < derived.messages.size(); ++i)
        position.emplace(derived.messages[i].block_id, i);
    for (std::size_t i = 0; i < derived.messages.size(); ++i)
        for (const codec::BlockId &parent : derived.messages[i].parents)
            if (auto it = position.find(parent); it != position.end() && it->second > i)
                out.Problem("messages", static_cast<int>(i),
                            codec::ToHex(derived.messages[i].block_id),
                            "its parent " + codec::ToHex(parent) + " comes after it in the " +
                                "milestone's white-flag order (position " +
                                std::to_string(it->second) + ")");
}

// The Merkle roots the milestone payload claims against those of the cone.
void CheckMerkleRoots(const ledger::MilestoneRows &derived, std::uint8_t protocol_version,
                      codec::ByteSpan payload, Rows &out)
{
    std::vector<codec::Hash32> all, applied;
    for (const ledger::MessageRow &m : derived.messages)
    {
        all.push_back(m.block_id);
        if (m.inclusion_state == static_cast<std::uint8_t>(ledger::InclusionState::kIncluded))
            applied.push_back(m.block_id);
    }
    const std::string key = std::to_string(derived.milestone_index);
    auto compare = [&](const char *what, const codec::Hash32 &claimed,
                       const std::vector<codec::Hash32> &leaves, const char *over)
    {
        codec::Hash32 computed = codec::MerkleRoot(leaves);
        if (claimed != computed)
            out.Problem("milestones", std::nullopt, key,
                        std::string("the payload's ") + what + " " + codec::ToHex(claimed) +
                            " is not the Merkle hash (TIP-4) of the " +
                            std::to_string(leaves.size()) + " " + over + " in white-flag order, " +
                            codec::ToHex(computed));
    };
    try
    {
        if (protocol_version == ledger::kChrysalisProtocol)
        {
            auto decoded = codec::chrysalis::DecodePayloadBytes(payload);
            const auto *milestone = std::get_if<codec::chrysalis::MilestonePayload>(&decoded);
            if (!milestone)
                throw codec::DecodeError("milestone payload", 0, "not a milestone payload");
            compare("inclusion merkle proof", milestone->essence.inclusion_merkle_proof, applied,
                    "included transaction messages");
            return;
        }
        codec::ByteReader reader(payload);
        codec::Payload decoded = codec::DecodeBlockPayload(reader);
        const auto *milestone = std::get_if<codec::MilestonePayload>(&decoded);
        if (!milestone)
            throw codec::DecodeError("milestone payload", 0, "not a milestone payload");
        compare("inclusion merkle root", milestone->essence.inclusion_merkle_root, all,
                "blocks of the cone");
        compare("applied merkle root", milestone->essence.applied_merkle_root, applied,
                "included transaction blocks");
    }
    catch (const codec::DecodeError &e)
    {
        out.Problem("milestones", std::nullopt, key,
                    std::string("the stored milestone payload does not decode: ") + e.what());
    }
}

} // namespace

/*
 * verify_cone(milestone_index, milestone_timestamp, blocks, inclusion_states, conflict_reasons,
 * protocol_version, milestone_payload, stored_ids) returns (table_name, position, key, detail,
 * problem):
 *   messages: the ID each block's bytes hash to (block_index: in the cone); a problem where it is
 *     not the stored ID given, or where the white-flag order puts a parent after its child;
 *   basic_outputs ... legacy_outputs: each output created (key its ID, detail its bytes);
 *   spent_outputs: each spend (key the output ID, detail the spending transaction ID);
 *   tags: each tag (key the block ID, detail the tag); parents: each edge (key parent>child);
 *   milestones: Merkle root problems (with a payload);
 *   and one messages row with a problem when the cone does not derive.
 */
extern "C" Datum permanode_verify_cone(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            CallPg([&] { InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC); });
            if (PG_ARGISNULL(kMilestoneIndexArg) || PG_ARGISNULL(kTimestampArg) ||
                PG_ARGISNULL(kBlocksArg) || PG_ARGISNULL(kProtocolVersionArg))
                throw ledger::InvalidArgument(
                    "milestone_index, timestamp, blocks and protocol_version must not be null");
            int32 milestone_index = PG_GETARG_INT32(kMilestoneIndexArg);
            int64 timestamp = PG_GETARG_INT64(kTimestampArg);
            int16 protocol_version = PG_GETARG_INT16(kProtocolVersionArg);
            if (milestone_index < 0 || timestamp < 0 || timestamp > UINT32_MAX ||
                (protocol_version != ledger::kChrysalisProtocol &&
                 protocol_version != ledger::kStardustProtocol))
                throw ledger::InvalidArgument("invalid milestone index, timestamp or protocol");
            std::vector<ledger::BlockInput> blocks =
                ledger::ReadCone(fcinfo, kBlocksArg, kInclusionStatesArg, kConflictReasonsArg);
            std::optional<codec::ByteSpan> payload;
            if (!PG_ARGISNULL(kPayloadArg))
                payload = ledger::BytesOf(CallPg(
                    [&] {
                        return PointerGetDatum(
                            PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(kPayloadArg)));
                    }));

            std::vector<std::string> stored_ids;
            if (PG_NARGS() > kStoredIdsArg && !PG_ARGISNULL(kStoredIdsArg))
            {
                ledger::ArrayArg ids;
                char **texts = nullptr; // C strings until out of the CallPg region
                CallPg(
                    [&]
                    {
                        ledger::DeconstructArg(fcinfo, kStoredIdsArg, ids);
                        texts = static_cast<char **>(palloc0(sizeof(char *) * (ids.count + 1)));
                        for (int i = 0; i < ids.count; ++i)
                            if (!ids.nulls[i])
                                texts[i] = TextDatumGetCString(ids.values[i]);
                    });
                for (int i = 0; i < ids.count; ++i)
                    stored_ids.push_back(texts[i] != nullptr ? texts[i] : "");
                if (stored_ids.size() != blocks.size())
                    throw ledger::InvalidArgument(
                        "stored_ids has " + std::to_string(stored_ids.size()) + " elements for " +
                        std::to_string(blocks.size()) + " blocks");
            }

            bool digests = PG_NARGS() > kDigestsArg && !PG_ARGISNULL(kDigestsArg) &&
                           PG_GETARG_BOOL(kDigestsArg);
            Rows out(fcinfo, digests);
            for (std::size_t i = 0; i < blocks.size(); ++i)
            {
                std::string id = codec::ToHex(codec::Blake2b256(blocks[i].bytes));
                out.Add("messages", static_cast<int>(i), id, std::nullopt);
                if (!stored_ids.empty() && stored_ids[i] != id)
                    out.Problem("messages", static_cast<int>(i), stored_ids[i],
                                "the stored ID is not the BLAKE2b-256 of the stored bytes, " + id);
            }

            ledger::MilestoneRows derived;
            try
            {
                derived = ledger::DeriveCone(static_cast<std::uint8_t>(protocol_version),
                                             static_cast<std::uint32_t>(milestone_index),
                                             static_cast<std::uint32_t>(timestamp), blocks, {});
            }
            catch (const permanode::pg::PgError &e)
            {
                out.Problem("messages", std::nullopt, {},
                            std::string("the stored cone does not derive: ") + e.what());
                out.Finish();
                return (Datum)0;
            }
            CheckWhiteFlagOrder(derived, out);
            if (payload)
                CheckMerkleRoots(derived, static_cast<std::uint8_t>(protocol_version), *payload,
                                 out);

            for (const ledger::OutputRow &o : derived.outputs)
            {
                const char *table = ledger::NamesOf(o).table;
                if (o.from_snapshot || table == nullptr)
                    continue;
                codec::OutputIdBytes id = codec::ToBytes(o.output_id);
                out.Row(table, codec::ByteSpan(id.data(), id.size()), std::nullopt,
                        codec::ByteSpan(o.data.data(), o.data.size()));
            }
            for (const ledger::SpendRow &s : derived.spends)
            {
                codec::OutputIdBytes id = codec::ToBytes(s.output_id);
                out.Row("spent_outputs", codec::ByteSpan(id.data(), id.size()), std::nullopt,
                        Span(s.transaction_id));
            }
            for (const ledger::MessageRow &m : derived.messages)
            {
                if (m.tag)
                    out.Row("tags", Span(m.block_id), std::nullopt,
                            codec::ByteSpan(m.tag->data(), m.tag->size()));
                for (const codec::BlockId &parent : m.parents)
                    out.Row("parents", Span(parent), Span(m.block_id), std::nullopt);
            }
            out.Finish();
            return (Datum)0;
        });
}

namespace
{

// A row_digest state argument (32 bytes, NULL at first) into `digest`'s lanes.
void AddState(FunctionCallInfo fcinfo, int arg, Digest &digest)
{
    if (PG_ARGISNULL(arg))
        return;
    codec::ByteSpan state = ledger::BytesOf(
        CallPg([&] { return PointerGetDatum(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(arg))); }));
    for (int lane = 0; lane < 4; ++lane)
    {
        std::uint64_t word = 0;
        for (int b = 7; b >= 0; --b)
            word = (word << 8) | state.data[lane * 8 + b];
        digest.lanes[lane] += word;
    }
}

Datum StateOf(const Digest &digest)
{
    codec::Bytes bytes = digest.Bytes();
    return CallPg(
        [&]
        {
            bytea *result = static_cast<bytea *>(palloc(VARHDRSZ + bytes.size()));
            SET_VARSIZE(result, VARHDRSZ + bytes.size());
            std::memcpy(VARDATA(result), bytes.data(), bytes.size());
            return PointerGetDatum(result);
        });
}

} // namespace

/*
 * row_digest's transition: the state plus one row's (key, detail), as Digest sums verify_cone's
 * rows (keys: the bytes of the row's IDs).
 */
extern "C" Datum permanode_digest_add(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            Digest digest;
            AddState(fcinfo, 0, digest);
            if (!PG_ARGISNULL(1))
            {
                codec::ByteSpan key = ledger::BytesOf(CallPg(
                    [&] { return PointerGetDatum(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(1))); }));
                codec::ByteSpan detail(nullptr, 0);
                if (!PG_ARGISNULL(2))
                    detail = ledger::BytesOf(CallPg(
                        [&]
                        { return PointerGetDatum(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(2))); }));
                digest.Add(std::string_view(reinterpret_cast<const char *>(key.data), key.size),
                           detail);
            }
            return StateOf(digest);
        });
}

/* row_digest's combine: two partial states summed (parallel aggregation). */
extern "C" Datum permanode_digest_combine(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
            {
                fcinfo->isnull = true;
                return Datum(0);
            }
            Digest digest;
            AddState(fcinfo, 0, digest);
            AddState(fcinfo, 1, digest);
            return StateOf(digest);
        });
}

/* BLAKE2b-256 of the bytes. */
extern "C" Datum permanode_blake2b256(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            codec::ByteSpan bytes = ledger::BytesOf(CallPg(
                [&] { return PointerGetDatum(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0))); }));
            codec::Hash32 hash = codec::Blake2b256(bytes);
            return CallPg(
                [&]
                {
                    bytea *result = static_cast<bytea *>(palloc(VARHDRSZ + hash.size()));
                    SET_VARSIZE(result, VARHDRSZ + hash.size());
                    std::memcpy(VARDATA(result), hash.data(), hash.size());
                    return PointerGetDatum(result);
                });
        });
}
