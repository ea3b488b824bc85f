/*
 * writer.cpp
 *	  Turns a milestone's rows into column arrays and runs one statement per table. Order
 *	  matters: spends go before creations, so that an output created and spent in the same
 *	  milestone, or spent by a milestone ingested earlier, never enters the unspent set.
 */
#include "codec/address.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "ledger/analytics.hpp"
#include "ledger/derive.hpp"
#include "ledger/hints.hpp"

extern "C"
{
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "utils/timestamp.h"
}

#include "pgcpp/guard.hpp"
#include "ledger/known_hints.hpp"
#include "ledger/metrics_seen.hpp"
#include "ledger/output_rows.hpp"
#include "ledger/writer.hpp"

#include <limits>
#include <map>
#include <set>

namespace permanode::ledger
{
namespace
{

using permanode::pg::CallPg;

using permanode::pg::PgError;

ArrayColumn Int2s()
{
    return ColumnOfType("int2[]", TypeOids());
}
ArrayColumn Int4s()
{
    return ColumnOfType("int4[]", TypeOids());
}
ArrayColumn Int8s()
{
    return ColumnOfType("int8[]", TypeOids());
}
ArrayColumn Timestamps()
{
    return ColumnOfType("timestamptz[]", TypeOids());
}
ArrayColumn Byteas()
{
    return ColumnOfType("bytea[]", TypeOids());
}
ArrayColumn Texts()
{
    return ColumnOfType("text[]", TypeOids());
}

codec::OutputId OutputIdAt(HeapTuple tuple, TupleDesc desc, int column)
{
    bool isnull = false;
    Datum value = SPI_getbinval(tuple, desc, column, &isnull);
    codec::OutputIdBytes bytes{};
    std::memcpy(bytes.data(), DatumGetPointer(value), bytes.size());
    return codec::OutputIdFromBytes(bytes);
}

std::optional<codec::Address> AddressAt(HeapTuple tuple, TupleDesc desc, int column)
{
    bool isnull = false;
    Datum value = SPI_getbinval(tuple, desc, column, &isnull);
    if (isnull)
        return std::nullopt;
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(DatumGetPointer(value));
    codec::Address address;
    address.type = static_cast<codec::AddressType>(bytes[0]);
    std::memcpy(address.id.data(), bytes + 1, address.id.size());
    return address;
}

// Creates the address and tag hint rows that are missing.
void WriteHintRows(const TypeOids &types, const HintRows<AddressHintKey> &address_rows,
                   const HintRows<TagHintKey> &tag_rows)
{
    // In key order (the sets'), so that concurrent transactions lock the rows in one order.
    if (!address_rows.empty())
    {
        ArrayColumn addresses = ColumnOfType("permanode.address[]", types), kinds = Texts(),
                    variants = Texts(), ranges = Int4s();
        for (const AddressHintKey &key : address_rows)
        {
            AddAddress(addresses, key.address);
            kinds.AddText(key.output_kind);
            variants.AddText(key.variant);
            ranges.AddInt32(key.range);
        }
        Execute(sql::kAddressHints, Params()
                                        .Set("address", addresses)
                                        .Set("output_kind", kinds)
                                        .Set("variant", variants)
                                        .Set("ms_range_id", ranges));
    }
    if (!tag_rows.empty())
    {
        ArrayColumn tags = Byteas(), kinds = Texts(), ranges = Int4s();
        for (const TagHintKey &key : tag_rows)
        {
            tags.AddBytes(key.tag.data(), key.tag.size());
            kinds.AddText(key.table_kind);
            ranges.AddInt32(key.range);
        }
        Execute(sql::kTagHints,
                Params().Set("tag", tags).Set("table_kind", kinds).Set("ms_range_id", ranges));
    }
}

} // namespace

int32 Ranges::Of(const char *table, uint32 milestone_index) const
{
    auto it = chunk_sizes_.find(table);
    if (it == chunk_sizes_.end() || it->second <= 0)
        throw PgError(ERRCODE_UNDEFINED_TABLE, std::string("ledger table \"") + table +
                                                   "\" is missing from permanode.ledger_tables");
    return static_cast<int32>(milestone_index / static_cast<uint32>(it->second));
}

std::vector<std::pair<std::string, int32>> Ranges::AllOf(uint32 milestone_index) const
{
    std::vector<std::pair<std::string, int32>> all;
    for (const auto &entry : chunk_sizes_)
        all.emplace_back(entry.first, Of(entry.first.c_str(), milestone_index));
    return all;
}

Ranges ReadRanges(uint32 milestone_index)
{
    Execute(sql::kChunkSizes, Params());
    std::map<std::string, int32> chunk_sizes;
    for (uint64 i = 0; i < SPI_processed; ++i)
    {
        HeapTuple tuple = SPI_tuptable->vals[i];
        TupleDesc desc = SPI_tuptable->tupdesc;
        bool isnull = false;
        Datum name = SPI_getbinval(tuple, desc, 1, &isnull);
        Datum chunk = SPI_getbinval(tuple, desc, 2, &isnull);
        text *name_text = DatumGetTextPP(name);
        chunk_sizes[std::string(VARDATA_ANY(name_text), VARSIZE_ANY_EXHDR(name_text))] =
            DatumGetInt32(chunk);
    }
    return Ranges(milestone_index, std::move(chunk_sizes));
}

MilestoneWriter::MilestoneWriter(const MilestoneRows &rows, const TypeOids &types,
                                 const Ranges &ranges)
    : rows_(rows), types_(types), ranges_(ranges), ms_timestamp_(FromUnix(rows.timestamp)),
      milestone_index_(static_cast<int32>(rows.milestone_index))
{
}

Params MilestoneWriter::InRange(int32 range) const
{
    Params params;
    params.SetInt32("ms_range_id", range)
        .SetInt32("milestone_index", milestone_index_)
        .SetTimestamp("ms_timestamp", ms_timestamp_);
    return params;
}

ArrayColumn MilestoneWriter::Hashes() const
{
    return ColumnOfType("permanode.hash32[]", types_);
}
ArrayColumn MilestoneWriter::OutputIds() const
{
    return ColumnOfType("permanode.output_id[]", types_);
}
ArrayColumn MilestoneWriter::Addresses() const
{
    return ColumnOfType("permanode.address[]", types_);
}

void MilestoneWriter::WriteBlocks()
{
    // messages, parents, tags and transactions are written without ON CONFLICT (its probe of the
    // unique index before each insert cost as much as the insert): the milestone lock and sync row
    // keep a milestone from being written twice, and a block repeated in the cone is written once
    // here. A block in the cones of two milestones is invalid input and fails on the unique key.
    const std::vector<bool> repeated = RepeatedBlocks();
    WriteMessages(repeated);
    WriteParents(repeated);
    WriteTags(repeated);
    if (!rows_.transaction_parts.empty())
        WriteTransactions(repeated);
    if (!rows_.milestones.empty())
        WriteMilestones();
    if (!rows_.receipts.empty())
        WriteReceipts();
}

std::vector<bool> MilestoneWriter::RepeatedBlocks() const
{
    std::set<codec::BlockId> seen;
    std::vector<bool> repeated(rows_.messages.size(), false);
    for (std::size_t i = 0; i < rows_.messages.size(); ++i)
        repeated[i] = !seen.insert(rows_.messages[i].block_id).second;
    return repeated;
}

void MilestoneWriter::WriteMessages(const std::vector<bool> &repeated)
{
    const int32 messages_range = ranges_.Of("messages");
    ArrayColumn ids = Hashes(), versions = Int2s(), raws = Byteas(), states = Int2s(),
                reasons = Int2s(), wfis = Int4s(), variants = Texts(), from = Int4s(), to = Int4s(),
                parents = Hashes();
    int32 parent_count = 0;
    for (std::size_t i = 0; i < rows_.messages.size(); ++i)
    {
        if (repeated[i])
            continue;
        const MessageRow &m = rows_.messages[i];
        ids.AddFixed(m.block_id.data());
        versions.AddInt16(m.protocol_version);
        raws.AddBytes(m.raw.data, m.raw.size);
        states.AddInt16(m.inclusion_state);
        reasons.AddInt16(m.conflict_reason);
        wfis.AddInt32(static_cast<int32>(m.white_flag_index));
        if (m.variant)
            variants.AddText(m.variant);
        else
            variants.AddNull();
        from.AddInt32(parent_count + 1);
        for (const codec::BlockId &parent : m.parents)
            parents.AddFixed(parent.data());
        parent_count += static_cast<int32>(m.parents.size());
        to.AddInt32(parent_count);
    }
    Execute(sql::kMessages, InRange(messages_range)
                                .Set("message_id", ids)
                                .Set("version", versions)
                                .Set("message", raws)
                                .Set("inclusion_state", states)
                                .Set("conflict_reason", reasons)
                                .Set("white_flag_index", wfis)
                                .Set("variant", variants)
                                .Set("parents_from", from)
                                .Set("parents_to", to)
                                .Set("parents", parents));
    Execute(sql::kBlockLocator,
            Params().Set("block_id", ids).SetInt32("ms_range_id", messages_range));
}

void MilestoneWriter::WriteParents(const std::vector<bool> &repeated)
{
    ArrayColumn parent_ids = Hashes(), children = Hashes(), states = Int2s();
    for (std::size_t i = 0; i < rows_.messages.size(); ++i)
    {
        if (repeated[i])
            continue;
        const MessageRow &m = rows_.messages[i];
        for (const codec::BlockId &parent : m.parents)
        {
            parent_ids.AddFixed(parent.data());
            children.AddFixed(m.block_id.data());
            states.AddInt16(m.inclusion_state);
        }
    }
    Execute(sql::kParents, InRange(ranges_.Of("parents"))
                               .Set("parent_id", parent_ids)
                               .Set("message_id", children)
                               .Set("inclusion_state", states));
}

void MilestoneWriter::WriteTags(const std::vector<bool> &repeated)
{
    ArrayColumn tags = Byteas(), ids = Hashes(), states = Int2s();
    for (std::size_t i = 0; i < rows_.messages.size(); ++i)
    {
        const MessageRow &m = rows_.messages[i];
        if (m.tag && !repeated[i])
        {
            tags.AddBytes(m.tag->data(), m.tag->size());
            ids.AddFixed(m.block_id.data());
            states.AddInt16(m.inclusion_state);
        }
    }
    if (tags.Count() > 0)
    {
        Execute(sql::kTags, InRange(ranges_.Of("tags"))
                                .Set("tag", tags)
                                .Set("message_id", ids)
                                .Set("inclusion_state", states));
    }
}

void MilestoneWriter::WriteTransactions(const std::vector<bool> &repeated)
{
    ArrayColumn ids = Hashes(), idxs = Int2s(), variants = Texts(), messages = Hashes(),
                data = Byteas(), states = Int2s();
    for (const TransactionPartRow &p : rows_.transaction_parts)
    {
        if (repeated[p.message])
            continue;
        const MessageRow &m = rows_.messages[p.message];
        ids.AddFixed(p.transaction_id.data());
        idxs.AddInt16(static_cast<int16>(p.idx));
        variants.AddText(p.variant);
        messages.AddFixed(m.block_id.data());
        data.AddBytes(p.data.data(), p.data.size());
        states.AddInt16(m.inclusion_state);
    }
    const int32 range = ranges_.Of("transactions");
    Execute(sql::kTransactions, InRange(range)
                                    .Set("transaction_id", ids)
                                    .Set("idx", idxs)
                                    .Set("variant", variants)
                                    .Set("message_id", messages)
                                    .Set("data", data)
                                    .Set("inclusion_state", states));

    // Sorted: a transaction given in two milestones' cones takes its row in one order.
    std::set<codec::TransactionId> sorted_ids(rows_.transaction_ids.begin(),
                                              rows_.transaction_ids.end());
    ArrayColumn transaction_ids = Hashes();
    for (const codec::TransactionId &id : sorted_ids)
        transaction_ids.AddFixed(id.data());
    Execute(sql::kTransactionLocator,
            Params().Set("transaction_id", transaction_ids).SetInt32("ms_range_id", range));
}

void MilestoneWriter::WriteMilestones()
{
    // Each milestone payload goes in the range of its own milestone (usually the previous).
    ArrayColumn messages = Hashes(), payloads = Byteas(), ids = Hashes(), indexes = Int4s(),
                timestamps = Int8s(), ranges = Int4s();
    for (const MilestoneRow &m : rows_.milestones)
    {
        messages.AddFixed(rows_.messages[m.message].block_id.data());
        payloads.AddBytes(m.payload.data, m.payload.size);
        ids.AddFixed(m.milestone_id.data());
        indexes.AddInt32(static_cast<int32>(m.index));
        timestamps.AddInt64(m.timestamp);
        ranges.AddInt32(ranges_.Of("milestones", m.index));
    }
    Execute(sql::kMilestones, Params()
                                  .Set("message_id", messages)
                                  .Set("payload", payloads)
                                  .Set("milestone_id", ids)
                                  .Set("milestone_index", indexes)
                                  .Set("timestamp", timestamps)
                                  .Set("ms_range_id", ranges));
    Execute(sql::kMilestoneLocator, Params().Set("milestone_id", ids).Set("ms_range_id", ranges));
}

void MilestoneWriter::WriteReceipts()
{
    ArrayColumn indexes = Int4s(), migrated_at = Int4s(), final = Int2s();
    for (const ReceiptRow &r : rows_.receipts)
    {
        indexes.AddInt32(static_cast<int32>(r.milestone_index));
        migrated_at.AddInt32(static_cast<int32>(r.migrated_at));
        final.AddInt16(r.final ? 1 : 0);
    }
    Execute(sql::kReceipts, Params()
                                .Set("milestone_index", indexes)
                                .Set("migrated_at", migrated_at)
                                .Set("final", final));
    for (const ReceiptRow &r : rows_.receipts)
        WriteMigratedFunds(r);
}

void MilestoneWriter::WriteMigratedFunds(const ReceiptRow &receipt)
{
    if (receipt.migrations.empty())
        return;
    ArrayColumn output_ids = OutputIds(), tails = Byteas();
    for (const MigrationRow &m : receipt.migrations)
    {
        AddOutputId(output_ids, m.output_id);
        tails.AddBytes(m.tail_transaction_hash.data(), m.tail_transaction_hash.size());
    }
    Execute(sql::kMigratedFunds,
            Params()
                .Set("output_id", output_ids)
                .Set("tail", tails)
                .SetInt32("milestone_index", static_cast<int32>(receipt.milestone_index)));
}

std::vector<KnownOutput> MilestoneWriter::WriteSpends()
{
    std::vector<KnownOutput> known;
    if (rows_.spends.empty())
        return known;
    ArrayColumn output_ids = OutputIds(), transactions = Hashes(), blocks = Hashes();
    for (const SpendRow &s : rows_.spends)
    {
        AddOutputId(output_ids, s.output_id);
        transactions.AddFixed(s.transaction_id.data());
        blocks.AddFixed(s.block_id.data());
    }
    const int32 range = ranges_.Of("spent_outputs");
    Execute(sql::kSpentOutputs, InRange(range)
                                    .Set("output_id", output_ids)
                                    .Set("transaction_id", transactions)
                                    .Set("message_id", blocks));

    // An upsert must not see one key twice; included transactions never spend an output twice,
    // but the cone is input, so make sure. Sorted, as WriteOutputs sorts the locator rows of the
    // outputs it creates: concurrent milestones take the rows they share in one order.
    std::set<codec::OutputId> distinct;
    for (const SpendRow &s : rows_.spends)
        distinct.insert(s.output_id);
    ArrayColumn distinct_ids = OutputIds();
    for (const codec::OutputId &output_id : distinct)
        AddOutputId(distinct_ids, output_id);
    Execute(sql::kLocateSpent,
            Params().Set("output_id", distinct_ids).SetInt32("ms_range_id", range));
    // Where the schema keeps the ledger as of any milestone, the rows move to retired_outputs.
    uint64 deleted =
        Prepared(sql::kUnspentRetire)
            ? Execute(sql::kUnspentRetire, Params()
                                               .Set("output_id", distinct_ids)
                                               .SetInt32("milestone_index", milestone_index_))
            : Execute(sql::kUnspentDelete, Params().Set("output_id", distinct_ids));
    known.reserve(deleted);
    std::map<codec::OutputId, codec::BlockId> spenders;
    for (const SpendRow &s : rows_.spends)
        spenders.emplace(s.output_id, s.block_id);
    for (uint64 i = 0; i < deleted; ++i)
    {
        HeapTuple tuple = SPI_tuptable->vals[i];
        TupleDesc desc = SPI_tuptable->tupdesc;
        bool isnull = false;
        Datum amount = SPI_getbinval(tuple, desc, 3, &isnull);
        text *kind = DatumGetTextPP(SPI_getbinval(tuple, desc, 4, &isnull));
        known.push_back({OutputIdAt(tuple, desc, 1), AddressAt(tuple, desc, 2),
                         static_cast<std::uint64_t>(DatumGetInt64(amount)),
                         std::string(VARDATA_ANY(kind), VARSIZE_ANY_EXHDR(kind)), std::nullopt});
        Datum tag = SPI_getbinval(tuple, desc, 6, &isnull);
        if (!isnull)
        {
            bytea *bytes = DatumGetByteaPP(tag);
            const auto *data = reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes));
            known.back().tag = codec::Bytes(data, data + VARSIZE_ANY_EXHDR(bytes));
        }
        if (known.back().kind == "legacy")
        {
            // A Chrysalis output: its used row, in this milestone's range (see WriteOutputs).
            bytea *data = DatumGetByteaPP(SPI_getbinval(tuple, desc, 5, &isnull));
            const auto *bytes = reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(data));
            OutputRow used;
            used.output_id = known.back().output_id;
            used.fields.address = known.back().address;
            used.fields.amount = known.back().amount;
            used.data.assign(bytes, bytes + VARSIZE_ANY_EXHDR(data));
            used.chrysalis_type = used.data.empty() ? 0 : used.data[0];
            used.block_id = spenders[used.output_id];
            chrysalis_used_.push_back(std::move(used));
        }
    }
    return known;
}

void MilestoneWriter::WriteOutputs()
{
    if (rows_.outputs.empty() && chrysalis_used_.empty())
        return;
    // Outputs spent in this milestone, by the spending block.
    std::map<codec::OutputId, codec::BlockId> spent_here;
    for (const SpendRow &s : rows_.spends)
        spent_here.emplace(s.output_id, s.block_id);
    // Outputs bound for the unspent set that have an owner, for BookLateSpends.
    std::map<codec::OutputId, const OutputRow *> owned;
    OutputTableColumns tables(types_);
    const Statement &unspent_insert =
        Prepared(sql::kUnspentInsertAsOf) ? sql::kUnspentInsertAsOf : sql::kUnspentInsert;
    StatementColumns unspent(unspent_insert, types_);
    // The output locator rows, sorted as WriteSpends sorts its own: a milestone that spends
    // outputs of another being written at the same time takes the rows they share in the same
    // order (in creation and spend order, the two deadlocked now and then).
    std::map<codec::OutputId, int32> created;
    // Chain and foundry IDs recur across milestones: distinct and sorted, so that concurrent
    // milestones take the locator rows they share in one order.
    std::set<std::pair<codec::Hash32, int32>> chains;
    std::set<std::pair<codec::FoundryId, int32>> foundries;

    // Chrysalis outputs of earlier milestones spent here (found by WriteSpends).
    for (const OutputRow &used : chrysalis_used_)
        tables.AddChrysalisUsed(used, used.block_id);
    for (const OutputRow &o : rows_.outputs)
    {
        const codec::IndexedFields &f = o.fields;
        const char *table = NamesOf(o).table;
        if (!table || !tables.Add(o))
            continue;
        const int32 range = ranges_.Of(table);
        created[o.output_id] = range;
        if (f.kind == codec::OutputType::kAlias)
            chains.insert({*f.alias_id, range});
        else if (f.kind == codec::OutputType::kNft)
            chains.insert({*f.nft_id, range});
        else if (f.kind == codec::OutputType::kFoundry)
            foundries.insert({*f.foundry_id, range});
        if (auto spender = spent_here.find(o.output_id); spender != spent_here.end())
        {
            if (o.chrysalis_type)
                tables.AddChrysalisUsed(o, spender->second);
            continue;
        }
        if (f.address)
            owned.emplace(o.output_id, &o);
        AddUnspentOutput(unspent, o);
    }

    // Each output table, in its range (the statement is named after its table).
    for (const StatementColumns &table : tables.Tables())
        if (table.Rows() > 0)
        {
            Params params = InRange(ranges_.Of(table.Of().name));
            Execute(table.Of(), table.Bind(params));
        }

    // A Chrysalis milestone creates Chrysalis outputs only, located for legacy_outputs too.
    StatementColumns locate(rows_.protocol_version == kChrysalisProtocol ? sql::kLocateChrysalis
                                                                         : sql::kLocateCreated,
                            types_),
        chain(sql::kChainLocator, types_), foundry(sql::kFoundryLocator, types_);
    for (const auto &[output_id, range] : created)
    {
        AddOutputId(locate["output_id"], output_id);
        locate["ms_range_id"].AddInt32(range);
    }
    for (const auto &[chain_id, range] : chains)
    {
        chain["chain_id"].AddFixed(chain_id.data());
        chain["ms_range_id"].AddInt32(range);
    }
    for (const auto &[foundry_id, range] : foundries)
    {
        foundry["foundry_id"].AddFixed(foundry_id.data());
        foundry["ms_range_id"].AddInt32(range);
    }
    for (const StatementColumns *locator : {&locate, &chain, &foundry})
        if (locator->Rows() > 0)
        {
            Params params;
            Execute(locator->Of(), locator->Bind(params));
        }

    if (unspent.Rows() > 0)
    {
        RetireMigratedOutputs();
        Params params;
        params.SetInt32("milestone_index", milestone_index_)
            .SetTimestamp("ms_timestamp", ms_timestamp_);
        uint64 inserted = Execute(unspent_insert, unspent.Bind(params));
        // What the insert left out was spent already.
        for (uint64 i = 0; i < inserted; ++i)
            owned.erase(OutputIdAt(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
        if (!owned.empty())
        {
            for (const auto &[output_id, row] : owned)
                spent_before_.push_back(row);
            BookLateSpends(owned);
            WriteChrysalisUsedLate(owned);
        }
    }
}

// The Stardust genesis books the Chrysalis outputs unspent at the end of their era again, as
// basic outputs under the same IDs: they leave the unspent set as Chrysalis outputs (not spent:
// their legacy_outputs rows stay unused) to enter it as Stardust ones. (output_locator keeps
// both creations: legacy_ms_range_id.)
void MilestoneWriter::RetireMigratedOutputs()
{
    if (rows_.protocol_version != kStardustProtocol || !Prepared(sql::kRetireMigrated))
        return;
    ArrayColumn ids = OutputIds();
    for (const OutputRow &o : rows_.outputs)
        if (o.from_snapshot)
            AddOutputId(ids, o.output_id);
    if (ids.Count() == 0)
        return;
    if (Prepared(sql::kRetireMigratedAsOf))
        Execute(sql::kRetireMigratedAsOf,
                Params().Set("output_id", ids).SetInt32("milestone_index", milestone_index_));
    else
        Execute(sql::kRetireMigrated, Params().Set("output_id", ids));
}

void MilestoneWriter::WriteChrysalisUsedLate(
    const std::map<codec::OutputId, const OutputRow *> &outputs)
{
    StatementColumns late(sql::kChrysalisUsedLate, types_);
    for (const auto &[output_id, row] : outputs)
    {
        if (!row->chrysalis_type)
            continue;
        AddOutputId(late["output_id"], output_id);
        late["output_type"].AddInt16(*row->chrysalis_type);
        late["amount"].AddInt64(Amount(row->fields.amount));
        AddAddress(late["address"], row->fields.address);
        late["data"].AddBytes(row->data.data(), row->data.size());
    }
    if (late.Rows() > 0)
    {
        Params params;
        Execute(late.Of(), late.Bind(params));
    }
}

// A milestone that spent one of these outputs committed before this one created it, so it could
// not tell whose tokens it spent (milestones commit out of order). Its analytics get them now,
// as if the milestones had come in order.
void MilestoneWriter::BookLateSpends(const std::map<codec::OutputId, const OutputRow *> &outputs)
{
    ArrayColumn ids = OutputIds(), addresses = Addresses(), amounts = Int8s();
    for (const auto &[output_id, row] : outputs)
    {
        AddOutputId(ids, output_id);
        AddAddress(addresses, row->fields.address);
        amounts.AddInt64(Amount(row->fields.amount));
    }
    uint64 booked =
        Execute(sql::kLateSpends,
                Params().Set("output_id", ids).Set("owner", addresses).Set("amount", amounts));
    for (uint64 i = 0; i < booked; ++i)
    {
        HeapTuple tuple = SPI_tuptable->vals[i];
        TupleDesc desc = SPI_tuptable->tupdesc;
        bool isnull = false;
        LateSpend late;
        late.owner = *AddressAt(tuple, desc, 1);
        late.range = DatumGetInt32(SPI_getbinval(tuple, desc, 2, &isnull));
        late.inserted = DatumGetBool(SPI_getbinval(tuple, desc, 3, &isnull));
        late.spent_at = DatumGetTimestampTz(SPI_getbinval(tuple, desc, 4, &isnull));
        late_spends_.push_back(late);
    }
}

void MilestoneWriter::WriteHints(const MilestoneAnalytics &analytics)
{
    {
        // A parent in this cone has its children in its own range, which the children lookup
        // takes from block_locator (while parents and messages share a chunk size): most blocks
        // are approved from inside their own cone, so few parents need a hint row. Distinct and
        // sorted: concurrent milestones take the rows they share in one order.
        const int32 parents_range = ranges_.Of("parents");
        std::set<codec::BlockId> cone;
        if (parents_range == ranges_.Of("messages"))
            for (const MessageRow &m : rows_.messages)
                cone.insert(m.block_id);
        std::set<codec::BlockId> distinct_parents;
        for (const MessageRow &m : rows_.messages)
            for (const codec::BlockId &parent : m.parents)
                if (cone.count(parent) == 0)
                    distinct_parents.insert(parent);
        ArrayColumn hint_ids = Hashes();
        for (const codec::BlockId &parent : distinct_parents)
            hint_ids.AddFixed(parent.data());
        if (hint_ids.Count() > 0)
        {
            Execute(sql::kParentHints,
                    Params().Set("parent_id", hint_ids).SetInt32("ms_range_id", parents_range));
        }
    }
    // Address and tag hints: a row per key of this milestone's rows (for the analytics, its
    // address_analytics rows, and the new rows of late spends), unless this backend knows the
    // row is committed.
    CallPg([] { CheckHintTables(); });
    HintRows<AddressHintKey> address_rows;
    KnownHints<AddressHintKey> &known_addresses = KnownAddressHints();
    for (const AddressHint &hint : OutputAddressHints(rows_))
        known_addresses.Add({hint.address, hint.output_kind, hint.variant, ranges_.Of(hint.table)},
                            address_rows);
    // The used rows of Chrysalis outputs created elsewhere, in this milestone's range.
    for (const OutputRow &used : chrysalis_used_)
        if (used.fields.address)
            known_addresses.Add(
                {*used.fields.address, "legacy", "address", ranges_.Of("legacy_outputs")},
                address_rows);
    const int32 analytics_range = ranges_.Of("address_analytics");
    for (const AddressFlow &flow : analytics.addresses)
        known_addresses.Add({flow.address, "analytics", "address", analytics_range}, address_rows);
    for (const LateSpend &late : late_spends_)
        if (late.inserted)
            known_addresses.Add({late.owner, "analytics", "address", late.range}, address_rows);
    HintRows<TagHintKey> tag_rows;
    KnownHints<TagHintKey> &known_tags = KnownTagHints();
    for (const TagHint &hint : TagHints(rows_))
        known_tags.Add({hint.tag, hint.table_kind, ranges_.Of(hint.table)}, tag_rows);
    WriteHintRows(types_, address_rows, tag_rows);
}

void MilestoneWriter::WriteAnalytics(const MilestoneAnalytics &analytics)
{
    {
        Execute(sql::kMsAnalytics,
                Params()
                    .SetInt32("ms_range_id", ranges_.Of("ms_analytics"))
                    .SetInt32("milestone_index", milestone_index_)
                    .SetInt32("message_count", static_cast<int32>(rows_.messages.size()))
                    .SetInt32("transaction_count", static_cast<int32>(rows_.included_transactions))
                    .SetInt64("transferred_tokens", Amount(rows_.transferred_tokens)));
    }
    if (!analytics.addresses.empty())
    {
        ArrayColumn addresses = Addresses(), sent = Int8s(), received = Int8s();
        for (const AddressFlow &flow : analytics.addresses)
        {
            AddAddress(addresses, flow.address);
            sent.AddInt64(Amount(flow.sent_tokens));
            received.AddInt64(Amount(flow.recv_tokens));
        }
        Execute(sql::kAddressAnalytics,
                Params()
                    .Set("address", addresses)
                    .Set("sent_tokens", sent)
                    .Set("recv_tokens", received)
                    .SetInt32("milestone_index", milestone_index_)
                    .SetInt32("ms_range_id", ranges_.Of("address_analytics")));
    }
}

void MilestoneWriter::WriteDailyMetrics(const MilestoneAnalytics &analytics)
{
    struct MetricRow
    {
        const char *variant;
        const char *name;
        std::optional<codec::Address> address;
        std::optional<codec::Bytes> tag;
        TimestampTz at;
    };
    // By the rows' key (day, variant, metric, value), so that concurrent milestones insert the
    // rows they share in one order.
    std::map<MetricKey, MetricRow> rows;
    // Rows this backend knows are committed are not sent again (see metrics_seen.hpp).
    auto metric = [&](const char *variant, const char *name,
                      const std::optional<codec::Address> &address,
                      const std::optional<codec::Bytes> &tag, TimestampTz at)
    {
        MetricKey key;
        if (address)
        {
            codec::AddressBytes bytes = codec::ToBytes(*address);
            key = MakeMetricKey(at, variant, name, bytes.data(), bytes.size());
        }
        else
            key = MakeMetricKey(at, variant, name, tag->data(), tag->size());
        if (MetricKnown(key))
            return;
        rows.emplace(key, MetricRow{variant, name, address, tag, at});
        NoteMetric(std::move(key));
    };
    for (const AddressFlow &flow : analytics.addresses)
    {
        if (flow.sent)
            metric("address", "sent", flow.address, std::nullopt, ms_timestamp_);
        if (flow.received)
            metric("address", "received", flow.address, std::nullopt, ms_timestamp_);
        metric("address", "sent_or_received", flow.address, std::nullopt, ms_timestamp_);
    }
    // A late spend counts on the day of the milestone that spent.
    for (const LateSpend &late : late_spends_)
    {
        metric("address", "sent", late.owner, std::nullopt, late.spent_at);
        metric("address", "sent_or_received", late.owner, std::nullopt, late.spent_at);
    }
    for (const codec::Bytes &tag : analytics.tags)
        metric("index", "used", std::nullopt, tag, ms_timestamp_);
    if (!rows.empty())
    {
        ArrayColumn metric_variants = Texts(), metrics = Texts(), metric_addresses = Addresses(),
                    metric_tags = Byteas(), metric_times = Timestamps();
        for (const auto &[key, row] : rows)
        {
            metric_variants.AddText(row.variant);
            metrics.AddText(row.name);
            AddAddress(metric_addresses, row.address);
            AddBytes(metric_tags, row.tag);
            metric_times.AddInt64(row.at);
        }
        Execute(sql::kMetrics, Params()
                                   .Set("variant", metric_variants)
                                   .Set("metric", metrics)
                                   .Set("address", metric_addresses)
                                   .Set("tag", metric_tags)
                                   .Set("at", metric_times));
    }

    Execute(sql::kDateCache, Params()
                                 .SetInt32("milestone_index", milestone_index_)
                                 .SetTimestamp("ms_timestamp", ms_timestamp_));
}

void MilestoneWriter::WriteStream(const std::vector<KnownOutput> &spent)
{
    // A schema older than 0.8.0, or no ledger stream: nothing to gather.
    if (!Prepared(sql::kStreamLedgerOn) || Execute(sql::kStreamLedgerOn, Params()) == 0)
        return;
    // One row per event: a milestone's (milestone_id, confirmed_index), or an output's.
    StatementColumns events(sql::kStreamLedger, types_);
    for (const MilestoneRow &m : rows_.milestones)
    {
        events["event"].AddText("milestone");
        events["milestone_id"].AddFixed(m.milestone_id.data());
        events["confirmed_index"].AddInt32(static_cast<int32>(m.index));
        for (const char *column : {"output_id", "output_kind", "address", "amount", "tag"})
            events[column].AddNull();
    }
    auto add = [&](const char *event, const codec::OutputId &id, const char *kind,
                   const std::optional<codec::Address> &address, std::uint64_t amount,
                   const std::optional<codec::Bytes> &tag)
    {
        events["event"].AddText(event);
        events["milestone_id"].AddNull();
        events["confirmed_index"].AddNull();
        AddOutputId(events["output_id"], id);
        events["output_kind"].AddText(kind);
        AddAddress(events["address"], address);
        events["amount"].AddInt64(Amount(amount));
        AddBytes(events["tag"], tag);
    };
    std::set<codec::OutputId> spent_here;
    for (const SpendRow &s : rows_.spends)
        spent_here.insert(s.output_id);
    for (const OutputRow &o : rows_.outputs)
        if (const char *kind = NamesOf(o).unspent_kind)
            add("created", o.output_id, kind, o.fields.address, o.fields.amount, o.fields.tag);
    // Spent: outputs of earlier milestones (from the unspent set), then outputs this milestone
    // both created and spent (never in the unspent set).
    for (const KnownOutput &k : spent)
        add("spent", k.output_id, k.kind.c_str(), k.address, k.amount, k.tag);
    for (const OutputRow &o : rows_.outputs)
        if (const char *kind = NamesOf(o).unspent_kind; kind && spent_here.count(o.output_id))
            add("spent", o.output_id, kind, o.fields.address, o.fields.amount, o.fields.tag);
    // Spent by a milestone ingested before this one (out of order): appended now, with the
    // spending milestone (append_ledger looks it up).
    for (const OutputRow *o : spent_before_)
        add("spent_before", o->output_id, NamesOf(*o).unspent_kind, o->fields.address,
            o->fields.amount, o->fields.tag);
    Params params;
    params.SetInt32("milestone_index", milestone_index_)
        .SetTimestamp("ms_timestamp", ms_timestamp_);
    Execute(sql::kStreamLedger, events.Bind(params));
}

void MilestoneWriter::WriteSync()
{
    if (Prepared(sql::kMilestoneProtocol)) // absent from schemas older than 0.5.0
        Execute(sql::kMilestoneProtocol, Params()
                                             .SetInt32("milestone_index", milestone_index_)
                                             .SetInt16("protocol_version", rows_.protocol_version));
    Execute(sql::kSync, Params()
                            .SetInt32("ms_range_id", ranges_.Of("sync"))
                            .SetInt32("milestone_index", milestone_index_));
}

} // namespace permanode::ledger
