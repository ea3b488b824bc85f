// Keyset paging: a cursor is the sort key of the last row of a page, as an opaque string.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace permanode::client
{

// The sort key of a row in the ledger's newest-first order
//   ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, id DESC.
// Lists ordered otherwise say which fields they fill (e.g. a milestone's blocks in white-flag
// order keep the white-flag index in `id`).
struct Cursor
{
    std::int32_t ms_range_id = 0;
    std::int64_t ms_timestamp_us = 0; // microseconds since the Unix epoch
    std::int32_t milestone_index = 0;
    std::string id; // 0x-hex ID, or another text key
    bool operator==(const Cursor &o) const
    {
        return ms_range_id == o.ms_range_id && ms_timestamp_us == o.ms_timestamp_us &&
               milestone_index == o.milestone_index && id == o.id;
    }
};

// URL-safe text: "<ms_range_id>.<ms_timestamp_us>.<milestone_index>.<id>". Clients must treat
// it as opaque; the layout may change.
std::string EncodeCursor(const Cursor &cursor);
// Parses EncodeCursor's text; nullopt when it is malformed.
std::optional<Cursor> DecodeCursor(std::string_view text);

// One page of a list, and the cursor of its last row when more rows follow.
template <typename T> struct Page
{
    std::vector<T> items;
    std::optional<Cursor> next;
};

} // namespace permanode::client
