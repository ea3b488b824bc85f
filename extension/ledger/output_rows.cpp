/*
 * output_rows.cpp
 *	  See output_rows.hpp. Each function fills the columns its statement names; a column the
 *	  statement lacks is an internal error, and a column left short fails the insert (unnest of
 *	  arrays of different lengths pads with NULL into NOT NULL columns).
 */
#include "ledger/output_rows.hpp"

#include "codec/hex.hpp"
#include "pgcpp/guard.hpp"

namespace permanode::ledger
{
namespace
{

using permanode::pg::PgError;

void AddBasic(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    AddOutputId(c["output_id"], o.output_id);
    AddAddress(c["address"], f.address);
    AddAddress(c["sender"], f.sender);
    AddSenderType(c["sender_type"], f.sender);
    AddBytes(c["tag"], f.tag);
    c["data"].AddBytes(o.data.data(), o.data.size());
    c["amount"].AddInt64(Amount(f.amount));
    c["message_id"].AddFixed(o.block_id.data());
    c["native_token_count"].AddInt16(static_cast<int16>(f.native_token_count));
    AddAddress(c["dust_return_address"], f.storage_deposit_return_address);
    AddOptionalAmount(c["dust_return_amount"], f.storage_deposit_return_amount);
    AddTime(c["timelock"], f.timelock);
    AddTime(c["expiration"], f.expiration);
    AddAddress(c["expiration_return_address"], f.expiration_return_address);
}

void AddAlias(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    const auto &alias = std::get<codec::AliasOutput>(o.output);
    c["alias_id"].AddFixed(f.alias_id->data());
    AddAddress(c["sender"], f.sender);
    AddAddress(c["issuer"], f.issuer);
    AddAddress(c["state_controller"], f.state_controller);
    AddAddress(c["governor"], f.governor);
    c["data"].AddBytes(o.data.data(), o.data.size());
    AddOutputId(c["output_id"], o.output_id);
    c["amount"].AddInt64(Amount(f.amount));
    c["message_id"].AddFixed(o.block_id.data());
    c["state_index"].AddInt64(alias.state_index);
    c["foundry_counter"].AddInt64(alias.foundry_counter);
    c["native_token_count"].AddInt16(static_cast<int16>(f.native_token_count));
}

void AddFoundry(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    if (!f.foundry_id)
        throw PgError(ERRCODE_DATA_EXCEPTION, "foundry output " +
                                                  codec::ToHex(codec::ToBytes(o.output_id)) +
                                                  " has no immutable alias address");
    c["foundry_id"].AddFixed(f.foundry_id->data());
    AddAddress(c["address"], f.address);
    c["data"].AddBytes(o.data.data(), o.data.size());
    AddOutputId(c["output_id"], o.output_id);
    c["amount"].AddInt64(Amount(f.amount));
    c["message_id"].AddFixed(o.block_id.data());
    c["native_token_count"].AddInt16(static_cast<int16>(f.native_token_count));
}

void AddNft(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    c["nft_id"].AddFixed(f.nft_id->data());
    AddAddress(c["address"], f.address);
    AddAddress(c["dust_return_address"], f.storage_deposit_return_address);
    AddAddress(c["sender"], f.sender);
    AddAddress(c["issuer"], f.issuer);
    AddBytes(c["tag"], f.tag);
    c["data"].AddBytes(o.data.data(), o.data.size());
    AddOutputId(c["output_id"], o.output_id);
    c["amount"].AddInt64(Amount(f.amount));
    c["message_id"].AddFixed(o.block_id.data());
    c["native_token_count"].AddInt16(static_cast<int16>(f.native_token_count));
    AddOptionalAmount(c["dust_return_amount"], f.storage_deposit_return_amount);
    AddTime(c["timelock"], f.timelock);
    AddTime(c["expiration"], f.expiration);
    AddAddress(c["expiration_return_address"], f.expiration_return_address);
}

// The unspent set's output_kind.
const char *UnspentKind(codec::OutputType kind)
{
    switch (kind)
    {
        case codec::OutputType::kAlias:
            return "alias";
        case codec::OutputType::kFoundry:
            return "foundry";
        case codec::OutputType::kNft:
            return "nft";
        default:
            return "basic";
    }
}

} // namespace

OutputTableColumns::OutputTableColumns(const TypeOids &types)
    : tables_{
          StatementColumns(sql::kBasicOutputs, types), StatementColumns(sql::kAliasOutputs, types),
          StatementColumns(sql::kFoundryOutputs, types), StatementColumns(sql::kNftOutputs, types)}
{
}

bool OutputTableColumns::Add(const OutputRow &output)
{
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

void AddUnspentOutput(StatementColumns &c, const OutputRow &o)
{
    const codec::IndexedFields &f = o.fields;
    AddOutputId(c["output_id"], o.output_id);
    c["output_kind"].AddText(UnspentKind(f.kind));
    c["amount"].AddInt64(Amount(f.amount));
    AddAddress(c["address"], f.address);
    AddAddress(c["sender"], f.sender);
    AddAddress(c["issuer"], f.issuer);
    AddBytes(c["tag"], f.tag);
    AddAddress(c["state_controller"], f.state_controller);
    AddAddress(c["governor"], f.governor);
    AddAddress(c["dust_return_address"], f.storage_deposit_return_address);
    AddOptionalAmount(c["dust_return_amount"], f.storage_deposit_return_amount);
    AddTime(c["timelock"], f.timelock);
    AddTime(c["expiration"], f.expiration);
    AddAddress(c["expiration_return_address"], f.expiration_return_address);
    c["native_token_count"].AddInt16(static_cast<int16>(f.native_token_count));
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
    c["message_id"].AddFixed(o.block_id.data());
    c["data"].AddBytes(o.data.data(), o.data.size());
}

} // namespace permanode::ledger
