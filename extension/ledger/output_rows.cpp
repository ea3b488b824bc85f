/*
 * output_rows.cpp
 *	  See output_rows.hpp. Each function fills the columns its statement names, in any order; a
 *	  column the statement lacks, or one left short, is an internal error (columns.hpp).
 */
#include "ledger/output_rows.hpp"

#include "codec/hex.hpp"
#include "ledger/hints.hpp"
#include "pgcpp/guard.hpp"

namespace permanode::ledger
{
namespace
{

using permanode::pg::PgError;

// The columns every output table and the unspent set have, under the same names.
void AddShared(StatementColumns &c, const OutputRow &o)
{
    AddOutputId(c["output_id"], o.output_id);
    c["data"].AddBytes(o.data.data(), o.data.size());
    c["amount"].AddInt64(Amount(o.fields.amount));
    c["message_id"].AddFixed(o.block_id.data());
    c["native_token_count"].AddInt16(static_cast<int16>(o.fields.native_token_count));
}

// The owner, unlock conditions and features of basic and NFT outputs (the unspent set has them
// for every kind).
void AddConditions(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    AddAddress(c["address"], f.address);
    AddAddress(c["sender"], f.sender);
    AddBytes(c["tag"], f.tag);
    AddAddress(c["dust_return_address"], f.storage_deposit_return_address);
    AddOptionalAmount(c["dust_return_amount"], f.storage_deposit_return_amount);
    AddTime(c["timelock"], f.timelock);
    AddTime(c["expiration"], f.expiration);
    AddAddress(c["expiration_return_address"], f.expiration_return_address);
}

void AddBasic(StatementColumns &c, const OutputRow &o)
{
    AddShared(c, o);
    AddConditions(c, o);
    AddSenderType(c["sender_type"], o.fields.sender);
}

void AddAlias(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    const auto &alias = std::get<codec::AliasOutput>(o.output);
    AddShared(c, o);
    c["alias_id"].AddFixed(f.alias_id->data());
    AddAddress(c["sender"], f.sender);
    AddAddress(c["issuer"], f.issuer);
    AddAddress(c["state_controller"], f.state_controller);
    AddAddress(c["governor"], f.governor);
    c["state_index"].AddInt64(alias.state_index);
    c["foundry_counter"].AddInt64(alias.foundry_counter);
}

void AddFoundry(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    if (!f.foundry_id)
        throw PgError(ERRCODE_DATA_EXCEPTION, "foundry output " +
                                                  codec::ToHex(codec::ToBytes(o.output_id)) +
                                                  " has no immutable alias address");
    AddShared(c, o);
    c["foundry_id"].AddFixed(f.foundry_id->data());
    AddAddress(c["address"], f.address);
}

void AddNft(StatementColumns &c, const OutputRow &o)
{
    AddShared(c, o);
    AddConditions(c, o);
    c["nft_id"].AddFixed(o.fields.nft_id->data());
    AddAddress(c["issuer"], o.fields.issuer);
}

// A Chrysalis output's row: created (is_used false, by its creating message) or used (by the
// spending message).
void AddChrysalis(StatementColumns &c, const OutputRow &o, bool is_used,
                  const codec::BlockId &message)
{
    AddOutputId(c["output_id"], o.output_id);
    c["output_type"].AddInt16(*o.chrysalis_type);
    c["is_used"].AddInt16(is_used ? 1 : 0);
    c["message_id"].AddFixed(message.data());
    c["amount"].AddInt64(Amount(o.fields.amount));
    AddAddress(c["address"], o.fields.address);
    c["data"].AddBytes(o.data.data(), o.data.size());
}

} // namespace

OutputTableColumns::OutputTableColumns(const TypeOids &types)
    : tables_{
          StatementColumns(sql::kBasicOutputs, types), StatementColumns(sql::kAliasOutputs, types),
          StatementColumns(sql::kFoundryOutputs, types), StatementColumns(sql::kNftOutputs, types),
          StatementColumns(sql::kChrysalisOutputs, types)}
{
}

bool OutputTableColumns::Add(const OutputRow &output)
{
    if (output.chrysalis_type)
    {
        AddChrysalis(tables_[4], output, false, output.block_id);
        return true;
    }
    switch (output.fields.kind)
    {
        case codec::OutputType::kBasic:
            AddBasic(tables_[0], output);
            return true;
        case codec::OutputType::kAlias:
            AddAlias(tables_[1], output);
            return true;
        case codec::OutputType::kFoundry:
            AddFoundry(tables_[2], output);
            return true;
        case codec::OutputType::kNft:
            AddNft(tables_[3], output);
            return true;
        default:
            return false;
    }
}

void OutputTableColumns::AddChrysalisUsed(const OutputRow &output, const codec::BlockId &spender)
{
    AddChrysalis(tables_[4], output, true, spender);
}

void AddUnspentOutput(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    AddShared(c, o);
    AddConditions(c, o);
    c["output_kind"].AddText(NamesOf(o).unspent_kind);
    AddAddress(c["issuer"], f.issuer);
    AddAddress(c["state_controller"], f.state_controller);
    AddAddress(c["governor"], f.governor);
    if (f.kind == codec::OutputType::kAlias)
        c["chain_id"].AddFixed(f.alias_id->data());
    else if (f.kind == codec::OutputType::kNft)
        c["chain_id"].AddFixed(f.nft_id->data());
    else
        c["chain_id"].AddNull();
    if (f.foundry_id)
        c["foundry_id"].AddFixed(f.foundry_id->data());
    else
        c["foundry_id"].AddNull();
}

} // namespace permanode::ledger
