// When a legacy transaction happened, for partitioning by month: its attachment timestamp
// (milliseconds, set by the node that attached it) when it has one, else its own timestamp
// (seconds, set by the issuer). Either may be anything a client wrote (spam wrote 0), so the time
// is clamped into [2016-01-01, 2100-01-01): the tangle began in 2016.
#pragma once

#include "codec/legacy/transaction.hpp"

#include <cstdint>

namespace permanode::codec::legacy
{

constexpr std::int64_t kEarliestIssuedMs = 1451606400000; // 2016-01-01T00:00:00Z
constexpr std::int64_t kLatestIssuedMs = 4102444800000;   // 2100-01-01T00:00:00Z (excluded)

// The transaction's time in milliseconds since 1970, clamped.
std::int64_t IssuedAtMs(const Transaction &transaction);

// Months since January 1970 of a time in milliseconds (UTC): the legacy tables' month_id.
std::int32_t MonthId(std::int64_t ms);

} // namespace permanode::codec::legacy
