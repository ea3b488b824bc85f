// `permanode follow`: a consumer group following a record stream
// (sql/permanode/schema/88_streams.sql), by default the ledger's own (namespace ledger, shard
// events). It prints each record as a line of JSON as it arrives, commits the group's offset after
// each page, and sleeps on LISTEN/NOTIFY between pages (batch_write notifies at commit), never
// polling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace permanode::cli
{

struct FollowOptions
{
    std::string group;
    std::string tag; // empty: every record of the shard
    std::string namespace_name = "ledger";
    std::string shard_name = "events";
    std::optional<std::uint64_t> from; // default: after the group's committed offset, else 0
    std::uint64_t max_records = 0;     // stop after this many (0: until interrupted)
};

// The number of records printed.
std::uint64_t Follow(const std::string &dsn, const FollowOptions &options);

} // namespace permanode::cli
