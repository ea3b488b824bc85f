// The explorer's legacy transaction route (/api/explorer/v2/legacy/transactions/{hash}) against
// the real legacy transactions (http_load_legacy.sh), as the read-only login: every transaction
// held answers its row of legacy.transactions, field by field (its time formatted here, not by
// SQL); a hash not held is a 404 naming it, a malformed one a 400 naming the parameter.
#include <cstdlib>
#include <ctime>
#include <set>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "http_fixture.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using nlohmann::json;
using permanode::test::RunningServer;
using permanode::test::TestDsn;

namespace
{

const std::string kDatabase = "permanode_http_legacy_explorer";
const std::string kRoute = "/api/explorer/v2/legacy/transactions/";

// Milliseconds since 1970 as ISO 8601 in UTC with milliseconds (2017-11-03T09:12:45.123Z).
std::string IsoUtc(long long ms)
{
    std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[40];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    char millis[8];
    std::snprintf(millis, sizeof millis, ".%03lldZ", ms % 1000);
    return std::string(text) + millis;
}

class HttpLegacyExplorer : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        admin_dsn_ = permanode::test::LoadDatabase("http_load_legacy.sh", kDatabase);
        server_ = new RunningServer(admin_dsn_ + " user=" + permanode::test::kReaderRole);
    }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
    // The status and JSON body of GET `path`.
    static std::pair<int, json> Get(const std::string &path)
    {
        auto result = server_->Get(path);
        if (!result)
        {
            ADD_FAILURE() << "no response to " << path;
            return {0, json()};
        }
        EXPECT_EQ(result->get_header_value("Content-Type"), "application/json") << path;
        return {result->status, json::parse(result->body, nullptr, false)};
    }
    static std::string admin_dsn_;
    static RunningServer *server_;
};
std::string HttpLegacyExplorer::admin_dsn_;
RunningServer *HttpLegacyExplorer::server_ = nullptr;

// The error message of an answer, which must have `status`.
std::string ErrorMessage(const std::pair<int, json> &answer, int status)
{
    EXPECT_EQ(answer.first, status) << answer.second.dump();
    if (!answer.second.contains("error"))
    {
        ADD_FAILURE() << "no error in " << answer.second.dump();
        return "";
    }
    EXPECT_EQ(answer.second["error"]["code"], std::to_string(status));
    return answer.second["error"]["message"].get<std::string>();
}

} // namespace

TEST_F(HttpLegacyExplorer, EveryTransactionAnswersItsRow)
{
    pqxx::connection connection(admin_dsn_);
    pqxx::work work(connection);
    auto rows = work.exec(
        "SELECT hash::text, address::text, value, tag::text, obsolete_tag::text, bundle::text, "
        "trunk::text, branch::text, current_index, last_index, timestamp, attachment_timestamp, "
        "(extract(epoch FROM issued_at) * 1000)::bigint, legacy.month_name(month_id), "
        "milestone_index FROM legacy.transactions ORDER BY hash");
    ASSERT_GT(rows.size(), 10u);
    const std::set<std::string> keys = {
        "hash",     "address", "value",         "tag",       "obsoleteTag", "bundle",
        "trunk",    "branch",  "currentIndex",  "lastIndex", "timestamp",   "attachmentTimestamp",
        "issuedAt", "month",   "milestoneIndex"};
    int confirmed = 0, unconfirmed = 0;
    for (const auto &row : rows)
    {
        std::string hash = row[0].c_str();
        auto [status, body] = Get(kRoute + hash);
        ASSERT_EQ(status, 200) << hash << ": " << body.dump();
        std::set<std::string> got;
        for (const auto &[key, value] : body.items())
        {
            got.insert(key);
        }
        EXPECT_EQ(got, keys) << body.dump();
        EXPECT_EQ(body["hash"], hash);
        EXPECT_EQ(body["address"], row[1].c_str()) << hash;
        EXPECT_EQ(body["value"], row[2].as<long long>()) << hash;
        EXPECT_EQ(body["tag"], row[3].c_str()) << hash;
        EXPECT_EQ(body["obsoleteTag"], row[4].c_str()) << hash;
        EXPECT_EQ(body["bundle"], row[5].c_str()) << hash;
        EXPECT_EQ(body["trunk"], row[6].c_str()) << hash;
        EXPECT_EQ(body["branch"], row[7].c_str()) << hash;
        EXPECT_EQ(body["currentIndex"], row[8].as<long long>()) << hash;
        EXPECT_EQ(body["lastIndex"], row[9].as<long long>()) << hash;
        EXPECT_EQ(body["timestamp"], row[10].as<long long>()) << hash;
        EXPECT_EQ(body["attachmentTimestamp"], row[11].as<long long>()) << hash;
        std::string issued = IsoUtc(row[12].as<long long>());
        EXPECT_EQ(body["issuedAt"], issued) << hash;
        // The month is the issue time's (UTC), as legacy.month_name names the partition's.
        EXPECT_EQ(body["month"], issued.substr(0, 7)) << hash;
        EXPECT_EQ(body["month"], row[13].c_str()) << hash;
        if (row[14].is_null())
        {
            EXPECT_TRUE(body["milestoneIndex"].is_null()) << hash;
            unconfirmed++;
        }
        else
        {
            EXPECT_EQ(body["milestoneIndex"], row[14].as<int>()) << hash;
            confirmed++;
        }
    }
    // The fixtures hold both: transactions a milestone confirmed and others.
    EXPECT_GT(confirmed, 0);
    EXPECT_GT(unconfirmed, 0);
}

TEST_F(HttpLegacyExplorer, AHashNotHeldIsA404NamingIt)
{
    std::string unknown = "UNKNOWNTRANSACTION" + std::string(63, '9');
    std::string message = ErrorMessage(Get(kRoute + unknown), 404);
    EXPECT_NE(message.find(unknown), std::string::npos) << message;
}

TEST_F(HttpLegacyExplorer, AMalformedHashIsA400NamingTheParameter)
{
    pqxx::connection connection(admin_dsn_);
    pqxx::work work(connection);
    std::string held = work.exec1("SELECT min(hash::text) FROM legacy.transactions")[0].c_str();
    // Too short, too long (a hash carries no checksum: 90 trytes is no hash), not trytes.
    std::string lower = held;
    lower[0] = 'a';
    for (const std::string &bad :
         {held.substr(0, 80), held + "ABCDEFGHI", lower, std::string("0x") + held.substr(2)})
    {
        std::string message = ErrorMessage(Get(kRoute + bad), 400);
        EXPECT_NE(message.find("hash"), std::string::npos) << bad << ": " << message;
    }
}

TEST_F(HttpLegacyExplorer, TheOpenApiDocumentListsTheRoute)
{
    auto [status, doc] = Get("/api/openapi.json");
    ASSERT_EQ(status, 200);
    json get = doc["paths"]["/api/explorer/v2/legacy/transactions/{hash}"]["get"];
    EXPECT_EQ(get["tags"], json::array({"explorer"}));
    EXPECT_EQ(get["parameters"][0]["name"], "hash");
}
