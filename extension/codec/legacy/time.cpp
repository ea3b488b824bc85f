#include "codec/legacy/time.hpp"

#include <algorithm>

namespace permanode::codec::legacy
{

std::int64_t IssuedAtMs(const Transaction &transaction)
{
    std::int64_t ms = transaction.attachment_timestamp > 0 ? transaction.attachment_timestamp
                                                           : transaction.timestamp * 1000;
    return std::clamp(ms, kEarliestIssuedMs, kLatestIssuedMs - 1);
}

std::int32_t MonthId(std::int64_t ms)
{
    // Civil date from days since 1970 (Howard Hinnant's days_from_civil, inverted).
    std::int64_t days = ms >= 0 ? ms / 86400000 : (ms - 86399999) / 86400000;
    days += 719468;
    std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    std::int64_t doe = days - era * 146097;
    std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    std::int64_t mp = (5 * doy + 2) / 153;
    std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
    std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    return static_cast<std::int32_t>((year - 1970) * 12 + (month - 1));
}

} // namespace permanode::codec::legacy
