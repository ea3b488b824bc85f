// The explorer's routes against the real fixtures: its pages and Chart.js served from the
// binary, the overview's analytics per milestone and per day, the tiers, and an address's
// balance over time, each held to what SQL over the same rollup tables says.
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "http_fixture.hpp"
#include "running_server.hpp"

using nlohmann::json;
using permanode::test::FixtureAdminDsn;
using permanode::test::FixtureReaderDsn;
using permanode::test::RunningServer;

namespace
{

class HttpWebTest : public ::testing::Test
{
  protected:
    static void SetUpTestSuite() { server_ = new RunningServer(FixtureReaderDsn()); }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
    static json GetJson(const std::string &path)
    {
        auto result = server_->Get(path);
        EXPECT_TRUE(result) << path;
        if (!result)
        {
            return json();
        }
        EXPECT_EQ(result->status, 200) << path << ": " << result->body;
        return json::parse(result->body);
    }
    static std::string Sql(const std::string &sql)
    {
        pqxx::connection connection(FixtureAdminDsn());
        pqxx::work work(connection);
        return work.exec1(sql)[0].c_str();
    }
    static RunningServer *server_;
};
RunningServer *HttpWebTest::server_ = nullptr;

} // namespace

TEST_F(HttpWebTest, PagesAndChartJsAreServedFromTheBinary)
{
    auto page = server_->Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->get_header_value("Content-Type").rfind("text/html", 0), 0u);
    EXPECT_NE(page->body.find("<script src=\"/web/chart.min.js\">"), std::string::npos);
    auto chart = server_->Get("/web/chart.min.js");
    ASSERT_TRUE(chart);
    EXPECT_EQ(chart->status, 200);
    EXPECT_NE(chart->body.find("Chart.js v3.9.1"), std::string::npos);
    EXPECT_GT(chart->body.size(), 100000u);
    auto license = server_->Get("/web/chart.js.LICENSE.txt");
    ASSERT_TRUE(license);
    EXPECT_NE(license->body.find("MIT"), std::string::npos);
    EXPECT_EQ(server_->Get("/web/app.js")->status, 200);
    EXPECT_EQ(server_->Get("/web/style.css")->status, 200);
    auto missing = server_->Get("/web/nothing.js");
    EXPECT_EQ(missing->status, 404);
    EXPECT_NE(
        json::parse(missing->body)["error"]["message"].get<std::string>().find("/web/nothing.js"),
        std::string::npos);
    // POST / stays the legacy node API.
    httplib::Client client("127.0.0.1", server_->Port());
    auto iri = client.Post("/", {{"X-IOTA-API-Version", "1"}}, R"({"command":"getNodeInfo"})",
                           "application/json");
    ASSERT_TRUE(iri);
    EXPECT_NE(iri->status, 404);
}

TEST_F(HttpWebTest, OverviewSumsTheRollupsPerMilestoneAndPerDay)
{
    auto overview = GetJson("/api/analytics/v2/overview");
    // The fixtures' four milestones (17339-17341 and 2418187): one a bucket.
    EXPECT_EQ(overview["bucketWidth"], 1);
    long long blocks = 0, milestones = 0;
    for (const auto &bucket : overview["milestones"])
    {
        blocks += bucket["blocks"].get<long long>();
        milestones += bucket["milestones"].get<long long>();
        EXPECT_LE(bucket["first"].get<int>(), bucket["last"].get<int>());
    }
    EXPECT_EQ(overview["milestones"].size(), 4u);
    EXPECT_EQ(overview["milestones"][3]["first"], 2418187);
    EXPECT_EQ(milestones, std::stoll(Sql("SELECT count(*) FROM permanode.ms_analytics")));
    EXPECT_EQ(blocks, std::stoll(Sql("SELECT sum(message_count) FROM permanode.ms_analytics")));
    EXPECT_EQ(overview["milestones"][0]["first"], 17339);
    long long day_blocks = 0;
    for (const auto &day : overview["days"])
    {
        day_blocks += day["blocks"].get<long long>();
        EXPECT_GT(day["activeAddresses"].get<int>(), 0) << day.dump();
    }
    EXPECT_EQ(day_blocks, blocks);
    EXPECT_EQ(overview["days"].size(),
              std::stoul(Sql("SELECT count(DISTINCT date) FROM permanode.date_cache")));
}

TEST_F(HttpWebTest, TiersSumPermanodeStatusPerRange)
{
    auto tiers = GetJson("/api/analytics/v2/tiers");
    long long rows = 0;
    for (const auto &range : tiers["ranges"])
    {
        EXPECT_EQ(range["tier"], "hot");
        rows += range["rows"].get<long long>();
    }
    EXPECT_GE(tiers["ranges"].size(), 2u);
    EXPECT_EQ(rows, std::stoll(Sql("SELECT sum(rows) FROM permanode.status")));
}

TEST_F(HttpWebTest, BalanceHistoryIsTheNetFlowOfAddressAnalytics)
{
    std::string address = Sql("SELECT address::text FROM permanode.address_analytics "
                              "GROUP BY address ORDER BY count(*) DESC, address LIMIT 1");
    auto body = GetJson("/api/analytics/v2/addresses/" + address + "/balance-history");
    EXPECT_EQ(body["address"], address);
    auto history = body["history"];
    ASSERT_FALSE(history.empty());
    EXPECT_EQ(history.size(), std::stoul(Sql("SELECT count(*) FROM permanode.address_analytics "
                                             "WHERE address = '" +
                                             address + "'")));
    EXPECT_EQ(history.back()["netFlow"].get<std::string>(),
              Sql("SELECT sum(recv_tokens - sent_tokens) FROM permanode.address_analytics "
                  "WHERE address = '" +
                  address + "'"));
    for (std::size_t i = 1; i < history.size(); i++)
    {
        EXPECT_LT(history[i - 1]["milestoneIndex"].get<int>(),
                  history[i]["milestoneIndex"].get<int>());
    }
    // Only the newest pageSize milestones, their net flow still counted from the first.
    auto last = GetJson("/api/analytics/v2/addresses/" + address + "/balance-history?pageSize=1");
    ASSERT_EQ(last["history"].size(), 1u);
    EXPECT_EQ(last["history"][0], history.back());
    auto bad = server_->Get("/api/analytics/v2/addresses/smr1nothing/balance-history");
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(bad->body.find("address"), std::string::npos);
}

TEST_F(HttpWebTest, OpenApiListsTheNewRoutes)
{
    auto doc = GetJson("/api/openapi.json");
    for (const char *path :
         {"/api/analytics/v2/overview", "/api/analytics/v2/tiers",
          "/api/analytics/v2/addresses/{address}/balance-history", "/", "/web/{file}"})
    {
        EXPECT_TRUE(doc["paths"].contains(path)) << path;
    }
    EXPECT_TRUE(doc["paths"]["/"].contains("get"));
    EXPECT_TRUE(doc["paths"]["/"].contains("post"));
}
