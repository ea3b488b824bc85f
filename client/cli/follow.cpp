// `permanode follow` (follow.hpp).
#include "follow.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "codec/hex.hpp"
#include "interrupt.hpp"
#include "permanode/streams.hpp"

namespace permanode::cli
{
namespace
{

constexpr const char *kChannel = "permanode_streams"; // streams.batch_write's NOTIFY
constexpr std::uint64_t kPage = 500;

// Counts the notifications that arrive; await_notification() returns when one does.
class Wakeup : public pqxx::notification_receiver
{
  public:
    explicit Wakeup(pqxx::connection_base &conn) : pqxx::notification_receiver(conn, kChannel) {}
    void operator()(const std::string &, int) override {}
};

// A record as one line of JSON: its data as JSON when it is JSON (the ledger's events), else
// in 0x-hex.
std::string Line(const client::Record &r)
{
    nlohmann::json line{{"offset", *r.offset}, {"tags", r.tags}};
    if (r.key)
        line["key"] = *r.key;
    if (r.timestamp_us)
        line["timestamp"] = *r.timestamp_us / 1000000;
    nlohmann::json data = nlohmann::json::parse(r.data, nullptr, false);
    if (data.is_discarded())
        data = codec::ToHex(
            codec::ByteSpan(reinterpret_cast<const std::uint8_t *>(r.data.data()), r.data.size()));
    line["data"] = data;
    return line.dump();
}

} // namespace

std::uint64_t Follow(const std::string &dsn, const FollowOptions &options)
{
    client::StreamStore store(dsn);
    // Listening before the first read: a batch committed after it wakes the loop.
    pqxx::connection listener(dsn);
    Wakeup wakeup(listener);

    std::uint64_t next = 0;
    if (options.from)
        next = *options.from;
    else
        for (const client::ShardOffset &c : store.GetOffsetByGroup(options.group))
            if (c.namespace_name == options.namespace_name && c.shard_name == options.shard_name)
                next = c.offset + 1;

    std::uint64_t printed = 0;
    while (!Interrupted())
    {
        std::uint64_t want = kPage;
        if (options.max_records > 0)
            want = std::min(want, options.max_records - printed);
        client::ReadConfig config{want, std::nullopt};
        auto records =
            options.tag.empty()
                ? store.ReadByOffset(options.namespace_name, options.shard_name, next, config)
                : store.ReadByTag(options.namespace_name, options.shard_name, next, options.tag,
                                  config);
        if (records.empty())
        {
            // Asleep until a writer commits to a stream (waking each second only to see an
            // interrupt, without a query).
            while (!Interrupted() && listener.await_notification(1, 0) == 0)
            {
            }
            continue;
        }
        for (const client::Record &r : records)
            fmt::print("{}\n", Line(r));
        std::fflush(stdout);
        next = *records.back().offset + 1;
        store.CommitOffset(options.group, options.namespace_name,
                           {{options.shard_name, *records.back().offset}});
        printed += records.size();
        if (options.max_records > 0 && printed >= options.max_records)
            break;
    }
    return printed;
}

} // namespace permanode::cli
