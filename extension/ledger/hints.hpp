// Partition hints of a milestone's rows: which (address, output kind, variant) and (tag, table
// kind) keys its output and tag rows hold, so that lookups touch only the ranges holding a key.
// Free of PostgreSQL.
#pragma once

#include "codec/address.hpp"
#include "ledger/derive.hpp"

#include <cstdint>
#include <vector>

namespace permanode::ledger
{

// A row of addresses_hints, without its range: `table` names the ledger table whose chunk size
// gives the range.
struct AddressHint
{
    codec::Address address;
    const char *output_kind = ""; // extended (basic), alias, foundry, nft, analytics
    const char *variant = "";     // address, sender, issuer, state_controller, governor, ...
    const char *table = "";
    bool operator<(const AddressHint &o) const;
    bool operator==(const AddressHint &o) const;
};

// A row of tag_hints, without its range.
struct TagHint
{
    codec::Bytes tag;
    const char *table_kind = ""; // message, basic_output, nft_output
    const char *table = "";
    bool operator<(const TagHint &o) const;
    bool operator==(const TagHint &o) const;
};

// The names of an output kind in the ledger: its table, its output_kind in addresses_hints and
// in the unspent set; all nullptr for a kind without a table (a treasury output).
struct OutputKindNames
{
    const char *table = nullptr;
    const char *hint_kind = nullptr;
    const char *unspent_kind = nullptr;
};
OutputKindNames NamesOf(codec::OutputType kind);
// The names of an output row's kind: a Chrysalis output's are legacy_outputs and "legacy".
OutputKindNames NamesOf(const OutputRow &row);
// The ledger table an output of this kind is stored in (nullptr for a treasury output).
const char *OutputTable(codec::OutputType kind);

// Distinct address hints of the booked outputs.
std::vector<AddressHint> OutputAddressHints(const MilestoneRows &rows);
// Distinct tag hints of the blocks' tags and of the booked outputs' tag features.
std::vector<TagHint> TagHints(const MilestoneRows &rows);

} // namespace permanode::ledger
