// The pipeline client (client/pq): statements answered in order, each in its own transaction, an
// error's fields, blocking and non-blocking reads, and a lost connection.
#include <poll.h>

#include <string>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "codec/error_position.hpp"
#include "pq/pipeline.hpp"
#include "test_env.hpp"

namespace
{

using permanode::pq::Outcome;
using permanode::pq::Params;
using permanode::pq::Pipeline;
using permanode::pq::ServerError;

std::string Value(const Outcome &outcome)
{
    EXPECT_FALSE(outcome.error) << outcome.error->what();
    return outcome.result ? std::string(outcome.result->Text(0, 0)) : "";
}

TEST(PqPipeline, AnErrorEndsOnlyItsOwnStatement)
{
    Pipeline pipeline(permanode::test::TestDsn());
    pipeline.Run("CREATE TEMP TABLE pq_pipeline_rows (n int PRIMARY KEY)");
    pipeline.Send("INSERT INTO pq_pipeline_rows VALUES (1)");
    pipeline.Send("INSERT INTO pq_pipeline_rows VALUES (2), (1)"); // a duplicate: rolled back
    pipeline.Send("SELECT string_agg(n::text, ',' ORDER BY n) FROM pq_pipeline_rows");
    EXPECT_EQ(pipeline.InFlight(), 3);

    EXPECT_FALSE(pipeline.Receive().error);
    Outcome duplicate = pipeline.Receive();
    ASSERT_TRUE(duplicate.error);
    EXPECT_EQ(duplicate.error->sqlstate(), "23505");
    EXPECT_NE(duplicate.error->detail().find("(n)=(1)"), std::string::npos)
        << duplicate.error->detail();
    EXPECT_EQ(duplicate.error->what(), duplicate.error->message());
    EXPECT_EQ(Value(pipeline.Receive()), "1");
    EXPECT_EQ(pipeline.InFlight(), 0);
}

TEST(PqPipeline, ParametersAndPreparedStatements)
{
    Pipeline pipeline(permanode::test::TestDsn());
    pipeline.Prepare("pq_pipeline_add", "SELECT ($1::int + $2::int)::text");
    std::string two = "2", binary_three = std::string("\0\0\0\3", 4);
    Params params;
    params.Add(two, permanode::pq::Format::kText);
    params.Add(binary_three, permanode::pq::Format::kBinary);
    pipeline.SendPrepared("pq_pipeline_add", params);
    Params with_null;
    with_null.AddNull();
    pipeline.Send("SELECT coalesce($1::text, 'null')", with_null);
    EXPECT_EQ(Value(pipeline.Receive()), "5");
    EXPECT_EQ(Value(pipeline.Receive()), "null");
    EXPECT_EQ(pipeline.Run("SELECT $1::text", Params({"x"}))->Text(0, 0), "x");
}

TEST(PqPipeline, ErrorFieldsAndTheDocumentedPosition)
{
    Pipeline pipeline(permanode::test::TestDsn());
    pipeline.Send("DO $$ BEGIN RAISE EXCEPTION 'no such block' USING ERRCODE = '22023', "
                  "DETAIL = 'The cone has 3 blocks.'; END $$");
    Outcome outcome = pipeline.Receive();
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(outcome.error->sqlstate(), "22023");
    EXPECT_EQ(outcome.error->message(), "no such block");
    EXPECT_EQ(outcome.error->Describe(), "no such block: The cone has 3 blocks.");
    EXPECT_NE(outcome.error->context().find("PL/pgSQL"), std::string::npos);
    EXPECT_FALSE(outcome.error->Position(permanode::codec::kConeBlock));

    // The server's position line, as codec/error_position.hpp writes it.
    ServerError positioned(
        {"22023", "bad block", "",
         "PL/pgSQL function f() line 3\n" +
             permanode::codec::PositionContext(permanode::codec::kConeBlock, 7)});
    EXPECT_EQ(positioned.Position(permanode::codec::kConeBlock), 7u);
    EXPECT_FALSE(positioned.Position(permanode::codec::kBatchTransaction));
}

TEST(PqPipeline, NonBlockingReadsWhatHasArrived)
{
    Pipeline pipeline(permanode::test::TestDsn());
    pipeline.SetNonBlocking();
    pipeline.Send("SELECT 'first'");
    pipeline.Send("SELECT 'second'");
    std::vector<std::string> values;
    for (int waits = 0; values.size() < 2 && waits < 100; waits++)
    {
        while (pipeline.Flush())
        {
        }
        pollfd readable{pipeline.Socket(), POLLIN, 0};
        ASSERT_GE(poll(&readable, 1, 100), 0);
        pipeline.Read();
        while (auto outcome = pipeline.TryReceive())
            values.push_back(Value(*outcome));
    }
    EXPECT_EQ(values, (std::vector<std::string>{"first", "second"}));
    EXPECT_FALSE(pipeline.TryReceive());
}

TEST(PqPipeline, ALostConnectionIsThrownAs08006)
{
    Pipeline pipeline(permanode::test::TestDsn());
    std::string pid(pipeline.Run("SELECT pg_backend_pid()::text")->Text(0, 0));
    pipeline.Send("SELECT pg_sleep(5)");
    {
        pqxx::connection admin(permanode::test::TestDsn());
        pqxx::nontransaction(admin).exec("SELECT pg_terminate_backend(" + pid + ")");
    }
    try
    {
        pipeline.Receive();
        ADD_FAILURE() << "no error";
    }
    catch (const ServerError &e)
    {
        EXPECT_EQ(e.sqlstate(), "08006");
        EXPECT_EQ(std::string(e.what()).rfind("lost the connection to the server: ", 0), 0u)
            << e.what();
    }
}

TEST(PqPipeline, CannotConnectIs08006)
{
    try
    {
        Pipeline pipeline("host=/nonexistent");
        ADD_FAILURE() << "connected";
    }
    catch (const ServerError &e)
    {
        EXPECT_EQ(e.sqlstate(), "08006");
        EXPECT_EQ(std::string(e.what()).rfind("cannot connect: ", 0), 0u) << e.what();
    }
}

} // namespace
