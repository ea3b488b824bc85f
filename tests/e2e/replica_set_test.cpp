// client::ReplicaSet against a real cluster: the "replicas" are connections to the test cluster
// that say who they are through application_name, and a port where nothing listens.
#include "permanode/replica_set.hpp"

#include <chrono>
#include <thread>

#include <pqxx/pqxx>

#include "permanode/queries.hpp"
#include "test_env.hpp"

using permanode::client::Client;
using permanode::client::Error;
using permanode::client::Query;
using permanode::client::ReplicaSet;
using permanode::client::ReplicaSetOptions;
using permanode::client::Result;
using permanode::client::Statement;
using permanode::test::TestDsn;

namespace
{

const std::string kNothingListens = "host=127.0.0.1 port=1 connect_timeout=2";

std::string Named(const std::string &name)
{
    return TestDsn() + " application_name=" + name;
}

// A query of the session's own (through the library, so that its errors are client::Error).
Query<std::string> TextOf(const std::string &name, const std::string &sql)
{
    Query<std::string> query;
    query.statement = std::make_shared<const Statement>(Statement{name, sql});
    query.read = [](const permanode::client::Result &result)
    { return std::string(result.Text(0, 0)); };
    return query;
}

// Which connection answers: its application_name.
std::string WhoAnswers(Client &client)
{
    return client.Run(
        TextOf("replica_set_test_name", "SELECT current_setting('application_name')"));
}

ReplicaSetOptions Backoff(std::chrono::milliseconds backoff)
{
    ReplicaSetOptions options;
    options.backoff = backoff;
    return options;
}

} // namespace

TEST(ReplicaSet, ReadsGoToTheReplicasRoundRobinAndSayWhichAnswered)
{
    ReplicaSet set(Named("primary"), {Named("replica_a"), Named("replica_b")});
    Client direct(TestDsn());
    std::int32_t ledger_index = direct.GetLedgerIndex();
    for (int i = 0; i < 6; i++)
    {
        auto answer = set.Read(WhoAnswers);
        EXPECT_EQ(answer.value, i % 2 == 0 ? "replica_a" : "replica_b") << "read " << i;
        EXPECT_FALSE(answer.node.primary);
        EXPECT_EQ(answer.node.replica, static_cast<std::size_t>(i % 2));
        EXPECT_EQ(answer.node.ledger_index, ledger_index);
        EXPECT_EQ(answer.node.label, permanode::client::NodeLabel(TestDsn()));
    }
    auto counts = set.Counts();
    ASSERT_EQ(counts.size(), 3u);
    EXPECT_EQ(counts[0].reads, 3);
    EXPECT_EQ(counts[1].reads, 3);
    EXPECT_EQ(counts[2].reads, 0);
    EXPECT_TRUE(counts[2].primary);
    // Writes go to the primary's own connection.
    EXPECT_EQ(WhoAnswers(set.Primary()), "primary");
}

TEST(ReplicaSet, AReplicaThatCannotBeReachedIsSkippedUntilItsBackoffHasPassed)
{
    ReplicaSet set(Named("primary"), {kNothingListens, Named("replica_b")},
                   Backoff(std::chrono::milliseconds(300)));
    for (int i = 0; i < 5; i++)
    {
        auto answer = set.Read(WhoAnswers);
        EXPECT_EQ(answer.value, "replica_b") << "read " << i;
        EXPECT_EQ(answer.node.replica, 1u);
    }
    EXPECT_EQ(set.Counts()[0].failures, 1) << "tried once within the back-off";
    EXPECT_EQ(set.Counts()[0].reads, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    EXPECT_EQ(set.Read(WhoAnswers).value, "replica_b");
    EXPECT_EQ(set.Counts()[0].failures, 2) << "tried again after the back-off";
}

TEST(ReplicaSet, AConnectionThatBreaksDuringAReadIsReadAgainOnTheNextReplica)
{
    ReplicaSet set(Named("breaking_primary"), {Named("breaking_a"), Named("breaking_b")},
                   Backoff(std::chrono::seconds(60)));
    pqxx::connection admin(TestDsn());
    int calls = 0;
    auto answer = set.Read(
        [&](Client &client)
        {
            if (calls++ == 0)
            {
                // The first replica's backend goes away in the middle of the read.
                // (and is gone: the call waits for it to exit).
                auto killed = pqxx::nontransaction(admin).exec(
                    "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                    "WHERE application_name = 'breaking_a'");
                EXPECT_EQ(killed.size(), 1u);
            }
            return WhoAnswers(client);
        });
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(answer.value, "breaking_b");
    EXPECT_EQ(set.Counts()[0].failures, 1);
    // breaking_a is aside: the next reads stay on breaking_b.
    EXPECT_EQ(set.Read(WhoAnswers).value, "breaking_b");
    EXPECT_EQ(set.Read(WhoAnswers).value, "breaking_b");
}

TEST(ReplicaSet, WithNoReplicaLeftThePrimaryServes)
{
    ReplicaSet set(Named("primary"), {kNothingListens, kNothingListens},
                   Backoff(std::chrono::seconds(60)));
    for (int i = 0; i < 3; i++)
    {
        auto answer = set.Read(WhoAnswers);
        EXPECT_EQ(answer.value, "primary");
        EXPECT_TRUE(answer.node.primary);
    }
    EXPECT_EQ(set.Counts()[0].failures, 1);
    EXPECT_EQ(set.Counts()[1].failures, 1);
    EXPECT_EQ(set.Counts()[2].reads, 3);
}

TEST(ReplicaSet, WithoutReplicasEveryReadRunsOnThePrimary)
{
    ReplicaSet set(Named("primary"), {});
    Client direct(TestDsn());
    auto answer = set.Read([](Client &client) { return client.GetLedgerIndex(); });
    EXPECT_TRUE(answer.node.primary);
    EXPECT_EQ(answer.value, direct.GetLedgerIndex());
    EXPECT_EQ(answer.node.ledger_index, answer.value);
    EXPECT_EQ(set.Read(WhoAnswers).value, "primary");
}

TEST(ReplicaSet, AQueryErrorIsTheCallersAndLeavesTheReplicaInUse)
{
    ReplicaSet set(Named("primary"), {Named("replica_a")}, Backoff(std::chrono::seconds(60)));
    try
    {
        set.Read([](Client &client)
                 { return client.Run(TextOf("replica_set_test_bad", "SELECT 1/0")); });
        FAIL() << "the read should have failed";
    }
    catch (const Error &e)
    {
        EXPECT_EQ(e.sqlstate(), "22012");
    }
    EXPECT_EQ(set.Counts()[0].failures, 0);
    EXPECT_EQ(set.Read(WhoAnswers).value, "replica_a");
}

TEST(ReplicaSet, APrimaryThatCannotBeReachedIsAnError)
{
    ReplicaSet set(kNothingListens, {kNothingListens});
    try
    {
        set.Read(WhoAnswers);
        FAIL() << "the read should have failed";
    }
    catch (const Error &e)
    {
        EXPECT_EQ(e.sqlstate().substr(0, 2), "08") << e.what();
    }
}
