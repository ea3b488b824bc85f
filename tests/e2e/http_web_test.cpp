// The explorer's routes against the real fixtures: its pages and Chart.js served from the
// binary, the overview's analytics per milestone and per day, the tiers, and an address's
// balance over time, each held to what SQL over the same rollup tables says.
#include <cstdlib>
#include <map>
#include <vector>

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

namespace
{

// Every era in one database: the Chrysalis messages and the Shimmer fixtures of one network
// (http_load_chrysalis.sh), and the legacy transactions added (http_load_legacy.sh --existing).
class HttpWebErasTest : public HttpWebTest
{
  protected:
    static void SetUpTestSuite()
    {
        const std::string db = "permanode_http_web_eras";
        permanode::test::LoadDatabase("http_load_chrysalis.sh", db);
        admin_dsn_ = permanode::test::LoadDatabase("http_load_legacy.sh", db, "--existing");
        server_ = new RunningServer(admin_dsn_ + " user=" + permanode::test::kReaderRole);
    }
    static std::string Sql(const std::string &sql)
    {
        pqxx::connection connection(admin_dsn_);
        pqxx::work work(connection);
        auto value = work.exec1(sql)[0];
        std::string text = value.is_null() ? "" : value.c_str();
        work.commit();
        return text;
    }
    // The overview's per-day figures of one era, summed: {days, blocks, active addresses}.
    static std::vector<long long> DaySums(const json &overview, const std::string &era)
    {
        std::vector<long long> sums(3, 0);
        for (const auto &day : overview["days"])
        {
            if (day["era"] == era)
            {
                sums[0]++;
                sums[1] += day["blocks"].get<long long>();
                sums[2] += day["activeAddresses"].get<long long>();
            }
        }
        return sums;
    }
    static std::string admin_dsn_;
};
std::string HttpWebErasTest::admin_dsn_;

} // namespace

TEST_F(HttpWebErasTest, OverviewShowsEveryEraHeldInOrder)
{
    auto overview = GetJson("/api/analytics/v2/overview");
    // Milestones per era, in era order, a bucket never spanning two eras.
    std::map<std::string, long long> milestones, blocks, transactions;
    std::vector<std::string> order;
    for (const auto &bucket : overview["milestones"])
    {
        std::string era = bucket["era"];
        if (order.empty() || order.back() != era)
        {
            order.push_back(era);
        }
        milestones[era] += bucket["milestones"].get<long long>();
        blocks[era] += bucket["blocks"].get<long long>();
        transactions[era] += bucket["transactions"].get<long long>();
    }
    EXPECT_EQ(order, (std::vector<std::string>{"legacy", "chrysalis", "stardust"}));
    // The test network's three legacy milestones; Chrysalis 16241-16242; Stardust's four.
    EXPECT_EQ(milestones["legacy"], 3);
    EXPECT_EQ(milestones["chrysalis"], 2);
    EXPECT_EQ(milestones["stardust"], 4);
    EXPECT_EQ(std::to_string(blocks["legacy"]),
              Sql("SELECT count(*) FROM legacy.transactions WHERE milestone_index IS NOT NULL"));
    EXPECT_EQ(std::to_string(transactions["legacy"]),
              Sql("SELECT count(*) FROM legacy.transactions "
                  "WHERE milestone_index IS NOT NULL AND value <> 0"));
    EXPECT_EQ(std::to_string(blocks["chrysalis"]),
              Sql("SELECT sum(message_count) FROM permanode.ms_analytics "
                  "WHERE milestone_index IN (16241, 16242)"));

    // Per day: the legacy era's days hold all its transactions, Chrysalis's day its messages.
    auto legacy = DaySums(overview, "legacy");
    EXPECT_EQ(std::to_string(legacy[0]),
              Sql("SELECT count(DISTINCT (issued_at AT TIME ZONE 'UTC')::date) "
                  "FROM legacy.transactions"));
    EXPECT_EQ(std::to_string(legacy[1]), Sql("SELECT count(*) FROM legacy.transactions"));
    const std::string legacy_active =
        Sql("SELECT sum(n) FROM (SELECT count(DISTINCT address) AS n FROM legacy.transactions "
            "WHERE value <> 0 GROUP BY (issued_at AT TIME ZONE 'UTC')::date) s");
    EXPECT_EQ(std::to_string(legacy[2]), legacy_active);
    EXPECT_GT(legacy[2], 0);
    auto chrysalis = DaySums(overview, "chrysalis");
    EXPECT_EQ(chrysalis[0], 1);
    EXPECT_EQ(std::to_string(chrysalis[1]), std::to_string(blocks["chrysalis"]));
    EXPECT_EQ(DaySums(overview, "stardust")[1], blocks["stardust"]);
    // Days in order.
    for (std::size_t i = 1; i < overview["days"].size(); i++)
    {
        EXPECT_LE(overview["days"][i - 1]["date"].get<std::string>(),
                  overview["days"][i]["date"].get<std::string>());
    }

    // Rolled up (as maintain() does), the legacy days count the same addresses.
    EXPECT_NE(Sql("SELECT count(*) FROM legacy.daily_analytics WHERE NOT rolled_up"), "0");
    EXPECT_NE(Sql("SELECT legacy.rollup_daily_analytics()"), "0");
    EXPECT_EQ(Sql("SELECT count(*) FROM legacy.daily_analytics WHERE NOT rolled_up"), "0");
    auto rolled = GetJson("/api/analytics/v2/overview");
    EXPECT_EQ(DaySums(rolled, "legacy"), legacy);
}

TEST_F(HttpWebErasTest, TiersListTheLegacyMonthsBeforeTheLedgersRanges)
{
    auto tiers = GetJson("/api/analytics/v2/tiers");
    long long legacy_rows = 0, ledger_rows = 0;
    bool ledger_seen = false;
    for (const auto &range : tiers["ranges"])
    {
        if (range["era"] == "legacy")
        {
            EXPECT_FALSE(ledger_seen) << "legacy months come first";
            legacy_rows += range["rows"].get<long long>();
            EXPECT_EQ(range["label"],
                      Sql("SELECT legacy.month_name(" + range["fromRange"].dump() + ")"));
        }
        else
        {
            EXPECT_EQ(range["era"], "ledger");
            ledger_seen = true;
            ledger_rows += range["rows"].get<long long>();
            EXPECT_EQ(range["label"], range["toRange"].is_null()
                                          ? std::string("pending")
                                          : std::to_string(range["fromRange"].get<int>()));
        }
    }
    EXPECT_TRUE(ledger_seen);
    EXPECT_EQ(std::to_string(legacy_rows), Sql("SELECT sum(rows) FROM legacy.status"));
    EXPECT_EQ(std::to_string(ledger_rows), Sql("SELECT sum(rows) FROM permanode.status"));
    // 2018-03 (the iota.js sample bundle's month) is one of them.
    EXPECT_NE(tiers.dump().find("\"label\":\"2018-03\""), std::string::npos);
}
