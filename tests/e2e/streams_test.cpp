// Record streams through the client library's StreamStore (#25): robustmq's StorageAdapter
// contract on a real cluster, each method as a user calls it; 16 writers x 200 batches (more by
// hand) on one shard (every offset unique, gap-free, each writer reading back its own records);
// delete and recreate; retention; archive and read back; a consumer that restarts resumes at its
// commit.
#include <algorithm>
#include <chrono>
#include <future>
#include <sstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <nlohmann/json.hpp>

#include "permanode/streams.hpp"
#include "run_cli.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

using permanode::client::Error;
using permanode::client::ReadConfig;
using permanode::client::Record;
using permanode::client::ShardInfo;
using permanode::client::StreamStore;
using permanode::test::FreshTestDatabase;
using permanode::test::TestDsn;

namespace
{

class StreamsTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        std::string name = FreshTestDatabase("permanode_streams_");
        dsn_ = TestDsn() + " dbname=" + name;
        pqxx::connection conn(dsn_);
        pqxx::nontransaction tx(conn);
        tx.exec0("CREATE EXTENSION permanode CASCADE");
        // Segments of one second: a few seconds' writes span several partitions.
        tx.exec0("UPDATE permanode.settings SET value = '1' WHERE key = 'stream_segment_seconds'");
    }
    std::string dsn_;
};

ShardInfo Shard(const std::string &namespace_name, const std::string &name, int replicas = 1)
{
    ShardInfo shard;
    shard.namespace_name = namespace_name;
    shard.shard_name = name;
    shard.replica_num = replicas;
    return shard;
}

Record Make(const std::string &key, const std::string &data, std::vector<std::string> tags = {},
            std::optional<std::int64_t> ts = std::nullopt)
{
    Record r;
    if (!key.empty())
        r.key = key;
    r.data = data;
    r.tags = std::move(tags);
    r.timestamp_us = ts;
    return r;
}

// Waits until the segment being written now is closed (two segments of one second later).
void CloseSegment()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
}

std::vector<std::uint64_t> Offsets(const std::vector<Record> &records)
{
    std::vector<std::uint64_t> out;
    for (const Record &r : records)
        out.push_back(*r.offset);
    return out;
}

std::string SqlstateOf(const std::function<void()> &call)
{
    try
    {
        call();
    }
    catch (const Error &e)
    {
        return e.sqlstate();
    }
    return "none";
}

TEST_F(StreamsTest, TheAdapterContract)
{
    StreamStore store(dsn_);
    store.CreateShard(Shard("a_b", "c"));
    store.CreateShard(Shard("a", "b_c", 2));
    EXPECT_EQ(SqlstateOf([&] { store.CreateShard(Shard("a", "b_c")); }), "42710");
    EXPECT_EQ(SqlstateOf([&] { store.DeleteShard("a", "missing"); }), "42704");
    EXPECT_EQ(SqlstateOf([&] { store.Write("a", "missing", Make("k", "x")); }), "42704");
    ASSERT_EQ(store.ListShard("", "").size(), 2u);
    ASSERT_EQ(store.ListShard("a", "").size(), 1u);
    EXPECT_EQ(store.ListShard("a", "")[0].shard_name, "b_c");
    EXPECT_EQ(store.ListShard("a", "")[0].replica_num, 2);
    EXPECT_TRUE(store.ListShard("a", "c").empty());

    // Offsets from 0 in input order; bytes, keys, tags, headers and times come back as written.
    EXPECT_EQ(store.Write("a", "b_c",
                          Make("k1", std::string("\x00\x01\"\\", 4), {"red"}, 1767225600000000)),
              0u);
    Record with_headers = Make("k2", "two", {"red", "b,l\"ue"}, 1767225660000000);
    with_headers.headers = {{"content-type", "text/plain"}, {"q\"uote", "x\\y"}};
    auto offsets =
        store.BatchWrite("a", "b_c",
                         {with_headers, Make("k1", "three", {"b,l\"ue"}, 1767225720000000),
                          Make("", "four", {}, 1767225780000000)});
    EXPECT_EQ(offsets, (std::vector<std::uint64_t>{1, 2, 3}));
    store.Write("a_b", "c", Make("other", "x", {"red"}));

    auto all = store.ReadByOffset("a", "b_c", 0, {});
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].data, std::string("\x00\x01\"\\", 4));
    EXPECT_EQ(all[1].key, "k2");
    EXPECT_EQ(all[1].tags, (std::vector<std::string>{"red", "b,l\"ue"}));
    ASSERT_EQ(all[1].headers.size(), 2u);
    EXPECT_EQ(all[1].headers[1].name, "q\"uote");
    EXPECT_EQ(all[1].headers[1].value, "x\\y");
    EXPECT_EQ(all[2].timestamp_us, 1767225720000000);
    EXPECT_FALSE(all[3].key.has_value());

    EXPECT_EQ(Offsets(store.ReadByOffset("a", "b_c", 1, {2, std::nullopt})),
              (std::vector<std::uint64_t>{1, 2}));
    // max_size: 4 + 3 bytes fit in 7, the third record would pass it.
    EXPECT_EQ(Offsets(store.ReadByOffset("a", "b_c", 0, {100, 7})),
              (std::vector<std::uint64_t>{0, 1}));
    EXPECT_EQ(Offsets(store.ReadByTag("a", "b_c", 0, "red", {})),
              (std::vector<std::uint64_t>{0, 1}));
    EXPECT_EQ(Offsets(store.ReadByTag("a", "b_c", 2, "b,l\"ue", {})),
              (std::vector<std::uint64_t>{2}));
    EXPECT_TRUE(store.ReadByTag("a", "b_c", 0, "green", {}).empty());
    EXPECT_EQ(Offsets(store.ReadByKey("a", "b_c", 0, "k1", {})),
              (std::vector<std::uint64_t>{0, 2}));
    EXPECT_TRUE(store.ReadByKey("a", "b_c", 0, "none", {}).empty());

    EXPECT_EQ(store.GetOffsetByTimestamp("a", "b_c", 1767225690000000)->offset, 2u);
    EXPECT_FALSE(store.GetOffsetByTimestamp("a", "b_c", 1867225690000000).has_value());

    store.CommitOffset("g", "a", {{"b_c", 1}, {"unknown", 9}});
    store.CommitOffset("g", "a", {{"b_c", 3}});
    auto committed = store.GetOffsetByGroup("g");
    ASSERT_EQ(committed.size(), 2u);
    EXPECT_EQ(committed[0].shard_name, "b_c");
    EXPECT_EQ(committed[0].offset, 3u);
    EXPECT_EQ(committed[1].shard_name, "unknown");
    EXPECT_TRUE(store.GetOffsetByGroup("nobody").empty());
    store.Close();
}

// 16 writers on one shard, 200 batches each in CI (a smoke run; by hand, for longer:
// PERMANODE_STRESS_BATCHES=1000 or more): offsets unique, gap-free, consecutive per batch, and each
// writer reads back its own records at the offsets it was given.
TEST_F(StreamsTest, ManyConcurrentWritersGetGapFreeOffsets)
{
    StreamStore(dsn_).CreateShard(Shard("load", "one"));
    constexpr int kWriters = 16, kPerBatch = 3;
    const int batches = permanode::test::StressSize("PERMANODE_STRESS_BATCHES", 200);
    std::vector<std::map<std::uint64_t, std::string>> written(kWriters);
    std::vector<std::string> failures(kWriters);
    std::vector<std::thread> threads;
    for (int w = 0; w < kWriters; ++w)
        threads.emplace_back(
            [&, w]
            {
                try
                {
                    StreamStore store(dsn_);
                    for (int b = 0; b < batches; ++b)
                    {
                        std::vector<Record> batch;
                        for (int i = 0; i < kPerBatch; ++i)
                            batch.push_back(Make("",
                                                 std::to_string(w) + "/" + std::to_string(b) + "/" +
                                                     std::to_string(i),
                                                 {"w" + std::to_string(w)}));
                        auto offsets = store.BatchWrite("load", "one", batch);
                        for (int i = 0; i < kPerBatch; ++i)
                        {
                            if (i > 0 && offsets[i] != offsets[i - 1] + 1)
                                throw std::runtime_error("a batch's offsets are not consecutive");
                            written[w][offsets[i]] = batch[i].data;
                        }
                    }
                }
                catch (const std::exception &e)
                {
                    failures[w] = e.what();
                }
            });
    for (auto &t : threads)
        t.join();
    for (int w = 0; w < kWriters; ++w)
        ASSERT_EQ(failures[w], "") << "writer " << w;

    std::set<std::uint64_t> offsets;
    for (const auto &mine : written)
        for (const auto &[offset, data] : mine)
            EXPECT_TRUE(offsets.insert(offset).second) << "offset " << offset << " given twice";
    ASSERT_EQ(offsets.size(), static_cast<std::size_t>(kWriters * batches * kPerBatch));
    EXPECT_EQ(*offsets.begin(), 0u);
    EXPECT_EQ(*offsets.rbegin(), offsets.size() - 1); // no gap
    StreamStore store(dsn_);
    for (int w = 0; w < kWriters; ++w)
    {
        auto mine = store.ReadByTag("load", "one", 0, "w" + std::to_string(w),
                                    {std::uint64_t(batches * kPerBatch) + 1, std::nullopt});
        ASSERT_EQ(mine.size(), written[w].size()) << "writer " << w;
        for (const Record &r : mine)
            EXPECT_EQ(r.data, written[w].at(*r.offset));
    }
    EXPECT_EQ(store.ListShard("load", "one")[0].next_offset, offsets.size());
}

TEST_F(StreamsTest, DeleteAndRecreateStartsEmptyAtZero)
{
    StreamStore store(dsn_);
    store.CreateShard(Shard("n", "s"));
    std::vector<Record> batch;
    for (int i = 0; i < 2500; ++i)
        batch.push_back(Make("k" + std::to_string(i % 10), "x", {"t"}));
    store.BatchWrite("n", "s", batch);
    store.DeleteShard("n", "s");
    EXPECT_EQ(SqlstateOf([&] { store.ReadByOffset("n", "s", 0, {}); }), "42704");
    store.CreateShard(Shard("n", "s"));
    EXPECT_TRUE(store.ReadByOffset("n", "s", 0, {}).empty());
    EXPECT_TRUE(store.ReadByTag("n", "s", 0, "t", {}).empty());
    EXPECT_TRUE(store.ReadByKey("n", "s", 0, "k1", {}).empty());
    EXPECT_EQ(store.Write("n", "s", Make("k1", "new")), 0u);
    EXPECT_EQ(Offsets(store.ReadByKey("n", "s", 0, "k1", {})), (std::vector<std::uint64_t>{0}));
}

TEST_F(StreamsTest, RetentionExpiresWholeSegments)
{
    StreamStore store(dsn_);
    ShardInfo shard = Shard("r", "s");
    shard.retention_seconds = 3600;
    store.CreateShard(shard);
    auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    std::vector<Record> old, fresh;
    for (int i = 0; i < 2500; ++i)
        old.push_back(Make("", "old", {"t"}, now_us - 7200000000LL + i));
    for (int i = 0; i < 10; ++i)
        fresh.push_back(Make("", "new", {"t"}, now_us));
    store.BatchWrite("r", "s", old);
    CloseSegment();
    store.BatchWrite("r", "s", fresh);
    CloseSegment();
    pqxx::connection admin(dsn_);
    pqxx::nontransaction tx(admin);
    // The old records' segment holds only expired records: dropped, both tables.
    EXPECT_GE(tx.exec1("SELECT streams.expire()")[0].as<int>(), 2);
    auto kept = store.ReadByOffset("r", "s", 0, {100, std::nullopt});
    ASSERT_EQ(kept.size(), 10u);
    EXPECT_EQ(*kept.front().offset, 2500u);
    EXPECT_EQ(store.ListShard("r", "s")[0].first_offset, 2500u);
    EXPECT_EQ(Offsets(store.ReadByTag("r", "s", 0, "t", {1, std::nullopt})),
              (std::vector<std::uint64_t>{2500}));
    EXPECT_EQ(tx.exec1("SELECT sum(rows) FROM streams.status WHERE table_name = "
                       "'streams.records'::regclass")[0]
                  .as<int>(),
              10);
}

TEST_F(StreamsTest, ArchivedSegmentsReadBackUnchanged)
{
    StreamStore store(dsn_);
    store.CreateShard(Shard("c", "s"));
    std::vector<Record> batch;
    for (int i = 0; i < 3500; ++i)
        batch.push_back(Make("k" + std::to_string(i % 50), "data" + std::to_string(i),
                             {"t" + std::to_string(i % 7)}, 1767225600000000LL + i * 1000000LL));
    // Two segments: 3,000 records, then 500 more.
    store.BatchWrite("c", "s", std::vector<Record>(batch.begin(), batch.begin() + 3000));
    CloseSegment();
    store.BatchWrite("c", "s", std::vector<Record>(batch.begin() + 3000, batch.end()));
    CloseSegment();
    auto before = store.ReadByOffset("c", "s", 0, {10000, std::nullopt});
    pqxx::connection admin(dsn_);
    pqxx::nontransaction tx(admin);
    tx.exec0("SET maintenance_work_mem = '256MB'");
    EXPECT_EQ(tx.exec1("SELECT sum(rows) FROM streams.archive(0, streams.current_segment()) "
                       "WHERE table_name = 'streams.records'::regclass")[0]
                  .as<int>(),
              3500);
    EXPECT_EQ(tx.exec1("SELECT count(*) FROM streams.status WHERE tier = 'hot' AND rows > 0")[0]
                  .as<int>(),
              0);
    auto after = store.ReadByOffset("c", "s", 0, {10000, std::nullopt});
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i)
    {
        EXPECT_EQ(after[i].offset, before[i].offset);
        EXPECT_EQ(after[i].data, before[i].data);
        EXPECT_EQ(after[i].tags, before[i].tags);
        EXPECT_EQ(after[i].timestamp_us, before[i].timestamp_us);
    }
    // Lookups across the tiers.
    auto t3 = store.ReadByTag("c", "s", 0, "t3", {10000, std::nullopt});
    EXPECT_EQ(t3.size(), 500u);
    EXPECT_EQ(*t3.front().offset, 3u);
    EXPECT_EQ(Offsets(store.ReadByKey("c", "s", 2950, "k0", {3, std::nullopt})),
              (std::vector<std::uint64_t>{2950, 3000, 3050}));
    EXPECT_EQ(store.GetOffsetByTimestamp("c", "s", 1767225600000000LL + 1234500000LL)->offset,
              1235u);
}

TEST_F(StreamsTest, ARestartedConsumerResumesAtItsCommit)
{
    StreamStore producer(dsn_);
    producer.CreateShard(Shard("q", "s"));
    for (int i = 0; i < 30; ++i)
        producer.Write("q", "s", Make("", std::to_string(i), {i % 2 ? "odd" : "even"}));
    std::vector<std::string> seen;
    auto consume = [&](int records)
    {
        StreamStore consumer(dsn_);
        std::uint64_t from = 0;
        for (const auto &c : consumer.GetOffsetByGroup("readers"))
            if (c.namespace_name == "q" && c.shard_name == "s")
                from = c.offset + 1;
        auto got = consumer.ReadByTag("q", "s", from, "odd",
                                      {static_cast<std::uint64_t>(records), std::nullopt});
        for (const Record &r : got)
            seen.push_back(r.data);
        if (!got.empty())
            consumer.CommitOffset("readers", "q", {{"s", *got.back().offset}});
        consumer.Close(); // the consumer goes away
    };
    consume(4);
    consume(4);
    consume(100);
    std::vector<std::string> odd;
    for (int i = 1; i < 30; i += 2)
        odd.push_back(std::to_string(i));
    EXPECT_EQ(seen, odd); // each once, in order
}

// `permanode follow` prints records as they arrive (woken by NOTIFY), commits its group's offset,
// and a follower started again resumes after it.
TEST_F(StreamsTest, FollowPrintsRecordsAsTheyArriveAndResumes)
{
    StreamStore store(dsn_);
    store.CreateShard(Shard("watch", "s"));
    store.Write("watch", "s", Make("k0", R"({"n":0})", {"addr"}));
    store.Write("watch", "s", Make("other", "x", {"someone-else"}));
    auto follow = [&](int records)
    {
        return std::async(std::launch::async,
                          [&, records]
                          {
                              return permanode::test::RunCli(fmt::format(
                                  "follow --dsn '{}' --group g --tag addr --namespace watch "
                                  "--shard s --max-records {}",
                                  dsn_, records));
                          });
    };
    auto first = follow(3);
    // The follower has printed the record held and sleeps; these arrive while it does.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ASSERT_EQ(first.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
    store.Write("watch", "s", Make("k1", R"({"n":1})", {"addr"}));
    store.Write("watch", "s", Make("k2", "\x01", {"addr"}));
    ASSERT_EQ(first.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    auto result = first.get();
    ASSERT_EQ(result.exit_code, 0) << result.output;
    std::vector<nlohmann::json> lines;
    std::istringstream out(result.output);
    for (std::string line; std::getline(out, line);)
        lines.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(lines.size(), 3u) << result.output;
    EXPECT_EQ(lines[0]["offset"], 0);
    EXPECT_EQ(lines[0]["data"]["n"], 0);
    EXPECT_EQ(lines[1]["offset"], 2);
    EXPECT_EQ(lines[1]["key"], "k1");
    EXPECT_EQ(lines[2]["offset"], 3);
    EXPECT_EQ(lines[2]["data"], "0x01"); // not JSON: its bytes in hex
    EXPECT_EQ(store.GetOffsetByGroup("g").at(0).offset, 3u);

    // Started again, it goes on after its commit.
    store.Write("watch", "s", Make("k4", R"({"n":4})", {"addr"}));
    auto again = follow(1);
    ASSERT_EQ(again.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    auto resumed = again.get();
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_EQ(nlohmann::json::parse(resumed.output)["offset"], 4);
}

// The ledger as a stream on a generated ledger (whose transactions also spend outputs created in
// their own milestone, and which `ingest` writes on two connections, so some spends arrive before
// their outputs): one record per output created and per output spent, as the ledger tables hold
// them.
TEST_F(StreamsTest, TheLedgerStreamHoldsEveryOutputCreatedAndSpent)
{
    StreamStore(dsn_).CreateShard(Shard("ledger", "events"));
    std::string bundles = ::testing::TempDir() + "streams_ledger.ndjson";
    auto generated =
        permanode::test::RunCli(fmt::format("generate --milestones 40 --seed 7 -o '{}'", bundles));
    ASSERT_EQ(generated.exit_code, 0) << generated.output;
    auto ingested =
        permanode::test::RunCli(fmt::format("ingest --no-measure '{}' --dsn '{}'", bundles, dsn_));
    ASSERT_EQ(ingested.exit_code, 0) << ingested.output;
    pqxx::connection conn(dsn_);
    pqxx::nontransaction tx(conn);
    tx.exec0("SET search_path = public, permanode"); // the output_id type's operators
    auto row = tx.exec1(
        "SELECT (SELECT count(*) FROM streams.read_by_offset('ledger', 'events', 0, 1000000) "
        "        WHERE convert_from(data, 'UTF8')::jsonb->>'type' = 'spent'), "
        "       (SELECT count(*) FROM permanode.spent_outputs), "
        "       (SELECT count(*) FROM streams.read_by_offset('ledger', 'events', 0, 1000000) "
        "        WHERE convert_from(data, 'UTF8')::jsonb->>'type' = 'created'), "
        "       (SELECT count(*) FROM permanode.basic_outputs) + (SELECT count(*) FROM "
        "        permanode.alias_outputs) + (SELECT count(*) FROM permanode.foundry_outputs) + "
        "        (SELECT count(*) FROM permanode.nft_outputs), "
        "       (SELECT count(*) FROM permanode.spent_outputs s JOIN permanode.basic_outputs b "
        "        USING (output_id) WHERE s.milestone_index = b.milestone_index), "
        "       (SELECT count(*) FROM streams.read_by_offset('ledger', 'events', 0, 1000000) r "
        "        JOIN permanode.spent_outputs s ON s.output_id::text = r.key "
        "        WHERE convert_from(r.data, 'UTF8')::jsonb->>'type' = 'spent' "
        "          AND (convert_from(r.data, 'UTF8')::jsonb->>'milestoneIndex')::int "
        "              <> s.milestone_index)");
    EXPECT_GT(row[4].as<long>(), 0) << "no output spent in its own milestone: the case is untested";
    EXPECT_EQ(row[0].as<long>(), row[1].as<long>()) << "spent";
    EXPECT_EQ(row[2].as<long>(), row[3].as<long>()) << "created";
    // Each spend names the milestone that spent the output, also when `ingest --jobs` wrote the
    // spending milestone before the one that created it.
    EXPECT_EQ(row[5].as<long>(), 0) << "spends naming another milestone";
}

} // namespace
