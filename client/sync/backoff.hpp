// How long to wait before asking a node that is away again: from the first wait, doubled after
// each failure, up to the longest. One rule for the fetcher's milestones and INX's listener.
#pragma once

namespace permanode::sync
{

inline constexpr int kFirstBackoffMs = 100;
inline constexpr int kMaxBackoffMs = 5000;

} // namespace permanode::sync
