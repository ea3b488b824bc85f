// The server's database side against a real cluster: queries in libpq's pipeline mode (results
// in order, an error ending only its own query, a lost connection failing what is in flight),
// and the choice of connection that keeps a slow query from holding up the rest.
#include <poll.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "server/db.hpp"
#include "http_fixture.hpp"
#include "permanode/client.hpp"
#include "server/pg_pipeline.hpp"
#include "server/task.hpp"

using permanode::client::Plan;
using permanode::client::Query;
using permanode::client::Result;
using permanode::client::Statement;
using permanode::http::Db;
using permanode::http::PgPipeline;
using permanode::http::Spawn;
using permanode::http::Task;
using permanode::test::FixtureReaderDsn;
using Clock = std::chrono::steady_clock;

namespace
{

// A query of one text value: `sql` run with `params`; reads the first column of the first row.
Query<std::string> TextQuery(const std::string &sql, std::vector<std::string> params = {},
                             Plan plan = Plan::kCustom)
{
    Query<std::string> query;
    query.statement = std::make_shared<const Statement>(Statement{sql, sql, plan});
    for (auto &value : params)
    {
        query.params.Add(std::move(value));
    }
    query.read = [](const Result &result) { return std::string(result.Text(0, 0)); };
    return query;
}

// Drives the pipelines (what the event loop does, its sweep each round) until `done()` or the
// deadline.
template <typename Done>
bool Drive(std::vector<std::unique_ptr<PgPipeline>> &pipelines, Done done,
           std::chrono::seconds limit = std::chrono::seconds(10))
{
    auto deadline = Clock::now() + limit;
    while (!done() && Clock::now() < deadline)
    {
        std::vector<pollfd> fds;
        for (auto &pipeline : pipelines)
        {
            bool writable = pipeline->Flush();
            if (pipeline->Fd() >= 0)
            {
                fds.push_back(
                    {pipeline->Fd(), static_cast<short>(POLLIN | (writable ? POLLOUT : 0)), 0});
            }
        }
        poll(fds.data(), fds.size(), 20);
        for (auto &pipeline : pipelines)
        {
            pipeline->OnReadable();
            pipeline->ExpireWaiting();
        }
    }
    return done();
}

std::vector<std::unique_ptr<PgPipeline>> Pipelines(int count, int statement_timeout_ms = 0)
{
    std::vector<std::unique_ptr<PgPipeline>> pipelines;
    for (int i = 0; i < count; i++)
    {
        pipelines.push_back(std::make_unique<PgPipeline>(FixtureReaderDsn(), statement_timeout_ms));
    }
    return pipelines;
}

struct Outcome
{
    bool done = false;
    std::string value;
    std::string sqlstate; // of the error, when it failed
    Clock::time_point at;
};

Task<> RunInto(Db &db, Query<std::string> query, Outcome &outcome)
{
    try
    {
        outcome.value = co_await db.Run(std::move(query));
    }
    catch (const permanode::client::Error &e)
    {
        outcome.sqlstate = e.sqlstate().empty() ? "?" : e.sqlstate();
    }
    outcome.done = true;
    outcome.at = Clock::now();
}

void Start(Db &db, Query<std::string> query, Outcome &outcome)
{
    Spawn(RunInto(db, std::move(query), outcome), [](std::exception_ptr error)
          { EXPECT_FALSE(error) << "the task ended with an exception"; });
}

} // namespace

// Many queries in flight on one connection: each gets its own result, and an error (a bad
// value, a missing table) ends only the query that caused it.
TEST(HttpPipeline, ResultsComeInOrderAndAnErrorEndsOnlyItsQuery)
{
    auto pipelines = Pipelines(1);
    Db db(pipelines);
    std::vector<Outcome> outcomes(40);
    for (int i = 0; i < 40; i++)
    {
        if (i % 10 == 3)
        {
            Start(db, TextQuery("SELECT $1::int::text", {"not a number"}), outcomes[i]);
        }
        else if (i % 10 == 7)
        {
            Start(db, TextQuery("SELECT 1 FROM no_such_table"), outcomes[i]);
        }
        else
        {
            // Half as named prepared statements (prepared once, on first use).
            Start(db,
                  TextQuery("SELECT ($1::int * 2)::text", {std::to_string(i)},
                            i % 2 ? Plan::kGeneric : Plan::kCustom),
                  outcomes[i]);
        }
    }
    EXPECT_EQ(pipelines[0]->InFlight(), 41u); // 40 queries and one preparation
    ASSERT_TRUE(Drive(pipelines,
                      [&]
                      {
                          for (auto &o : outcomes)
                              if (!o.done)
                                  return false;
                          return true;
                      }));
    for (int i = 0; i < 40; i++)
    {
        if (i % 10 == 3)
        {
            EXPECT_EQ(outcomes[i].sqlstate, "22P02") << i;
        }
        else if (i % 10 == 7)
        {
            EXPECT_EQ(outcomes[i].sqlstate, "42P01") << i;
        }
        else
        {
            EXPECT_EQ(outcomes[i].sqlstate, "") << i;
            EXPECT_EQ(outcomes[i].value, std::to_string(i * 2)) << i;
        }
    }
    EXPECT_EQ(pipelines[0]->InFlight(), 0u);
}

// A connection that is lost fails the queries in flight with 08006; the next query connects
// again.
TEST(HttpPipeline, ALostConnectionFailsWhatIsInFlightAndReconnects)
{
    auto pipelines = Pipelines(1);
    Db db(pipelines);
    Outcome pid;
    Start(db, TextQuery("SELECT pg_backend_pid()::text"), pid);
    ASSERT_TRUE(Drive(pipelines, [&] { return pid.done; }));
    ASSERT_EQ(pid.sqlstate, "");
    // Another session ends this one (as a restart or an administrator would) while a query waits.
    Outcome waiting;
    Start(db, TextQuery("SELECT pg_sleep(5)::text"), waiting);
    pipelines[0]->Flush();
    {
        pqxx::connection admin(permanode::test::FixtureAdminDsn());
        pqxx::nontransaction(admin).exec("SELECT pg_terminate_backend(" + pid.value + ")");
    }
    ASSERT_TRUE(Drive(pipelines, [&] { return waiting.done; }));
    // 57P01 (terminated by an administrator) when its message arrived, else 08006.
    EXPECT_TRUE(waiting.sqlstate == "57P01" || waiting.sqlstate.substr(0, 2) == "08")
        << waiting.sqlstate;
    EXPECT_EQ(pipelines[0]->InFlight(), 0u);
    Outcome again;
    Start(db, TextQuery("SELECT pg_backend_pid()::text"), again);
    ASSERT_TRUE(Drive(pipelines, [&] { return again.done; }));
    EXPECT_EQ(again.sqlstate, "");
    EXPECT_NE(again.value, pid.value);
}

// A query the server rolls back to end a deadlock (40P01) is sent again and answered: here
// another session holds one of its two tables, then asks for the other, which the query holds
// while it waits; the query's backend finds the deadlock first (deadlock_timeout 1 s against
// the other's 10 s) and is rolled back, as a read was by archiving (bench/soak).
TEST(HttpPipeline, AQueryRolledBackByADeadlockIsSentAgain)
{
    pqxx::connection admin(permanode::test::FixtureAdminDsn());
    pqxx::nontransaction(admin).exec(
        "DROP TABLE IF EXISTS deadlock_a, deadlock_b; CREATE TABLE deadlock_a (x int); "
        "CREATE TABLE deadlock_b (x int); INSERT INTO deadlock_a VALUES (1); "
        "INSERT INTO deadlock_b VALUES (1); GRANT SELECT ON deadlock_a, deadlock_b TO PUBLIC");
    pqxx::connection holder(permanode::test::FixtureAdminDsn());
    pqxx::work holding(holder);
    holding.exec("SET LOCAL deadlock_timeout = '10s'; LOCK deadlock_b IN ACCESS EXCLUSIVE MODE");

    auto pipelines = Pipelines(1);
    Db db(pipelines);
    Outcome outcome;
    // Parse analysis locks deadlock_a, then waits for deadlock_b.
    Start(db,
          TextQuery("SELECT ((SELECT count(*) FROM deadlock_a) + "
                    "(SELECT count(*) FROM deadlock_b))::text"),
          outcome);
    // Sent (connecting first), and waiting for deadlock_b.
    auto started = Clock::now();
    Drive(pipelines, [&] { return Clock::now() - started > std::chrono::milliseconds(300); });
    ASSERT_FALSE(outcome.done) << outcome.sqlstate;
    // The holder waits for deadlock_a in a thread of its own, then commits once it has it.
    std::thread other(
        [&]
        {
            holding.exec("LOCK deadlock_a IN ACCESS EXCLUSIVE MODE");
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            holding.commit();
        });
    bool done = Drive(pipelines, [&] { return outcome.done; });
    other.join();
    ASSERT_TRUE(done);
    EXPECT_EQ(outcome.sqlstate, "") << "the query was not sent again";
    EXPECT_EQ(outcome.value, "2");
    pqxx::nontransaction(admin).exec("DROP TABLE deadlock_a, deadlock_b");
}

// While the first connection works on a slow query, the queries that follow go to the next one
// and are answered long before it.
TEST(HttpPipeline, ASlowQueryDoesNotHoldUpTheNextOnes)
{
    auto pipelines = Pipelines(2);
    Db db(pipelines);
    // Both connected, so connecting does not count against the timings.
    std::vector<Outcome> warm(2);
    Start(db, TextQuery("SELECT 1::text"), warm[0]);
    Drive(pipelines, [&] { return warm[0].done; });
    auto started = Clock::now();
    Outcome slow;
    Start(db, TextQuery("SELECT pg_sleep(1)::text"), slow);
    // Past the 2 ms a query may wait before the next connection is tried.
    Drive(pipelines, [&] { return Clock::now() - started > std::chrono::milliseconds(50); });
    std::vector<Outcome> quick(5);
    for (auto &outcome : quick)
    {
        Start(db, TextQuery("SELECT 2::text"), outcome);
    }
    ASSERT_TRUE(Drive(pipelines,
                      [&]
                      {
                          for (auto &o : quick)
                              if (!o.done)
                                  return false;
                          return slow.done;
                      }));
    for (auto &outcome : quick)
    {
        EXPECT_EQ(outcome.value, "2");
        EXPECT_LT(outcome.at, slow.at) << "a quick query waited for the slow one";
        EXPECT_LT(outcome.at - started, std::chrono::milliseconds(800));
    }
}

// A query that runs past the statement timeout is canceled (57014, which the API answers with
// 503), and the connection goes on with the next one.
TEST(HttpPipeline, AQueryPastTheStatementTimeoutIsCanceled)
{
    auto pipelines = Pipelines(1, 200);
    Db db(pipelines);
    auto started = Clock::now();
    Outcome slow;
    Outcome next;
    Start(db, TextQuery("SELECT pg_sleep(5)::text"), slow);
    Start(db, TextQuery("SELECT 'next'"), next);
    ASSERT_TRUE(Drive(pipelines, [&] { return slow.done && next.done; }));
    EXPECT_EQ(slow.sqlstate, "57014");
    EXPECT_LT(slow.at - started, std::chrono::seconds(2));
    EXPECT_EQ(next.sqlstate, "");
    EXPECT_EQ(next.value, "next");
}

// The statement timeout cancels a query that runs too long; one that waits too long behind
// others in the pipeline (each of them quick enough) is answered with 57014 as well, once it has
// waited twice that long, and its result is dropped when it comes: the next query gets its own.
TEST(HttpPipeline, AQueryWaitingPastTheStatementTimeoutIsAnswered)
{
    auto pipelines = Pipelines(1, 1000);
    Db db(pipelines);
    auto started = Clock::now();
    std::vector<Outcome> sleeps(8);
    for (auto &sleep : sleeps)
    {
        Start(db, TextQuery("SELECT pg_sleep(0.4)::text"), sleep);
    }
    Outcome late;
    Start(db, TextQuery("SELECT 'late'"), late);
    ASSERT_TRUE(Drive(pipelines, [&] { return late.done; }));
    EXPECT_EQ(sleeps[0].sqlstate, "");
    EXPECT_EQ(late.sqlstate, "57014")
        << "answered '" << late.value << "' after "
        << std::chrono::duration<double>(late.at - started).count() << " s";
    // Its turn in the pipeline would have come after 3.2 s of sleeps.
    EXPECT_LT(late.at - started, std::chrono::milliseconds(2800));

    Outcome next;
    Start(db, TextQuery("SELECT 'next'"), next);
    ASSERT_TRUE(Drive(pipelines, [&] { return next.done; }));
    EXPECT_EQ(next.sqlstate, "");
    EXPECT_EQ(next.value, "next");
    for (auto &sleep : sleeps)
    {
        EXPECT_TRUE(sleep.done);
    }
}
