// Every route answers the same over hot and archived data: the fixtures' older milestone range is
// moved into RocksDB archives between two rounds of the same requests, served as the read-only
// login (as `permanode serve` logs in), and every response must match, byte for byte.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "http_fixture.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using permanode::test::RunningServer;
using permanode::test::TestDsn;

namespace
{

struct Answer
{
    int status = 0;
    std::string body;
};

// The value of the first column of the query's first row.
std::string One(pqxx::connection &connection, const std::string &sql)
{
    return pqxx::nontransaction(connection).exec1(sql)[0].c_str();
}

} // namespace

TEST(HttpTiers, EveryRouteAnswersTheSameOverArchivedRanges)
{
    const std::string db = "permanode_http_tiers";
    std::string dsn = permanode::test::LoadDatabase("http_load_fixtures.sh", db);
    ASSERT_FALSE(HasFailure());
    pqxx::connection admin(dsn);

    // Keys of the older range (1: milestones 17339-17341; 241 holds milestone 2418187).
    std::string block = One(admin, "SELECT message_id FROM permanode.messages WHERE ms_range_id = "
                                   "1 AND variant = 'transaction' ORDER BY message_id LIMIT 1");
    std::string transaction =
        One(admin, "SELECT transaction_id FROM permanode.transactions WHERE message_id = '" +
                       block + "' LIMIT 1");
    std::string output = One(admin, "SELECT output_id FROM permanode.basic_outputs WHERE "
                                    "ms_range_id = 1 ORDER BY output_id LIMIT 1");
    std::string spent = One(admin, "SELECT output_id FROM permanode.spent_outputs WHERE "
                                   "ms_range_id = 1 ORDER BY output_id LIMIT 1");
    std::string parent = One(admin, "SELECT parent_id FROM permanode.parents WHERE ms_range_id = "
                                    "1 GROUP BY parent_id ORDER BY count(*) DESC, 1 LIMIT 1");
    std::string address =
        One(admin, "SELECT address FROM permanode.basic_outputs WHERE address IS NOT NULL AND "
                   "ms_range_id = 1 GROUP BY address ORDER BY count(*) DESC, 1 LIMIT 1");
    std::string milestone_id =
        One(admin, "SELECT milestone_id FROM permanode.milestones WHERE milestone_index = 17340");
    std::string tag = One(admin, "SELECT '0x' || encode(tag, 'hex') FROM permanode.tags WHERE "
                                 "ms_range_id = 1 ORDER BY tag LIMIT 1");
    const std::vector<std::string> paths = {
        "/api/core/v2/blocks/" + block,
        "/api/core/v2/blocks/" + block + "/metadata",
        "/api/core/v2/outputs/" + output,
        "/api/core/v2/outputs/" + spent + "/metadata",
        "/api/core/v2/transactions/" + transaction + "/included-block",
        "/api/core/v2/milestones/by-index/17340",
        "/api/core/v2/milestones/by-index/17340/utxo-changes",
        "/api/core/v2/milestones/" + milestone_id,
        "/api/core/v2/milestones/" + milestone_id + "/utxo-changes",
        "/api/indexer/v1/outputs/basic?includeSpent=true&address=" + address,
        "/api/indexer/v1/outputs/basic?includeSpent=true&pageSize=3",
        "/messages/" + block,
        "/messages/" + block + "/metadata",
        "/messages/" + parent + "/children",
        "/messages?index=" + tag,
        "/addresses/" + address + "/outputs",
        "/outputs/" + output,
        "/milestones/17340",
        "/api/explorer/v2/blocks/" + parent + "/children",
        "/api/explorer/v2/ledger/updates/by-address/" + address,
        "/api/explorer/v2/ledger/updates/by-milestone/17340",
        "/api/explorer/v2/balance/" + address,
        "/api/analytics/v2/milestones/17340",
        "/api/analytics/v2/daily?from=2022-09-01&to=2023-03-01",
    };

    auto ask = [&](RunningServer &server)
    {
        std::vector<Answer> answers;
        for (const auto &path : paths)
        {
            auto result = server.Get(path);
            answers.push_back(result ? Answer{result->status, result->body} : Answer{});
        }
        // The raw bytes of a block too.
        auto raw = server.Get("/api/core/v2/blocks/" + block,
                              {{"Accept", "application/vnd.iota.serializer-v1"}});
        answers.push_back(raw ? Answer{raw->status, raw->body} : Answer{});
        return answers;
    };

    std::string reader = TestDsn() + " dbname=" + db + " user=permanode_http_test";
    RunningServer server(reader);
    auto hot = ask(server);
    for (std::size_t i = 0; i < hot.size(); i++)
    {
        EXPECT_EQ(hot[i].status, 200) << (i < paths.size() ? paths[i] : "raw block") << "\n"
                                      << hot[i].body;
        EXPECT_GT(hot[i].body.size(), 20u) << (i < paths.size() ? paths[i] : "raw block");
    }

    // Range 1 of every ledger table goes cold, while the server keeps its connections (and
    // their prepared statements).
    auto archived = pqxx::nontransaction(admin).exec(
        "SELECT table_name FROM permanode.archive(0, 240) WHERE archive IS NOT NULL");
    EXPECT_GE(archived.size(), 10u);
    EXPECT_GE(std::stoi(One(admin, "SELECT count(*) FROM permanode.status WHERE tier = 'cold'")),
              10);

    auto cold = ask(server);
    ASSERT_EQ(cold.size(), hot.size());
    for (std::size_t i = 0; i < hot.size(); i++)
    {
        std::string what = i < paths.size() ? paths[i] : "raw block";
        EXPECT_EQ(cold[i].status, hot[i].status) << what << "\n" << cold[i].body;
        EXPECT_EQ(cold[i].body, hot[i].body) << what;
    }
    // And from fresh connections.
    RunningServer fresh(reader);
    auto cold_fresh = ask(fresh);
    for (std::size_t i = 0; i < hot.size(); i++)
    {
        std::string what = i < paths.size() ? paths[i] : "raw block";
        EXPECT_EQ(cold_fresh[i].status, hot[i].status) << what << "\n" << cold_fresh[i].body;
        EXPECT_EQ(cold_fresh[i].body, hot[i].body) << what;
    }
    // Back, and the archives' files removed.
    pqxx::nontransaction(admin).exec("SELECT count(*) FROM permanode.restore(0, 240)");
    pqxx::nontransaction(admin).exec("SELECT count(*) FROM permanode.archive_gc()");
}
