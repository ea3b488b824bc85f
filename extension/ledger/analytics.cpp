#include "ledger/analytics.hpp"

#include <map>
#include <set>

namespace permanode::ledger
{

MilestoneAnalytics DeriveAnalytics(const MilestoneRows &rows,
                                   const std::vector<KnownOutput> &consumed_known)
{
    std::map<codec::Address, AddressFlow> flows;
    auto flow = [&flows](const codec::Address &address) -> AddressFlow &
    {
        AddressFlow &f = flows[address];
        f.address = address;
        return f;
    };

    // Owners of the outputs this milestone created, for spends inside the same milestone.
    std::map<codec::OutputId, const OutputRow *> created;
    for (const OutputRow &row : rows.outputs)
    {
        created.emplace(row.output_id, &row);
        if (row.from_snapshot || !row.fields.address)
            continue;
        AddressFlow &f = flow(*row.fields.address);
        f.recv_tokens += row.fields.amount;
        f.received = true;
    }

    std::map<codec::OutputId, const KnownOutput *> known;
    for (const KnownOutput &output : consumed_known)
        known.emplace(output.output_id, &output);
    for (const SpendRow &spend : rows.spends)
    {
        std::optional<codec::Address> owner;
        std::uint64_t amount = 0;
        if (auto it = created.find(spend.output_id); it != created.end())
        {
            owner = it->second->fields.address;
            amount = it->second->fields.amount;
        }
        else if (auto k = known.find(spend.output_id); k != known.end())
        {
            owner = k->second->address;
            amount = k->second->amount;
        }
        if (!owner)
            continue;
        AddressFlow &f = flow(*owner);
        f.sent_tokens += amount;
        f.sent = true;
    }

    MilestoneAnalytics analytics;
    analytics.addresses.reserve(flows.size());
    for (auto &entry : flows)
        analytics.addresses.push_back(entry.second);
    std::set<codec::Bytes> tags;
    for (const MessageRow &message : rows.messages)
        if (message.tag)
            tags.insert(*message.tag);
    analytics.tags.assign(tags.begin(), tags.end());
    return analytics;
}

} // namespace permanode::ledger
