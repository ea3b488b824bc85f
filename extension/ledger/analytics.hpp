// Per-milestone analytics of a milestone's rows: tokens each address received and sent, and the
// tags used, for ms_analytics, address_analytics and metrics_cache. Free of PostgreSQL.
//
// Definitions:
//   recv_tokens: amounts of the outputs that included transactions of this milestone created,
//     summed by owning address (an alias's state controller, a foundry's alias);
//   sent_tokens: amounts of the outputs those transactions consumed, summed by owning address,
//     for the consumed outputs whose creation is known when the milestone is ingested (in the
//     unspent set, or created earlier in the same milestone);
//   snapshot outputs are booked, not transferred: they count in neither.
#pragma once

#include "codec/address.hpp"
#include "ledger/derive.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace permanode::ledger
{

// A consumed output as found in the unspent set.
struct KnownOutput
{
    codec::OutputId output_id;
    std::optional<codec::Address> address;
    std::uint64_t amount = 0;
    std::string kind;                // the unspent set's output_kind
    std::optional<codec::Bytes> tag; // its tag feature
};

struct AddressFlow
{
    codec::Address address;
    std::uint64_t sent_tokens = 0;
    std::uint64_t recv_tokens = 0;
    bool sent = false;     // owned a consumed output
    bool received = false; // owns a created output
};

struct MilestoneAnalytics
{
    std::vector<AddressFlow> addresses; // ordered by address
    std::vector<codec::Bytes> tags;     // distinct tags of the cone's blocks
};

MilestoneAnalytics DeriveAnalytics(const MilestoneRows &rows,
                                   const std::vector<KnownOutput> &consumed_known);

} // namespace permanode::ledger
