// The explorer's milestone lists and whole-ledger figures (inx-chronicle's routes) end to end,
// over the database that holds both eras (http_load_chrysalis.sh), each answer against SQL over
// the same database.
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "http_fixture.hpp"
#include "permanode/client.hpp"
#include "running_server.hpp"

using nlohmann::json;
using permanode::test::RunningServer;

namespace
{

const std::string kExplorer = "/api/explorer/v2";
// Milestone 17340's ID (a Stardust one) and 16241's (a Chrysalis one).
const std::string kStardustMilestone =
    "0xa368e454c5c6db0ad1ee5b3e9af528c25c6887b3824680c055c0882fbb6e9eb4";
const std::string kChrysalisMilestone =
    "0x870b7d75497fca8f8370702747d337a439b7984d5b1c5fd8ac26b8fb72ba2130";

class HttpExplorerLedger : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        admin_dsn_ =
            permanode::test::LoadDatabase("http_load_chrysalis.sh", "permanode_http_explorer_e2e");
        server_ = new RunningServer(admin_dsn_ + " user=" + permanode::test::kReaderRole);
    }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
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
    // `path` (with its query, ending in ? or &) read page by page to the end: the items under
    // `key` of every page in order, and how many pages it took.
    static std::pair<json, int> AllPages(const std::string &path, const std::string &key)
    {
        json all = json::array();
        std::string cursor;
        int pages = 0;
        do
        {
            auto [status, page] = GetJson(path + (cursor.empty() ? "" : "&cursor=" + cursor));
            EXPECT_EQ(status, 200) << path << " " << page.dump();
            if (status != 200)
            {
                break;
            }
            for (const auto &item : page[key])
            {
                all.push_back(item);
            }
            cursor = page.value("cursor", "");
            pages++;
        } while (!cursor.empty() && pages < 100);
        return {all, pages};
    }
    // The rows of `sql`, each an array of its columns as text (null for NULL).
    static json Rows(const std::string &sql)
    {
        pqxx::connection connection(admin_dsn_);
        pqxx::nontransaction tx(connection);
        json rows = json::array();
        for (const auto &row : tx.exec(sql))
        {
            json columns = json::array();
            for (const auto &field : row)
            {
                columns.push_back(field.is_null() ? json(nullptr) : json(field.c_str()));
            }
            rows.push_back(columns);
        }
        return rows;
    }
    static std::string admin_dsn_;
    static RunningServer *server_;
};
std::string HttpExplorerLedger::admin_dsn_;
RunningServer *HttpExplorerLedger::server_ = nullptr;

void ExpectBadParameter(const std::pair<int, json> &response, const std::string &name)
{
    EXPECT_EQ(response.first, 400) << response.second.dump();
    EXPECT_EQ(response.second["error"]["code"], "400");
    EXPECT_NE(response.second["error"]["message"].get<std::string>().find(name), std::string::npos)
        << response.second.dump();
}

// The milestones of a list as [id, index, timestamp] texts, as Rows gives them.
json MilestoneRows(const json &items)
{
    json rows = json::array();
    for (const auto &item : items)
    {
        rows.push_back({item["milestoneId"], std::to_string(item["index"].get<int>()),
                        std::to_string(item["timestamp"].get<std::int64_t>())});
    }
    return rows;
}

} // namespace

TEST_F(HttpExplorerLedger, MilestonesPagedToTheEndEqualOneQuery)
{
    const std::string columns =
        "SELECT milestone_id::text, milestone_index::text, timestamp::text FROM "
        "permanode.milestones ";
    struct Case
    {
        std::string query;
        std::string where_order;
    };
    const Case cases[] = {
        {"", "ORDER BY milestone_index DESC"},
        {"sort=newest&", "ORDER BY milestone_index DESC"},
        {"sort=oldest&", "ORDER BY milestone_index"},
        {"startTimestamp=1664385901&endTimestamp=1664385906&",
         "WHERE timestamp BETWEEN 1664385901 AND 1664385906 ORDER BY milestone_index DESC"},
        {"sort=oldest&startTimestamp=1664385896&",
         "WHERE timestamp >= 1664385896 ORDER BY milestone_index"},
        {"endTimestamp=1664385901&", "WHERE timestamp <= 1664385901 ORDER BY milestone_index DESC"},
    };
    for (const auto &c : cases)
    {
        SCOPED_TRACE(c.query);
        auto expected = Rows(columns + c.where_order);
        ASSERT_GE(expected.size(), 2u);
        auto [items, pages] =
            AllPages(kExplorer + "/milestones?" + c.query + "pageSize=2", "items");
        EXPECT_EQ(MilestoneRows(items), expected);
        EXPECT_EQ(pages, static_cast<int>((expected.size() + 1) / 2));
        auto [one_page_status, one_page] = GetJson(kExplorer + "/milestones?" + c.query);
        EXPECT_EQ(one_page_status, 200);
        EXPECT_EQ(MilestoneRows(one_page["items"]), expected);
        EXPECT_FALSE(one_page.contains("cursor"));
    }
}

TEST_F(HttpExplorerLedger, MilestoneBlocksComeInWhiteFlagOrderWithTheirPayloadTypes)
{
    // The payload type numbers of each era, written out (Stardust TIP-24, Chrysalis TIP-6/7/8).
    auto expected_blocks = [](const std::string &index, const std::string &order)
    {
        return Rows("SELECT message_id::text, CASE version WHEN 2 THEN CASE variant WHEN "
                    "'tagged_data' THEN '5' WHEN 'transaction' THEN '6' WHEN 'milestone' THEN '7' "
                    "END ELSE CASE variant WHEN 'transaction' THEN '0' WHEN 'milestone' THEN '1' "
                    "WHEN 'indexation' THEN '2' END END, variant, white_flag_index::text FROM "
                    "permanode.messages m WHERE milestone_index = " +
                    index + " AND white_flag_index IS NOT NULL ORDER BY m.white_flag_index " +
                    order);
    };
    auto as_rows = [](const json &blocks)
    {
        json rows = json::array();
        for (const auto &b : blocks)
        {
            rows.push_back({b["blockId"],
                            b["payloadType"].is_null()
                                ? json(nullptr)
                                : json(std::to_string(b["payloadType"].get<int>())),
                            b["payloadKind"], std::to_string(b["whiteFlagIndex"].get<int>())});
        }
        return rows;
    };
    struct Case
    {
        std::string milestone_id;
        std::string index;
    };
    for (const Case &c : {Case{kStardustMilestone, "17340"}, Case{kChrysalisMilestone, "16241"}})
    {
        SCOPED_TRACE(c.index);
        auto in_order = expected_blocks(c.index, "ASC");
        ASSERT_GE(in_order.size(), 6u);
        const std::string by_id = kExplorer + "/milestones/" + c.milestone_id + "/blocks?";
        auto [blocks, pages] = AllPages(by_id + "pageSize=4", "blocks");
        EXPECT_EQ(as_rows(blocks), in_order);
        EXPECT_EQ(pages, static_cast<int>((in_order.size() + 3) / 4));
        auto [reversed, reversed_pages] = AllPages(by_id + "sort=newest&pageSize=4", "blocks");
        EXPECT_EQ(as_rows(reversed), expected_blocks(c.index, "DESC"));
        auto [by_index, by_index_pages] = AllPages(
            kExplorer + "/milestones/by-index/" + c.index + "/blocks?pageSize=5", "blocks");
        EXPECT_EQ(as_rows(by_index), in_order);
        auto first = GetJson(by_id + "pageSize=1000").second;
        EXPECT_EQ(first["milestoneIndex"], std::stoi(c.index));
    }
    // Each era's types were seen: a Stardust transaction (6), a Chrysalis indexation (2).
    auto stardust =
        as_rows(AllPages(kExplorer + "/milestones/" + kStardustMilestone + "/blocks?pageSize=1000",
                         "blocks")
                    .first);
    auto chrysalis =
        as_rows(AllPages(kExplorer + "/milestones/" + kChrysalisMilestone + "/blocks?pageSize=1000",
                         "blocks")
                    .first);
    auto has_type = [](const json &rows, const std::string &type)
    { return std::any_of(rows.begin(), rows.end(), [&](const json &r) { return r[1] == type; }); };
    EXPECT_TRUE(has_type(stardust, "6"));
    EXPECT_TRUE(has_type(chrysalis, "2"));
}

TEST_F(HttpExplorerLedger, BadParametersAre400AndAnUnknownMilestone404)
{
    auto unknown = GetJson(kExplorer + "/milestones/0x" + std::string(64, '0') + "/blocks");
    EXPECT_EQ(unknown.first, 404);
    EXPECT_EQ(unknown.second["error"]["code"], "404");
    ExpectBadParameter(GetJson(kExplorer + "/milestones/0x12/blocks"), "milestoneId");
    ExpectBadParameter(GetJson(kExplorer + "/milestones/by-index/x/blocks"), "index");
    ExpectBadParameter(GetJson(kExplorer + "/milestones/" + kStardustMilestone +
                               "/blocks?cursor=1.2.3.0x" + std::string(64, '0')),
                       "cursor");
    ExpectBadParameter(GetJson(kExplorer + "/milestones/" + kStardustMilestone + "/blocks?sort=up"),
                       "sort");
    ExpectBadParameter(GetJson(kExplorer + "/milestones?sort=latest"), "sort");
    ExpectBadParameter(GetJson(kExplorer + "/milestones?startTimestamp=-1"), "startTimestamp");
    ExpectBadParameter(GetJson(kExplorer + "/milestones?startTimestamp=20&endTimestamp=10"),
                       "endTimestamp");
    ExpectBadParameter(GetJson(kExplorer + "/milestones?pageSize=0"), "pageSize");
    ExpectBadParameter(GetJson(kExplorer + "/milestones?cursor=1.2.3.17"), "cursor");
    for (const char *top : {"0", "1001", "ten", "-5"})
    {
        ExpectBadParameter(GetJson(kExplorer + "/ledger/richest-addresses?top=" + top), "top");
    }
    for (const std::string route : {"/ledger/richest-addresses", "/ledger/token-distribution"})
    {
        SCOPED_TRACE(route);
        ExpectBadParameter(GetJson(kExplorer + route + "?ledgerIndex=1"), "ledgerIndex");
        ExpectBadParameter(GetJson(kExplorer + route + "?ledgerIndex=99999999"), "ledgerIndex");
        ExpectBadParameter(GetJson(kExplorer + route + "?ledgerIndex=abc"), "ledgerIndex");
    }
}

namespace
{

// Each address's balance over the outputs of `outputs` (address, amount), largest first.
std::string BalancesSql(const std::string &outputs)
{
    return "SELECT address::text, sum(amount)::text FROM (" + outputs +
           ") o WHERE address IS NOT NULL GROUP BY address ORDER BY sum(amount) DESC, "
           "address::text COLLATE \"C\"";
}

// The balances as of milestone N by the extension's own as-of function, address by address.
std::string BalancesAtSql(int n)
{
    const std::string at = std::to_string(n);
    return "SELECT a::text, sum(b.balance)::text FROM (SELECT address FROM "
           "permanode.unspent_outputs UNION SELECT address FROM permanode.retired_outputs) s(a), "
           "permanode.balance_at(a, " +
           at +
           ") b WHERE a IS NOT NULL GROUP BY a HAVING sum(b.balance) > 0 ORDER BY "
           "sum(b.balance) DESC, a::text COLLATE \"C\"";
}

json TopRows(const json &top)
{
    json rows = json::array();
    for (const auto &entry : top)
    {
        rows.push_back({entry["address"], entry["balance"]});
    }
    return rows;
}

} // namespace

TEST_F(HttpExplorerLedger, RichestAddressesEqualTheBalancesBySql)
{
    auto now = BalancesSql("SELECT address, amount FROM permanode.unspent_outputs WHERE "
                           "output_kind <> 'legacy'");
    auto newest = Rows("SELECT max(milestone_index)::text FROM permanode.milestone_protocols");
    auto expected_now = Rows(now);
    ASSERT_GE(expected_now.size(), 10u);
    auto [status, all] = GetJson(kExplorer + "/ledger/richest-addresses?top=1000");
    ASSERT_EQ(status, 200);
    EXPECT_EQ(TopRows(all["top"]), expected_now);
    EXPECT_EQ(std::to_string(all["ledgerIndex"].get<int>()), newest[0][0]);
    // The default is 100 (more than the fixtures' addresses); top cuts the same list.
    EXPECT_EQ(TopRows(GetJson(kExplorer + "/ledger/richest-addresses").second["top"]),
              expected_now);
    auto three = GetJson(kExplorer + "/ledger/richest-addresses?top=3").second["top"];
    EXPECT_EQ(TopRows(three),
              json(std::vector<json>(expected_now.begin(), expected_now.begin() + 3)));
    // as of the newest milestone: the same
    EXPECT_EQ(TopRows(GetJson(kExplorer + "/ledger/richest-addresses?top=1000&ledgerIndex=" +
                              newest[0][0].get<std::string>())
                          .second["top"]),
              expected_now);
}

TEST_F(HttpExplorerLedger, RichestAddressesAsOfAPastMilestoneOfEitherEra)
{
    auto now = TopRows(GetJson(kExplorer + "/ledger/richest-addresses?top=1000").second["top"]);
    for (int n : {16241, 16242, 17339, 17340})
    {
        SCOPED_TRACE(n);
        auto expected = Rows(BalancesAtSql(n));
        ASSERT_FALSE(expected.empty());
        auto [status, at] = GetJson(
            kExplorer + "/ledger/richest-addresses?top=1000&ledgerIndex=" + std::to_string(n));
        ASSERT_EQ(status, 200);
        EXPECT_EQ(at["ledgerIndex"], n);
        EXPECT_EQ(TopRows(at["top"]), expected);
        EXPECT_NE(TopRows(at["top"]), now); // the past differs from now
    }
    // The Chrysalis era answers with its own outputs: the richest address then held the
    // treasury-sized Chrysalis output of the fixtures.
    auto chrysalis =
        GetJson(kExplorer + "/ledger/richest-addresses?top=1&ledgerIndex=16241").second["top"];
    ASSERT_EQ(chrysalis.size(), 1u);
    EXPECT_EQ(chrysalis[0]["balance"],
              Rows("SELECT max(amount)::text FROM permanode.unspent_outputs WHERE output_kind = "
                   "'legacy'")[0][0]);
}

TEST_F(HttpExplorerLedger, TokenDistributionSumsToTheTotalsAndBucketsByPowersOfTen)
{
    auto check = [](const std::string &query, const std::string &balances_sql)
    {
        SCOPED_TRACE(query);
        auto [status, body] = GetJson(kExplorer + "/ledger/token-distribution" + query);
        ASSERT_EQ(status, 200);
        // Buckets by floor(log10(balance)), computed another way than the server's digit count.
        auto expected = Rows("SELECT (10::numeric ^ e)::text, (10::numeric ^ (e + 1))::text, "
                             "count(*)::text, sum(balance)::text FROM (SELECT floor(log(balance))"
                             "::int AS e, balance FROM (SELECT address, sum(amount::numeric) AS "
                             "balance FROM (" +
                             balances_sql +
                             ") o WHERE address IS NOT NULL GROUP BY address) b WHERE balance > 0)"
                             " d GROUP BY e ORDER BY e");
        ASSERT_GE(expected.size(), 2u);
        json got = json::array();
        for (const auto &bucket : body["distribution"])
        {
            got.push_back({std::to_string(bucket["range"]["start"].get<std::uint64_t>()),
                           std::to_string(bucket["range"]["end"].get<std::uint64_t>()),
                           bucket["addressCount"], bucket["totalBalance"]});
        }
        // numeric's power prints 10^e as 1000.0000000000000000: compare the integer part
        for (auto &row : expected)
        {
            for (int i : {0, 1})
            {
                auto text = row[i].get<std::string>();
                row[i] = text.substr(0, text.find('.'));
            }
        }
        EXPECT_EQ(got, expected);
        // The sums: every address with a balance, every token held.
        auto totals = Rows("SELECT count(DISTINCT address)::text, sum(amount)::text FROM (" +
                           balances_sql + ") o WHERE address IS NOT NULL");
        std::int64_t addresses = 0;
        std::int64_t tokens = 0;
        for (const auto &bucket : body["distribution"])
        {
            addresses += std::stoll(bucket["addressCount"].get<std::string>());
            tokens += std::stoll(bucket["totalBalance"].get<std::string>());
        }
        EXPECT_EQ(std::to_string(addresses), totals[0][0]);
        EXPECT_EQ(std::to_string(tokens), totals[0][1]);
    };
    check("", "SELECT address, amount FROM permanode.unspent_outputs WHERE output_kind <> "
              "'legacy'");
    for (int n : {16241, 17339})
    {
        check("?ledgerIndex=" + std::to_string(n),
              "SELECT s.address, o.amount FROM (SELECT DISTINCT address FROM "
              "permanode.unspent_outputs UNION SELECT address FROM permanode.retired_outputs) s, "
              "permanode.outputs_at(s.address, " +
                  std::to_string(n) + ") o");
    }
    EXPECT_EQ(
        GetJson(kExplorer + "/ledger/token-distribution?ledgerIndex=17339").second["ledgerIndex"],
        17339);
}

TEST_F(HttpExplorerLedger, ClientLibraryCallsAgreeWithTheRoutes)
{
    permanode::client::Client client(admin_dsn_);
    auto richest = client.GetRichestAddresses(17339, 5);
    auto route =
        GetJson(kExplorer + "/ledger/richest-addresses?top=5&ledgerIndex=17339").second["top"];
    ASSERT_EQ(richest.top.size(), route.size());
    for (std::size_t i = 0; i < route.size(); i++)
    {
        EXPECT_EQ(richest.top[i].address, route[i]["address"]);
        EXPECT_EQ(std::to_string(richest.top[i].balance), route[i]["balance"]);
    }
    permanode::client::MilestoneFilter oldest;
    oldest.sort = permanode::client::SortOrder::kOldest;
    auto first = client.GetMilestones(oldest, 1, std::nullopt);
    ASSERT_EQ(first.items.size(), 1u);
    EXPECT_EQ(first.items[0].milestone_id, kChrysalisMilestone);
    ASSERT_TRUE(first.next);
    auto second = client.GetMilestones(oldest, 1, first.next);
    ASSERT_EQ(second.items.size(), 1u);
    EXPECT_GT(second.items[0].milestone_index, first.items[0].milestone_index);
    auto blocks = client.GetMilestoneBlocksWithKind(16241, permanode::client::SortOrder::kOldest,
                                                    100, std::nullopt);
    ASSERT_EQ(blocks.items.size(), 6u);
    EXPECT_EQ(blocks.items[1].variant, "indexation");
    EXPECT_EQ(blocks.items[1].protocol_version, permanode::client::kChrysalis);
}
