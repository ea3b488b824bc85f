// The HTTP server end to end, with a real HTTP client: errors, paging, raw bytes, the read-only
// database connection, metrics and the OpenAPI document.
#include <poll.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "codec/bech32.hpp"
#include "codec/hex.hpp"
#include "http_fixture.hpp"
#include "permanode/client.hpp"
#include "server/pg_pipeline.hpp"
#include "running_server.hpp"

using nlohmann::json;
using permanode::test::FixtureAdminDsn;
using permanode::test::FixtureReaderDsn;
using permanode::test::RunningServer;

namespace
{

const std::string kBlock = "0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d";
const std::string kMilestoneBlock =
    "0x904351e0e82ec26389d96310fe060b050b056fddef701887b50baea07b62c35c";

class HttpTest : public ::testing::Test
{
  protected:
    static void SetUpTestSuite() { server_ = new RunningServer(FixtureReaderDsn()); }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
    // GET returning the status and the parsed JSON body.
    static std::pair<int, json> GetJson(const std::string &path)
    {
        auto result = server_->Get(path);
        if (!result)
        {
            ADD_FAILURE() << "no response for " << path;
            return {0, json()};
        }
        EXPECT_EQ(result->get_header_value("Content-Type").rfind("application/json", 0), 0u)
            << path;
        return {result->status, json::parse(result->body)};
    }
    static RunningServer *server_;
};
RunningServer *HttpTest::server_ = nullptr;

// The error body names the parameter and carries the status as a string code.
void ExpectBadParameter(const std::pair<int, json> &response, const std::string &name)
{
    EXPECT_EQ(response.first, 400);
    EXPECT_EQ(response.second["error"]["code"], "400");
    EXPECT_NE(response.second["error"]["message"].get<std::string>().find(name), std::string::npos)
        << response.second.dump();
}

} // namespace

TEST_F(HttpTest, BadIdsAndParametersAre400NamingTheParameter)
{
    ExpectBadParameter(GetJson("/api/core/v2/blocks/0x12"), "blockId");
    ExpectBadParameter(GetJson("/api/core/v2/outputs/" + kBlock), "outputId");
    ExpectBadParameter(GetJson("/api/core/v2/milestones/by-index/-3"), "index");
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/basic?address=smr1notanaddress"),
                       "address");
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/basic?pageSize=1001"), "pageSize");
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/basic?cursor=1.2"), "cursor");
    // Well-formed cursors of another list: a block ID where an output ID belongs, a bad ID, an
    // output ID where a ledger update's key belongs, a block ID where a white-flag index does.
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/basic?cursor=1.2.3." + kBlock), "cursor");
    ExpectBadParameter(GetJson("/addresses/smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9"
                               "uqtllx7/outputs?cursor=1.2.3.0xzz"),
                       "cursor");
    ExpectBadParameter(GetJson("/api/explorer/v2/ledger/updates/by-milestone/17340?cursor=1.2.3." +
                               kBlock + "0000"),
                       "cursor");
    ExpectBadParameter(GetJson("/milestones/17340?cursor=1.2.3." + kBlock), "cursor");
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/basic?hasTimelock=yes"), "hasTimelock");
    ExpectBadParameter(GetJson("/api/indexer/v1/outputs/foundry?sender=smr1qr4602uf226wm0gz6zac"
                               "eut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7"),
                       "sender");
    ExpectBadParameter(GetJson("/messages?index=zz"), "index");
}

TEST_F(HttpTest, MissingThingsAre404)
{
    auto missing = GetJson("/api/core/v2/blocks/0x" + std::string(64, '0'));
    EXPECT_EQ(missing.first, 404);
    EXPECT_EQ(missing.second["error"]["code"], "404");
    EXPECT_EQ(GetJson("/api/core/v2/milestones/by-index/17341").first, 404); // no payload yet
    EXPECT_EQ(GetJson("/api/core/v2/milestones/by-index/17341/utxo-changes").first, 200);
    EXPECT_EQ(GetJson("/api/core/v2/milestones/by-index/1/utxo-changes").first, 404);
    EXPECT_EQ(GetJson("/no/such/route").first, 404);
}

TEST_F(HttpTest, RawBytesWithTheSerializerAcceptHeader)
{
    pqxx::connection connection(FixtureAdminDsn());
    pqxx::nontransaction tx(connection);
    auto stored = pqxx::binarystring(
        tx.exec1("SELECT message FROM permanode.messages WHERE message_id = '" + kBlock + "'")[0]);

    auto raw = server_->Get("/api/core/v2/blocks/" + kBlock,
                            {{"Accept", "application/vnd.iota.serializer-v1"}});
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->status, 200);
    EXPECT_EQ(raw->get_header_value("Content-Type"), "application/vnd.iota.serializer-v1");
    EXPECT_EQ(raw->body, stored.str());

    auto [status, block] = GetJson("/api/core/v2/blocks/" + kBlock);
    EXPECT_EQ(status, 200);
    EXPECT_EQ(block["protocolVersion"], 2);
    EXPECT_EQ(block["payload"]["type"], 6);
}

TEST_F(HttpTest, IndexerPagesWithCursorsCoverTheWholeList)
{
    auto [status, all] = GetJson("/api/indexer/v1/outputs/nft?pageSize=1000");
    ASSERT_EQ(status, 200);
    EXPECT_EQ(all["ledgerIndex"], 2418187);
    EXPECT_FALSE(all.contains("cursor"));
    ASSERT_GT(all["items"].size(), 10u);

    std::vector<std::string> paged;
    std::string cursor;
    int pages = 0;
    do
    {
        auto [page_status, page] = GetJson("/api/indexer/v1/outputs/nft?pageSize=7" +
                                           (cursor.empty() ? "" : "&cursor=" + cursor));
        ASSERT_EQ(page_status, 200);
        ASSERT_LE(page["items"].size(), 7u);
        for (const auto &id : page["items"])
        {
            paged.push_back(id);
        }
        cursor = page.value("cursor", "");
        pages++;
    } while (!cursor.empty() && pages < 100);
    EXPECT_EQ(paged, all["items"].get<std::vector<std::string>>());
    EXPECT_EQ(pages, static_cast<int>((all["items"].size() + 6) / 7));
}

TEST_F(HttpTest, IncludeSpentSearchesAllOutputs)
{
    // A basic output spent by milestone 17340: not in the unspent set, found with includeSpent.
    pqxx::connection connection(FixtureAdminDsn());
    pqxx::nontransaction tx(connection);
    auto row = tx.exec1("SELECT s.output_id::text, b.address::text FROM permanode.spent_outputs s "
                        "JOIN permanode.basic_outputs b USING (output_id) "
                        "WHERE b.address IS NOT NULL ORDER BY 1 LIMIT 1");
    std::string spent = row[0].as<std::string>();
    std::string address = row[1].as<std::string>();
    auto unspent = GetJson("/api/indexer/v1/outputs/basic?address=" + address).second;
    auto history =
        GetJson("/api/indexer/v1/outputs/basic?includeSpent=true&address=" + address).second;
    auto contains = [](const json &list, const std::string &id)
    { return std::find(list.begin(), list.end(), id) != list.end(); };
    EXPECT_FALSE(contains(unspent["items"], spent));
    EXPECT_TRUE(contains(history["items"], spent));
}

TEST_F(HttpTest, UnlockableByAddressHandsAnExpiredOutputToItsReturnAddress)
{
    // The fixtures' one output with an expiration (in_memory_data.json, 17340/created/3): made
    // by milestone 17340 (2022-09-28) for one Ed25519 address, returning to another from
    // 1664389503 (2022-09-28 18:25:03) on. The newest milestone held, 2418187 (2023-02-14), is
    // past it: only the return address can unlock it.
    const std::string output =
        "0x7d84e9b133ffe486e3b3de0e5db80c021044351c59ae459e3215489686168d1b0000";
    auto ed25519 = [](const char *hex)
    {
        permanode::codec::Address address;
        address.id = permanode::codec::FromHexFixed<32>(hex).value();
        return permanode::codec::AddressToBech32(address, "smr");
    };
    const std::string owner =
        ed25519("7872a75c21801a96fb1aaa35617e6abe0b4530a1db70f64db15831a18bf413b5");
    const std::string return_address =
        ed25519("053733b724aa948837d8392dd146abf95184e3ea371daf170d136b0396e750e8");
    auto listed = [&output](const std::string &address, const std::string &more)
    {
        auto [status, page] =
            GetJson("/api/indexer/v1/outputs/basic?unlockableByAddress=" + address + more);
        EXPECT_EQ(status, 200);
        EXPECT_EQ(page["ledgerIndex"], 2418187);
        const auto &items = page["items"];
        return std::find(items.begin(), items.end(), output) != items.end();
    };
    for (const std::string more : {"", "&includeSpent=true"})
    {
        SCOPED_TRACE(more);
        EXPECT_TRUE(listed(return_address, more));
        EXPECT_FALSE(listed(owner, more));
    }
    // Both addresses still find it by the conditions themselves.
    auto by_owner = GetJson("/api/indexer/v1/outputs/basic?address=" + owner).second["items"];
    EXPECT_NE(std::find(by_owner.begin(), by_owner.end(), output), by_owner.end());
}

TEST_F(HttpTest, SeedRoutesPageChildrenAndMilestoneMessages)
{
    auto all = GetJson("/messages/" + kMilestoneBlock + "/children").second;
    ASSERT_EQ(all["childrenMessageIds"].size(), 7u);
    auto first = GetJson("/messages/" + kMilestoneBlock + "/children?pageSize=4").second;
    ASSERT_EQ(first["childrenMessageIds"].size(), 4u);
    auto second = GetJson("/messages/" + kMilestoneBlock +
                          "/children?pageSize=4&cursor=" + first["cursor"].get<std::string>())
                      .second;
    ASSERT_EQ(second["childrenMessageIds"].size(), 3u);
    EXPECT_FALSE(second.contains("cursor"));
    EXPECT_EQ(second["childrenMessageIds"][2], all["childrenMessageIds"][6]);

    auto cone = GetJson("/milestones/17340?pageSize=1000").second;
    EXPECT_EQ(cone["messageIds"].size(), 43u);
}

TEST_F(HttpTest, ExplorerBalanceAndAnalytics)
{
    auto balance =
        GetJson("/api/explorer/v2/balance/smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60"
                "usk9uqtllx7")
            .second;
    EXPECT_EQ(balance["totalBalance"], "508000");
    auto analytics = GetJson("/api/analytics/v2/milestones/17340").second;
    EXPECT_EQ(analytics["blockCount"], 43);
    EXPECT_EQ(analytics["transactionCount"], 7);
    auto updates = GetJson("/api/explorer/v2/ledger/updates/by-milestone/17340?pageSize=1000");
    EXPECT_EQ(updates.first, 200);
    EXPECT_EQ(updates.second["items"].size(), 16u); // 8 created, 8 spent
}

TEST_F(HttpTest, MetricsCountRequestsByRouteAndStatus)
{
    GetJson("/api/core/v2/blocks/0x12");
    auto result = server_->Get("/metrics");
    ASSERT_TRUE(result);
    EXPECT_EQ(result->status, 200);
    EXPECT_NE(result->body.find(
                  "permanode_http_requests_total{route=\"/api/core/v2/blocks/{blockId}\",status="
                  "\"400\"}"),
              std::string::npos);
    EXPECT_NE(result->body.find("permanode_http_request_duration_seconds_bucket{route="),
              std::string::npos);
    EXPECT_NE(result->body.find("permanode_http_pool_connections 2"), std::string::npos);
}

TEST_F(HttpTest, OpenApiDocumentListsTheRoutesAndFilters)
{
    auto [status, doc] = GetJson("/api/openapi.json");
    ASSERT_EQ(status, 200);
    EXPECT_EQ(doc["openapi"], "3.0.3");
    ASSERT_TRUE(doc["paths"].contains("/api/core/v2/blocks/{blockId}"));
    auto params = doc["paths"]["/api/indexer/v1/outputs/basic"]["get"]["parameters"];
    bool has_unlockable = false;
    for (const auto &p : params)
    {
        if (p["name"] == "unlockableByAddress")
        {
            has_unlockable = true;
            // It says when an expiration hands the output to the return address.
            EXPECT_NE(p["description"].get<std::string>().find("expiration"), std::string::npos);
        }
    }
    EXPECT_TRUE(has_unlockable);

    // The explorer's milestone lists and ledger figures, with their parameters and what they
    // answer (more than "OK").
    const std::map<std::string, std::vector<std::string>> explorer = {
        {"/api/explorer/v2/milestones",
         {"startTimestamp", "endTimestamp", "sort", "pageSize", "cursor"}},
        {"/api/explorer/v2/milestones/{milestoneId}/blocks",
         {"milestoneId", "sort", "pageSize", "cursor"}},
        {"/api/explorer/v2/milestones/by-index/{index}/blocks",
         {"index", "sort", "pageSize", "cursor"}},
        {"/api/explorer/v2/ledger/richest-addresses", {"top", "ledgerIndex"}},
        {"/api/explorer/v2/ledger/token-distribution", {"ledgerIndex"}}};
    for (const auto &[path, names] : explorer)
    {
        SCOPED_TRACE(path);
        ASSERT_TRUE(doc["paths"].contains(path));
        const auto &get = doc["paths"][path]["get"];
        std::vector<std::string> listed;
        for (const auto &p : get["parameters"])
        {
            listed.push_back(p["name"]);
            EXPECT_TRUE(p["in"] == "path" || p.contains("description")) << p.dump();
        }
        EXPECT_EQ(listed, names);
        auto answer = get["responses"]["200"]["description"].get<std::string>();
        EXPECT_NE(answer, "OK");
        EXPECT_EQ(answer.find("ledgerIndex") != std::string::npos,
                  path.find("/ledger/") != std::string::npos)
            << answer;
    }
}

TEST(HttpDatabaseDown, RoutesAnswer503AndTheServerStaysUp)
{
    RunningServer server("host=127.0.0.1 port=1 dbname=none connect_timeout=2");
    auto result = server.Get("/api/core/v2/blocks/" + kBlock);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->status, 503);
    auto body = json::parse(result->body);
    EXPECT_EQ(body["error"]["code"], "503");
    // Validation still answers without the database, and so do the metrics.
    EXPECT_EQ(server.Get("/api/core/v2/blocks/0x12")->status, 400);
    EXPECT_EQ(server.Get("/metrics")->status, 200);
}

// The server's pipelined connection, logged in as the reader, cannot write.
TEST(HttpReadOnlyConnection, AWriteThroughTheServersConnectionFails)
{
    permanode::http::PgPipeline pipeline(FixtureReaderDsn());
    permanode::client::Statement write{"write", "DELETE FROM permanode.unspent_outputs",
                                       permanode::client::Plan::kCustom};
    bool done = false;
    std::exception_ptr error;
    pipeline.Send(write, {},
                  [&](std::unique_ptr<permanode::client::Result>, std::exception_ptr e)
                  {
                      done = true;
                      error = e;
                  });
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done && std::chrono::steady_clock::now() < deadline)
    {
        pollfd fd{pipeline.Fd(), static_cast<short>(POLLIN | (pipeline.Flush() ? POLLOUT : 0)), 0};
        poll(&fd, 1, 100);
        pipeline.OnReadable();
    }
    ASSERT_TRUE(done) << "no answer within 10 s";
    ASSERT_TRUE(error) << "the reader role could write";
    try
    {
        std::rethrow_exception(error);
    }
    catch (const permanode::client::Error &e)
    {
        EXPECT_EQ(e.sqlstate(), "42501") << e.what();
    }
}
