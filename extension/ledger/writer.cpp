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

constexpr std::size_t kHashLength = 32;
constexpr std::size_t kOutputIdLength = 34;
constexpr std::size_t kAddressLength = 33;
constexpr std::size_t kFoundryIdLength = 38;

ArrayColumn Int2s()
{
    return ArrayColumn(INT2OID, 2, TYPALIGN_SHORT);
}
ArrayColumn Int4s()
{
    return ArrayColumn(INT4OID, 4, TYPALIGN_INT);
}
ArrayColumn Int8s()
{
    return ArrayColumn(INT8OID, 8, TYPALIGN_DOUBLE);
}
ArrayColumn Timestamps()
{
    return ArrayColumn(TIMESTAMPTZOID, 8, TYPALIGN_DOUBLE);
}
ArrayColumn Byteas()
{
    return ArrayColumn(BYTEAOID, -1, TYPALIGN_INT);
}
ArrayColumn Texts()
{
    return ArrayColumn(TEXTOID, -1, TYPALIGN_INT);
}

TimestampTz FromUnix(std::uint32_t seconds)
{
    return (static_cast<TimestampTz>(seconds) -
            ((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)) *
           USECS_PER_SEC;
}

// Token amounts are u64 on the wire and bigint in SQL; no real supply comes near the limit.
int64 Amount(std::uint64_t amount)
{
    if (amount > static_cast<std::uint64_t>(std::numeric_limits<int64>::max()))
        throw PgError(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                      "token amount " + std::to_string(amount) + " is out of range for bigint");
    return static_cast<int64>(amount);
}

void AddOutputId(ArrayColumn &column, const codec::OutputId &output_id)
{
    codec::OutputIdBytes bytes = codec::ToBytes(output_id);
    column.AddFixed(bytes.data());
}

void AddAddress(ArrayColumn &column, const std::optional<codec::Address> &address)
{
    if (!address)
    {
        column.AddNull();
        return;
    }
    codec::AddressBytes bytes = codec::ToBytes(*address);
    column.AddFixed(bytes.data());
}

void AddBytes(ArrayColumn &column, const std::optional<codec::Bytes> &bytes)
{
    if (bytes)
        column.AddBytes(bytes->data(), bytes->size());
    else
        column.AddNull();
}

void AddTime(ArrayColumn &column, const std::optional<std::uint32_t> &unix_time)
{
    if (unix_time)
        column.AddInt64(FromUnix(*unix_time));
    else
        column.AddNull();
}

void AddOptionalAmount(ArrayColumn &column, const std::optional<std::uint64_t> &amount)
{
    if (amount)
        column.AddInt64(Amount(*amount));
    else
        column.AddNull();
}

// The sender's address type (the seed's sender_type column).
void AddSenderType(ArrayColumn &column, const std::optional<codec::Address> &sender)
{
    if (sender)
        column.AddInt16(static_cast<int16>(sender->type));
    else
        column.AddNull();
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
        ArrayColumn addresses(types.address, kAddressLength, TYPALIGN_CHAR),
            kinds = Texts(), variants = Texts(), ranges = Int4s();
        for (const AddressHintKey &key : address_rows)
        {
            AddAddress(addresses, key.address);
            kinds.AddText(key.output_kind);
            variants.AddText(key.variant);
            ranges.AddInt32(key.range);
        }
        Params params;
        for (const ArrayColumn *c : {&addresses, &kinds, &variants, &ranges})
            params.Add(*c);
        Execute(Statement::kAddressHints, params);
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
        Params params;
        for (const ArrayColumn *c : {&tags, &kinds, &ranges})
            params.Add(*c);
        Execute(Statement::kTagHints, params);
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
    Execute(Statement::kChunkSizes, Params());
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

ArrayColumn MilestoneWriter::Hashes() const
{
    return ArrayColumn(types_.hash32, kHashLength, TYPALIGN_CHAR);
}
ArrayColumn MilestoneWriter::OutputIds() const
{
    return ArrayColumn(types_.output_id, kOutputIdLength, TYPALIGN_CHAR);
}
ArrayColumn MilestoneWriter::Addresses() const
{
    return ArrayColumn(types_.address, kAddressLength, TYPALIGN_CHAR);
}
ArrayColumn MilestoneWriter::FoundryIds() const
{
    return ArrayColumn(types_.foundry_id, kFoundryIdLength, TYPALIGN_CHAR);
}

void MilestoneWriter::WriteBlocks()
{
    const int32 messages_range = ranges_.Of("messages");
    // messages, parents, tags and transactions are written without ON CONFLICT (its probe of the
    // unique index before each insert cost as much as the insert): the milestone lock and sync row
    // keep a milestone from being written twice, and a block repeated in the cone is written once
    // here. A block in the cones of two milestones is invalid input and fails on the unique key.
    std::set<codec::BlockId> seen;
    std::vector<bool> repeated(rows_.messages.size(), false);
    for (std::size_t i = 0; i < rows_.messages.size(); ++i)
        repeated[i] = !seen.insert(rows_.messages[i].block_id).second;
    {
        ArrayColumn ids = Hashes(), versions = Int2s(), raws = Byteas(), states = Int2s(),
                    reasons = Int2s(), wfis = Int4s(), variants = Texts(), from = Int4s(),
                    to = Int4s(), parents = Hashes();
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
        Params params;
        for (const ArrayColumn *c :
             {&ids, &versions, &raws, &states, &reasons, &wfis, &variants, &from, &to, &parents})
            params.Add(*c);
        params.AddInt32(milestone_index_);
        params.AddInt32(messages_range);
        params.AddTimestamp(ms_timestamp_);
        Execute(Statement::kMessages, params);

        Params locator;
        locator.Add(ids);
        locator.AddInt32(messages_range);
        Execute(Statement::kBlockLocator, locator);
    }
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
        Params params;
        params.Add(parent_ids);
        params.Add(children);
        params.Add(states);
        params.AddInt32(milestone_index_);
        params.AddInt32(ranges_.Of("parents"));
        params.AddTimestamp(ms_timestamp_);
        Execute(Statement::kParents, params);
    }
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
            Params params;
            params.Add(tags);
            params.Add(ids);
            params.Add(states);
            params.AddInt32(ranges_.Of("tags"));
            params.AddInt32(milestone_index_);
            params.AddTimestamp(ms_timestamp_);
            Execute(Statement::kTags, params);
        }
    }
    if (!rows_.transaction_parts.empty())
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
        Params params;
        for (const ArrayColumn *c : {&ids, &idxs, &variants, &messages, &data, &states})
            params.Add(*c);
        params.AddInt32(milestone_index_);
        params.AddInt32(range);
        params.AddTimestamp(ms_timestamp_);
        Execute(Statement::kTransactions, params);

        // Sorted: a transaction given in two milestones' cones takes its row in one order.
        std::set<codec::TransactionId> sorted_ids(rows_.transaction_ids.begin(),
                                                  rows_.transaction_ids.end());
        ArrayColumn transaction_ids = Hashes();
        for (const codec::TransactionId &id : sorted_ids)
            transaction_ids.AddFixed(id.data());
        Params locator;
        locator.Add(transaction_ids);
        locator.AddInt32(range);
        Execute(Statement::kTransactionLocator, locator);
    }
    if (!rows_.milestones.empty())
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
        Params params;
        for (const ArrayColumn *c : {&messages, &payloads, &ids, &indexes, &timestamps, &ranges})
            params.Add(*c);
        Execute(Statement::kMilestones, params);

        Params locator;
        locator.Add(ids);
        locator.Add(ranges);
        Execute(Statement::kMilestoneLocator, locator);
    }
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
    Params params;
    params.Add(output_ids);
    params.Add(transactions);
    params.Add(blocks);
    params.AddInt32(range);
    params.AddInt32(milestone_index_);
    params.AddTimestamp(ms_timestamp_);
    Execute(Statement::kSpentOutputs, params);

    // An upsert must not see one key twice; included transactions never spend an output twice,
    // but the cone is input, so make sure. Sorted, as WriteOutputs sorts the locator rows of the
    // outputs it creates: concurrent milestones take the rows they share in one order.
    std::set<codec::OutputId> distinct;
    for (const SpendRow &s : rows_.spends)
        distinct.insert(s.output_id);
    ArrayColumn distinct_ids = OutputIds();
    for (const codec::OutputId &output_id : distinct)
        AddOutputId(distinct_ids, output_id);
    Params locator;
    locator.Add(distinct_ids);
    locator.AddInt32(range);
    Execute(Statement::kLocateSpent, locator);

    Params spent;
    spent.Add(distinct_ids);
    uint64 deleted = Execute(Statement::kUnspentDelete, spent);
    known.reserve(deleted);
    for (uint64 i = 0; i < deleted; ++i)
    {
        HeapTuple tuple = SPI_tuptable->vals[i];
        TupleDesc desc = SPI_tuptable->tupdesc;
        bool isnull = false;
        Datum amount = SPI_getbinval(tuple, desc, 3, &isnull);
        known.push_back({OutputIdAt(tuple, desc, 1), AddressAt(tuple, desc, 2),
                         static_cast<std::uint64_t>(DatumGetInt64(amount))});
    }
    return known;
}

void MilestoneWriter::WriteOutputs()
{
    if (rows_.outputs.empty())
        return;
    std::set<codec::OutputId> spent_here;
    // Outputs bound for the unspent set that have an owner, for BookLateSpends.
    std::map<codec::OutputId, const OutputRow *> owned;
    for (const SpendRow &s : rows_.spends)
        spent_here.insert(s.output_id);

    ArrayColumn b_id = OutputIds(), b_address = Addresses(), b_sender = Addresses(),
                b_sender_type = Int2s(), b_tag = Byteas(), b_data = Byteas(), b_amount = Int8s(),
                b_message = Hashes(), b_tokens = Int2s(), b_return = Addresses(),
                b_return_amount = Int8s(), b_timelock = Timestamps(), b_expiration = Timestamps(),
                b_expiration_return = Addresses();
    ArrayColumn a_alias = Hashes(), a_sender = Addresses(), a_issuer = Addresses(),
                a_state = Addresses(), a_governor = Addresses(), a_data = Byteas(),
                a_id = OutputIds(), a_amount = Int8s(), a_message = Hashes(),
                a_state_index = Int8s(), a_foundry_counter = Int8s(), a_tokens = Int2s();
    ArrayColumn f_foundry = FoundryIds(), f_address = Addresses(), f_data = Byteas(),
                f_id = OutputIds(), f_amount = Int8s(), f_message = Hashes(), f_tokens = Int2s();
    ArrayColumn n_nft = Hashes(), n_address = Addresses(), n_return = Addresses(),
                n_sender = Addresses(), n_issuer = Addresses(), n_tag = Byteas(), n_data = Byteas(),
                n_id = OutputIds(), n_amount = Int8s(), n_message = Hashes(), n_tokens = Int2s(),
                n_return_amount = Int8s(), n_timelock = Timestamps(), n_expiration = Timestamps(),
                n_expiration_return = Addresses();
    // The output locator rows, sorted as WriteSpends sorts its own: a milestone that spends
    // outputs of another being written at the same time takes the rows they share in the same
    // order (in creation and spend order, the two deadlocked now and then).
    std::map<codec::OutputId, int32> created;
    // Chain and foundry IDs recur across milestones: distinct and sorted, so that concurrent
    // milestones take the locator rows they share in one order.
    std::set<std::pair<codec::Hash32, int32>> chains;
    std::set<std::pair<codec::FoundryId, int32>> foundries;
    ArrayColumn u_id = OutputIds(), u_kind = Texts(), u_amount = Int8s(), u_address = Addresses(),
                u_sender = Addresses(), u_issuer = Addresses(), u_tag = Byteas(),
                u_state = Addresses(), u_governor = Addresses(), u_return = Addresses(),
                u_return_amount = Int8s(), u_timelock = Timestamps(), u_expiration = Timestamps(),
                u_expiration_return = Addresses(), u_tokens = Int2s(), u_chain = Hashes(),
                u_foundry = FoundryIds(), u_message = Hashes(), u_data = Byteas();

    for (const OutputRow &o : rows_.outputs)
    {
        const codec::IndexedFields &f = o.fields;
        const char *table = OutputTable(f.kind);
        if (!table)
            continue;
        const int16 tokens = static_cast<int16>(f.native_token_count);
        const char *kind = "basic";
        std::optional<codec::Hash32> chain_id;
        switch (f.kind)
        {
            case codec::OutputType::kBasic:
                AddOutputId(b_id, o.output_id);
                AddAddress(b_address, f.address);
                AddAddress(b_sender, f.sender);
                AddSenderType(b_sender_type, f.sender);
                AddBytes(b_tag, f.tag);
                b_data.AddBytes(o.data.data(), o.data.size());
                b_amount.AddInt64(Amount(f.amount));
                b_message.AddFixed(o.block_id.data());
                b_tokens.AddInt16(tokens);
                AddAddress(b_return, f.storage_deposit_return_address);
                AddOptionalAmount(b_return_amount, f.storage_deposit_return_amount);
                AddTime(b_timelock, f.timelock);
                AddTime(b_expiration, f.expiration);
                AddAddress(b_expiration_return, f.expiration_return_address);
                break;
            case codec::OutputType::kAlias:
                kind = "alias";
                chain_id = *f.alias_id;
                a_alias.AddFixed(f.alias_id->data());
                AddAddress(a_sender, f.sender);
                AddAddress(a_issuer, f.issuer);
                AddAddress(a_state, f.state_controller);
                AddAddress(a_governor, f.governor);
                a_data.AddBytes(o.data.data(), o.data.size());
                AddOutputId(a_id, o.output_id);
                a_amount.AddInt64(Amount(f.amount));
                a_message.AddFixed(o.block_id.data());
                a_state_index.AddInt64(std::get<codec::AliasOutput>(o.output).state_index);
                a_foundry_counter.AddInt64(std::get<codec::AliasOutput>(o.output).foundry_counter);
                a_tokens.AddInt16(tokens);
                break;
            case codec::OutputType::kFoundry:
                kind = "foundry";
                if (!f.foundry_id)
                    throw PgError(ERRCODE_DATA_EXCEPTION,
                                  "foundry output " + codec::ToHex(codec::ToBytes(o.output_id)) +
                                      " has no immutable alias address");
                f_foundry.AddFixed(f.foundry_id->data());
                AddAddress(f_address, f.address);
                f_data.AddBytes(o.data.data(), o.data.size());
                AddOutputId(f_id, o.output_id);
                f_amount.AddInt64(Amount(f.amount));
                f_message.AddFixed(o.block_id.data());
                f_tokens.AddInt16(tokens);
                foundries.insert({*f.foundry_id, ranges_.Of(table)});
                break;
            case codec::OutputType::kNft:
                kind = "nft";
                chain_id = *f.nft_id;
                n_nft.AddFixed(f.nft_id->data());
                AddAddress(n_address, f.address);
                AddAddress(n_return, f.storage_deposit_return_address);
                AddAddress(n_sender, f.sender);
                AddAddress(n_issuer, f.issuer);
                AddBytes(n_tag, f.tag);
                n_data.AddBytes(o.data.data(), o.data.size());
                AddOutputId(n_id, o.output_id);
                n_amount.AddInt64(Amount(f.amount));
                n_message.AddFixed(o.block_id.data());
                n_tokens.AddInt16(tokens);
                AddOptionalAmount(n_return_amount, f.storage_deposit_return_amount);
                AddTime(n_timelock, f.timelock);
                AddTime(n_expiration, f.expiration);
                AddAddress(n_expiration_return, f.expiration_return_address);
                break;
            default:
                continue;
        }
        created[o.output_id] = ranges_.Of(table);
        if (chain_id)
            chains.insert({*chain_id, ranges_.Of(table)});
        if (spent_here.count(o.output_id))
            continue;
        if (f.address)
            owned.emplace(o.output_id, &o);
        AddOutputId(u_id, o.output_id);
        u_kind.AddText(kind);
        u_amount.AddInt64(Amount(f.amount));
        AddAddress(u_address, f.address);
        AddAddress(u_sender, f.sender);
        AddAddress(u_issuer, f.issuer);
        AddBytes(u_tag, f.tag);
        AddAddress(u_state, f.state_controller);
        AddAddress(u_governor, f.governor);
        AddAddress(u_return, f.storage_deposit_return_address);
        AddOptionalAmount(u_return_amount, f.storage_deposit_return_amount);
        AddTime(u_timelock, f.timelock);
        AddTime(u_expiration, f.expiration);
        AddAddress(u_expiration_return, f.expiration_return_address);
        u_tokens.AddInt16(tokens);
        if (chain_id)
            u_chain.AddFixed(chain_id->data());
        else
            u_chain.AddNull();
        if (f.foundry_id)
            u_foundry.AddFixed(f.foundry_id->data());
        else
            u_foundry.AddNull();
        u_message.AddFixed(o.block_id.data());
        u_data.AddBytes(o.data.data(), o.data.size());
    }

    // Each output table: its columns, then ms_range_id, milestone_index and ms_timestamp.
    auto write = [this](Statement statement, const char *table,
                        std::initializer_list<const ArrayColumn *> columns)
    {
        if ((*columns.begin())->Count() == 0)
            return;
        Params params;
        for (const ArrayColumn *c : columns)
            params.Add(*c);
        params.AddInt32(ranges_.Of(table));
        params.AddInt32(milestone_index_);
        params.AddTimestamp(ms_timestamp_);
        Execute(statement, params);
    };
    write(Statement::kBasicOutputs, "basic_outputs",
          {&b_id, &b_address, &b_sender, &b_sender_type, &b_tag, &b_data, &b_amount, &b_message,
           &b_tokens, &b_return, &b_return_amount, &b_timelock, &b_expiration,
           &b_expiration_return});
    write(Statement::kAliasOutputs, "alias_outputs",
          {&a_alias, &a_sender, &a_issuer, &a_state, &a_governor, &a_data, &a_id, &a_amount,
           &a_message, &a_state_index, &a_foundry_counter, &a_tokens});
    write(Statement::kFoundryOutputs, "foundry_outputs",
          {&f_foundry, &f_address, &f_data, &f_id, &f_amount, &f_message, &f_tokens});
    write(Statement::kNftOutputs, "nft_outputs",
          {&n_nft, &n_address, &n_return, &n_sender, &n_issuer, &n_tag, &n_data, &n_id, &n_amount,
           &n_message, &n_tokens, &n_return_amount, &n_timelock, &n_expiration,
           &n_expiration_return});

    auto pair = [](Statement statement, const ArrayColumn &keys, const ArrayColumn &ranges)
    {
        if (keys.Count() == 0)
            return;
        Params params;
        params.Add(keys);
        params.Add(ranges);
        Execute(statement, params);
    };
    ArrayColumn l_id = OutputIds(), l_range = Int4s();
    for (const auto &[output_id, range] : created)
    {
        AddOutputId(l_id, output_id);
        l_range.AddInt32(range);
    }
    ArrayColumn c_chain = Hashes(), c_range = Int4s();
    for (const auto &[chain, range] : chains)
    {
        c_chain.AddFixed(chain.data());
        c_range.AddInt32(range);
    }
    ArrayColumn fl_foundry = FoundryIds(), fl_range = Int4s();
    for (const auto &[foundry, range] : foundries)
    {
        fl_foundry.AddFixed(foundry.data());
        fl_range.AddInt32(range);
    }
    pair(Statement::kLocateCreated, l_id, l_range);
    pair(Statement::kChainLocator, c_chain, c_range);
    pair(Statement::kFoundryLocator, fl_foundry, fl_range);

    if (u_id.Count() > 0)
    {
        Params params;
        for (const ArrayColumn *c :
             {&u_id, &u_kind, &u_amount, &u_address, &u_sender, &u_issuer, &u_tag, &u_state,
              &u_governor, &u_return, &u_return_amount, &u_timelock, &u_expiration,
              &u_expiration_return, &u_tokens, &u_chain, &u_foundry, &u_message, &u_data})
            params.Add(*c);
        params.AddInt32(milestone_index_);
        params.AddTimestamp(ms_timestamp_);
        uint64 inserted = Execute(Statement::kUnspentInsert, params);
        // What the insert left out was spent already.
        for (uint64 i = 0; i < inserted; ++i)
            owned.erase(OutputIdAt(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
        if (!owned.empty())
            BookLateSpends(owned);
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
    Params params;
    params.Add(ids);
    params.Add(addresses);
    params.Add(amounts);
    uint64 booked = Execute(Statement::kLateSpends, params);
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
            Params hints;
            hints.Add(hint_ids);
            hints.AddInt32(parents_range);
            Execute(Statement::kParentHints, hints);
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
        Params params;
        params.AddInt32(ranges_.Of("ms_analytics"));
        params.AddInt32(milestone_index_);
        params.AddInt32(static_cast<int32>(rows_.messages.size()));
        params.AddInt32(static_cast<int32>(rows_.included_transactions));
        params.AddInt64(Amount(rows_.transferred_tokens));
        Execute(Statement::kMsAnalytics, params);
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
        Params params;
        params.Add(addresses);
        params.Add(sent);
        params.Add(received);
        params.AddInt32(milestone_index_);
        params.AddInt32(ranges_.Of("address_analytics"));
        Execute(Statement::kAddressAnalytics, params);
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
        Params params;
        for (const ArrayColumn *c :
             {&metric_variants, &metrics, &metric_addresses, &metric_tags, &metric_times})
            params.Add(*c);
        Execute(Statement::kMetrics, params);
    }

    Params date;
    date.AddInt32(milestone_index_);
    date.AddTimestamp(ms_timestamp_);
    Execute(Statement::kDateCache, date);
}

void MilestoneWriter::WriteSync()
{
    Params params;
    params.AddInt32(ranges_.Of("sync"));
    params.AddInt32(milestone_index_);
    Execute(Statement::kSync, params);
}

} // namespace permanode::ledger
