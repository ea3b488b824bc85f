// Issue 25's stream figures (same run, ratios), through the client library's StreamStore:
//   - batch_write records/s from 4 connections (a shard each, batches of 1,000) against COPY of
//     the same rows into an unindexed table from 4 connections (>= 0.3);
//   - read_by_offset of 1M records, pages of 10,000, against a heap seq scan of the same rows,
//     both fetched by the client (>= 0.5);
//   - read_by_tag's first page (100) on a shard of 10M records, from its start and from its
//     middle, against the same page through an unpartitioned index over the same rows, both
//     fetching the rows (<= 2).
// PERMANODE_BENCH_SCALE scales the record counts.
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_query.hpp"
#include "permanode/streams.hpp"

using namespace permanode::bench;
using permanode::client::ReadConfig;
using permanode::client::Record;
using permanode::client::ShardInfo;
using permanode::client::StreamStore;

namespace
{

constexpr int kConnections = 4;
constexpr int kBatch = 1000;
constexpr int kTags = 1000;

Record RecordOf(long n)
{
    Record r;
    r.key = fmt::format("k{}", n);
    r.data = fmt::format("{:0>100}", n); // 100 bytes
    r.tags = {fmt::format("t{}", n % kTags)};
    return r;
}

ShardInfo Shard(const std::string &name)
{
    ShardInfo s;
    s.namespace_name = "bench";
    s.shard_name = name;
    return s;
}

// Runs fn(connection index) on kConnections threads; returns the wall seconds.
template <typename Fn> double OnConnections(Fn fn)
{
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < kConnections; ++c)
        threads.emplace_back([&, c] { fn(c); });
    for (auto &t : threads)
        t.join();
    return SecondsSince(start);
}

} // namespace

int main()
{
    try
    {
        std::string dsn = BenchDsn();
        double scale = BenchScale();
        const long written = std::max<long>(100000, static_cast<long>(1000000 * scale));
        const long big = std::max<long>(1000000, static_cast<long>(10000000 * scale));
        {
            pqxx::connection admin(dsn);
            pqxx::nontransaction tx(admin);
            tx.exec0("DROP DATABASE IF EXISTS bench_streams");
            tx.exec0("CREATE DATABASE bench_streams");
        }
        std::string db = dsn + " dbname=bench_streams";
        pqxx::connection conn(db);
        {
            pqxx::nontransaction tx(conn);
            tx.exec0("CREATE EXTENSION permanode CASCADE");
            // Segments of 10 s: the big shard spans tens of partitions.
            tx.exec0("UPDATE permanode.settings SET value = '10' WHERE key = "
                     "'stream_segment_seconds'");
            tx.exec0("CREATE TABLE copy_records (shard text, position bigint, key text, data "
                     "bytea, tags text[], ts timestamptz)");
        }

        // 1. Writing: 4 connections, a shard each, against COPY of the same rows.
        for (int c = 0; c < kConnections; ++c)
            StreamStore(db).CreateShard(Shard(fmt::format("w{}", c)));
        const long per_connection = written / kConnections;
        double ours = OnConnections(
            [&](int c)
            {
                StreamStore store(db);
                for (long first = 0; first < per_connection; first += kBatch)
                {
                    std::vector<Record> batch;
                    for (long n = first; n < std::min(per_connection, first + kBatch); ++n)
                        batch.push_back(RecordOf(c * per_connection + n));
                    store.BatchWrite("bench", fmt::format("w{}", c), batch);
                }
            });
        double copy = OnConnections(
            [&](int c)
            {
                pqxx::connection cc(db);
                pqxx::work tx(cc);
                pqxx::stream_to out(
                    tx, "copy_records",
                    std::vector<std::string>{"shard", "position", "key", "data", "tags", "ts"});
                for (long n = 0; n < per_connection; ++n)
                {
                    Record r = RecordOf(c * per_connection + n);
                    std::string hex = "\\x";
                    for (unsigned char ch : r.data)
                        hex += fmt::format("{:02x}", ch);
                    out << std::make_tuple(fmt::format("w{}", c), n, *r.key, hex,
                                           "{" + r.tags[0] + "}", "2026-11-26 00:00:00+00");
                }
                out.complete();
                tx.commit();
            });
        long total = per_connection * kConnections;
        PrintRatio(fmt::format("streams: batch_write records/s, 4 connections, {} records, "
                               "against COPY of the same rows (unindexed table)",
                               total),
                   total / ours, total / copy, ">=0.3");

        // 2. Reading 1M records by offset, pages of 10,000, against a heap seq scan.
        StreamStore(db).CreateShard(Shard("big"));
        {
            StreamStore store(db);
            auto start = std::chrono::steady_clock::now();
            for (long first = 0; first < big; first += 10 * kBatch)
            {
                std::vector<Record> batch;
                for (long n = first; n < std::min(big, first + 10 * kBatch); ++n)
                    batch.push_back(RecordOf(n));
                store.BatchWrite("bench", "big", batch);
            }
            PrintRatio(fmt::format("streams: batch_write records/s into one shard of {} "
                                   "records, one connection, batches of 10,000 (report)",
                                   big),
                       big / SecondsSince(start), total / copy, "report");
        }
        pqxx::nontransaction(conn).exec0("VACUUM ANALYZE");
        const long read = std::min<long>(big, 1000000);
        {
            pqxx::nontransaction tx(conn);
            tx.exec0(
                "CREATE TABLE heap_records AS SELECT \"offset\", key, data, header, tags, ts FROM "
                "streams.records r JOIN streams.shards s USING (shard_id) WHERE s.shard = "
                "'big' AND r.\"offset\" < " +
                std::to_string(read));
            tx.exec0("VACUUM ANALYZE heap_records");
        }
        auto time_read = [&]
        {
            StreamStore store(db);
            long got = 0;
            auto start = std::chrono::steady_clock::now();
            for (long first = 0; first < read; first += 10 * kBatch)
                got += static_cast<long>(
                    store.ReadByOffset("bench", "big", first, {10 * kBatch, std::nullopt}).size());
            if (got != read)
                throw std::runtime_error(fmt::format("read {} records, not {}", got, read));
            return SecondsSince(start);
        };
        // The same columns as the client reads a record's, decoded the same way (its bytes out
        // of their hex, its time in microseconds) into the same Record.
        auto time_heap = [&]
        {
            pqxx::nontransaction tx(conn);
            auto start = std::chrono::steady_clock::now();
            auto rows = tx.exec("SELECT \"offset\", key, data, header::text, "
                                "to_jsonb(tags)::text, (extract(epoch FROM ts) * 1000000)::bigint "
                                "FROM heap_records");
            std::vector<Record> records;
            records.reserve(rows.size());
            for (const auto &row : rows)
            {
                Record r;
                r.offset = row[0].as<std::uint64_t>();
                r.key = row[1].as<std::string>();
                r.data = pqxx::binarystring(row[2]).str();
                r.tags = {row[4].as<std::string>()};
                r.timestamp_us = row[5].as<std::int64_t>();
                records.push_back(std::move(r));
            }
            if (static_cast<long>(records.size()) != read)
                throw std::runtime_error("the heap scan read too few rows");
            return SecondsSince(start);
        };
        time_read(); // warm both
        time_heap();
        double by_offset = time_read(), heap = time_heap();
        PrintRatio(fmt::format("streams: read_by_offset of {} records (pages of 10,000) against "
                               "a heap seq scan of the same rows, records/s",
                               read),
                   read / by_offset, read / heap, ">=0.5");

        // 3. read_by_tag's first page on the big shard against an unpartitioned index.
        {
            pqxx::nontransaction tx(conn);
            tx.exec0("CREATE TABLE flat_records AS SELECT \"offset\", key, data, tags, ts FROM "
                     "streams.records r JOIN streams.shards s USING (shard_id) WHERE s.shard = "
                     "'big'");
            tx.exec0("ALTER TABLE flat_records ADD PRIMARY KEY (\"offset\")");
            tx.exec0("CREATE TABLE flat_tags AS SELECT t.tag, t.\"offset\" FROM "
                     "streams.record_tags t JOIN streams.shards s USING (shard_id) WHERE "
                     "s.shard = 'big'");
            tx.exec0("CREATE INDEX ON flat_tags (tag, \"offset\")");
            tx.exec0("VACUUM ANALYZE flat_records, flat_tags");
        }
        std::vector<std::string> tags;
        for (int t = 0; t < kTags; t += 7)
            tags.push_back(fmt::format("t{}", t));
        // Both sides fetch the page's rows, as read_by_tag returns them. (A count(*) over the
        // flat join reads two indexes only, never a record: reported below, not a baseline.)
        auto read_by_tag = [&](long from)
        {
            return TimePrepared(
                conn,
                fmt::format("SELECT * FROM streams.read_by_tag('bench', 'big', {}, $1, 100)", from),
                tags);
        };
        auto flat = [&](long from, bool count_only)
        {
            std::string page = fmt::format("SELECT r.\"offset\", r.key, r.data, r.tags, r.ts FROM "
                                           "flat_tags t JOIN flat_records "
                                           "r USING (\"offset\") WHERE t.tag = $1 AND t.\"offset\" "
                                           ">= {} ORDER BY t.\"offset\" "
                                           "LIMIT 100",
                                           from);
            return TimePrepared(conn, count_only ? "SELECT count(*) FROM (" + page + ") p" : page,
                                tags);
        };
        PrintRatio(fmt::format("streams: read_by_tag first page (100) on a shard of {} records "
                               "against an unpartitioned index (us)",
                               big),
                   read_by_tag(0), flat(0, false), "<=2");
        PrintRatio("streams: read_by_tag page from the middle of the shard against the same (us)",
                   read_by_tag(big / 2), flat(big / 2, false), "<=2");
        PrintRatio("streams: the flat page counted (index-only, no record read) against the page "
                   "fetched (us)",
                   flat(big / 2, true), flat(big / 2, false), "report");
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "stream_bench: {}\n", e.what());
        return 1;
    }
}
