#include "ledger/hints.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace permanode::ledger
{
namespace
{

// The hint strings are literals of this file, so comparing their text orders them stably.
int Compare(const char *a, const char *b)
{
    return std::strcmp(a, b);
}

// Sorts the hints and drops repeated ones.
template <typename T> void SortUnique(std::vector<T> &items)
{
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
}

} // namespace

bool AddressHint::operator<(const AddressHint &o) const
{
    if (address != o.address)
        return address < o.address;
    if (int c = Compare(output_kind, o.output_kind))
        return c < 0;
    return Compare(variant, o.variant) < 0;
}

bool AddressHint::operator==(const AddressHint &o) const
{
    return address == o.address && Compare(output_kind, o.output_kind) == 0 &&
           Compare(variant, o.variant) == 0;
}

bool TagHint::operator<(const TagHint &o) const
{
    if (tag != o.tag)
        return tag < o.tag;
    return Compare(table_kind, o.table_kind) < 0;
}

bool TagHint::operator==(const TagHint &o) const
{
    return tag == o.tag && Compare(table_kind, o.table_kind) == 0;
}

OutputKindNames NamesOf(codec::OutputType kind)
{
    switch (kind)
    {
        case codec::OutputType::kBasic:
            return {"basic_outputs", "extended", "basic"}; // "extended": the seed's name
        case codec::OutputType::kAlias:
            return {"alias_outputs", "alias", "alias"};
        case codec::OutputType::kFoundry:
            return {"foundry_outputs", "foundry", "foundry"};
        case codec::OutputType::kNft:
            return {"nft_outputs", "nft", "nft"};
        default:
            return {};
    }
}

OutputKindNames NamesOf(const OutputRow &row)
{
    if (row.chrysalis_type)
        return {"legacy_outputs", "legacy", "legacy"};
    return NamesOf(row.fields.kind);
}

const char *OutputTable(codec::OutputType kind)
{
    return NamesOf(kind).table;
}

std::vector<AddressHint> OutputAddressHints(const MilestoneRows &rows)
{
    std::vector<AddressHint> hints;
    for (const OutputRow &row : rows.outputs)
    {
        const codec::IndexedFields &f = row.fields;
        const OutputKindNames names = NamesOf(row);
        const char *kind = names.hint_kind;
        const char *table = names.table;
        if (!kind)
            continue;
        if (row.chrysalis_type) // a Chrysalis output has its owner only
        {
            hints.push_back({*f.address, kind, "address", table});
            continue;
        }
        auto add = [&](const std::optional<codec::Address> &address, const char *variant)
        {
            if (address)
                hints.push_back({*address, kind, variant, table});
        };
        // Only the columns each output table has (an alias keeps its owner as state_controller).
        if (f.kind != codec::OutputType::kAlias)
            add(f.address, "address");
        if (f.kind == codec::OutputType::kFoundry)
            continue;
        add(f.sender, "sender");
        if (f.kind != codec::OutputType::kBasic)
            add(f.issuer, "issuer");
        if (f.kind == codec::OutputType::kAlias)
        {
            add(f.state_controller, "state_controller");
            add(f.governor, "governor");
        }
        else
        {
            add(f.storage_deposit_return_address, "dust_return_address");
        }
    }
    SortUnique(hints);
    return hints;
}

std::vector<TagHint> TagHints(const MilestoneRows &rows)
{
    std::vector<TagHint> hints;
    for (const MessageRow &message : rows.messages)
        if (message.tag)
            hints.push_back({*message.tag, "message", "tags"});
    for (const OutputRow &row : rows.outputs)
    {
        if (!row.fields.tag)
            continue;
        if (row.fields.kind == codec::OutputType::kBasic)
            hints.push_back({*row.fields.tag, "basic_output", "basic_outputs"});
        else if (row.fields.kind == codec::OutputType::kNft)
            hints.push_back({*row.fields.tag, "nft_output", "nft_outputs"});
    }
    SortUnique(hints);
    return hints;
}

} // namespace permanode::ledger
