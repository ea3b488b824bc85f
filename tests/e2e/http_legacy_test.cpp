// The legacy node API over HTTP, end to end: IRI's commands on POST / and /api against the real
// legacy transactions (http_load_legacy.sh), as the read-only login. What each answer must be is
// worked out here from the fixture files and tests/e2e/http_legacy_ledger.json (the bundles each
// milestone confirmed, the snapshot), the transactions read with the codec, never from the
// database: addresses (with and without checksums), bundles, tags, approvees and their
// intersections, confirmation, spent addresses, balances at each milestone; IRI's error shape,
// the header, the limits; and the same answers once every month is archived.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "codec/legacy/address.hpp"
#include "codec/legacy/transaction.hpp"
#include "http_fixture.hpp"
#include "running_server.hpp"
#include "test_env.hpp"

using nlohmann::json;
using permanode::test::RunningServer;
using permanode::test::TestDsn;
namespace legacy = permanode::codec::legacy;

namespace
{

const std::string kDatabase = "permanode_http_legacy";
const std::string kNullHash(81, '9');

std::string LegacyFixturesDir()
{
    return permanode::test::SharedFixturesDir("PERMANODE_LEGACY_FIXTURES", "legacy");
}

// A fixture transaction, decoded by the codec, with the milestone that confirmed it (the
// ledger file's, by its bundle; 0 when none).
struct Tx
{
    std::string hash;
    std::string trytes;
    legacy::Transaction fields;
    int milestone = 0;
};

// What the tests expect: every fixture transaction once, and the ledger file.
struct Ledger
{
    std::vector<Tx> txs;
    json plan;
    std::map<std::string, std::int64_t> snapshot;
    // The tail transaction of each milestone bundle: the Coordinator's, current index 0.
    std::map<int, std::string> milestone_hash;
};

const Ledger &L()
{
    static const Ledger ledger = []
    {
        Ledger l;
        std::ifstream plan_file(std::string(PERMANODE_SOURCE_DIR) +
                                "/tests/e2e/http_legacy_ledger.json");
        l.plan = json::parse(plan_file);
        std::map<std::string, int> confirmed;
        for (const auto &m : l.plan.at("milestones"))
        {
            for (const auto &bundle : m.at("bundles"))
            {
                confirmed[bundle.get<std::string>()] = m.at("index").get<int>();
            }
        }
        for (const auto &[address, balance] : l.plan.at("snapshot").items())
        {
            l.snapshot[address] = balance.get<std::int64_t>();
        }
        std::set<std::string> seen;
        std::vector<std::filesystem::path> files;
        for (const auto &entry : std::filesystem::directory_iterator(LegacyFixturesDir()))
        {
            if (entry.path().extension() == ".json")
            {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        for (const auto &path : files)
        {
            std::ifstream in(path);
            json doc = json::parse(in);
            for (const auto &t : doc.at("transactions"))
            {
                Tx tx;
                tx.hash = t.at("hash");
                tx.trytes = t.at("trytes");
                if (!seen.insert(tx.hash).second)
                {
                    continue;
                }
                tx.fields = legacy::DecodeTransaction(tx.trytes);
                auto it = confirmed.find(tx.fields.bundle);
                tx.milestone = it == confirmed.end() ? 0 : it->second;
                if (tx.fields.address == l.plan.at("coordinator") && tx.fields.current_index == 0 &&
                    tx.milestone > 0)
                {
                    l.milestone_hash[tx.milestone] = tx.hash;
                }
                l.txs.push_back(std::move(tx));
            }
        }
        return l;
    }();
    return ledger;
}

// The hashes of the transactions `keep` selects.
template <typename Keep> std::set<std::string> Where(Keep keep)
{
    std::set<std::string> out;
    for (const auto &tx : L().txs)
    {
        if (keep(tx))
        {
            out.insert(tx.hash);
        }
    }
    return out;
}

const Tx &ByHash(const std::string &prefix)
{
    for (const auto &tx : L().txs)
    {
        if (tx.hash.rfind(prefix, 0) == 0)
        {
            return tx;
        }
    }
    throw std::runtime_error("no fixture transaction " + prefix);
}

// An address's balance at the end of milestone m: its snapshot balance and the values of the
// transactions confirmed by then.
std::int64_t BalanceAt(const std::string &address, int m)
{
    auto it = L().snapshot.find(address);
    std::int64_t balance = it == L().snapshot.end() ? 0 : it->second;
    for (const auto &tx : L().txs)
    {
        if (tx.fields.address == address && tx.milestone > 0 && tx.milestone <= m)
        {
            balance += tx.fields.value;
        }
    }
    return balance;
}

std::string WithChecksum(const std::string &address)
{
    return address + legacy::AddressChecksum(address);
}

struct Answer
{
    int status = 0;
    json body;
    std::string version_header;
};

class HttpLegacy : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        admin_dsn_ = permanode::test::LoadDatabase("http_load_legacy.sh", kDatabase);
        server_ = new RunningServer(ReaderDsn());
    }
    static void TearDownTestSuite()
    {
        delete server_;
        server_ = nullptr;
    }
    static std::string ReaderDsn() { return admin_dsn_ + " user=" + permanode::test::kReaderRole; }

    // POSTs a raw body to `path` of `server` (with X-IOTA-API-Version unless told otherwise).
    static Answer PostRaw(RunningServer &server, const std::string &body,
                          const std::string &path = "/", bool version_header = true)
    {
        httplib::Client client("127.0.0.1", server.Port());
        client.set_read_timeout(30, 0);
        httplib::Headers headers;
        if (version_header)
        {
            headers.emplace("X-IOTA-API-Version", "1");
        }
        auto result = client.Post(path.c_str(), headers, body, "application/json");
        Answer answer;
        if (!result)
        {
            ADD_FAILURE() << "no response to " << body.substr(0, 200);
            return answer;
        }
        answer.status = result->status;
        answer.version_header = result->get_header_value("X-IOTA-API-Version");
        EXPECT_EQ(result->get_header_value("Content-Type"), "application/json");
        answer.body = json::parse(result->body, nullptr, false);
        EXPECT_FALSE(answer.body.is_discarded()) << result->body.substr(0, 200);
        return answer;
    }
    static Answer Post(const json &request, const std::string &path = "/")
    {
        return PostRaw(*server_, request.dump(), path);
    }
    // A command's 200 answer, which must carry the header and an integer duration.
    static json Ok(const json &request, const std::string &path = "/")
    {
        Answer answer = Post(request, path);
        EXPECT_EQ(answer.status, 200) << request.dump().substr(0, 300) << "\n"
                                      << answer.body.dump().substr(0, 500);
        EXPECT_EQ(answer.version_header, "1");
        EXPECT_TRUE(answer.body["duration"].is_number_integer()) << answer.body.dump();
        return answer.body;
    }
    static std::set<std::string> Found(const json &request)
    {
        json body = Ok(request);
        std::vector<std::string> hashes = body.at("hashes");
        std::set<std::string> found(hashes.begin(), hashes.end());
        EXPECT_EQ(found.size(), hashes.size()) << "a hash twice: " << body.dump();
        return found;
    }
    static std::string admin_dsn_;
    static RunningServer *server_;
};
std::string HttpLegacy::admin_dsn_;
RunningServer *HttpLegacy::server_ = nullptr;

// IRI's error: {"error": "...<names>...", "duration": N}, with the header.
void ExpectError(const Answer &answer, int status, const std::string &names)
{
    EXPECT_EQ(answer.status, status) << answer.body.dump();
    EXPECT_EQ(answer.version_header, "1");
    ASSERT_TRUE(answer.body["error"].is_string()) << answer.body.dump();
    EXPECT_NE(answer.body["error"].get<std::string>().find(names), std::string::npos)
        << "no \"" << names << "\" in " << answer.body.dump();
    EXPECT_TRUE(answer.body["duration"].is_number_integer()) << answer.body.dump();
    EXPECT_EQ(answer.body.size(), 2u) << answer.body.dump();
}

const std::string kUnknown = std::string("UNKNOWNTRANSACTION") + std::string(63, '9');

} // namespace

TEST_F(HttpLegacy, GetTrytesAnswersTheStoredTrytesInRequestOrderAndNinesForUnknownHashes)
{
    ASSERT_GE(L().txs.size(), 140u);
    json hashes = json::array();
    std::vector<std::string> expected;
    // every fixture transaction, newest file order reversed, with an unknown hash between
    for (auto it = L().txs.rbegin(); it != L().txs.rend(); ++it)
    {
        hashes.push_back(it->hash);
        expected.push_back(it->trytes);
        if (hashes.size() == 7)
        {
            hashes.push_back(kUnknown);
            expected.push_back(std::string(2673, '9'));
        }
    }
    for (const std::string path : {"/", "/api"})
    {
        json body = Ok({{"command", "getTrytes"}, {"hashes", hashes}}, path);
        ASSERT_EQ(body["trytes"].size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            EXPECT_EQ(body["trytes"][i], expected[i]) << hashes[i];
        }
    }
    json empty = Ok({{"command", "getTrytes"}, {"hashes", json::array()}});
    EXPECT_EQ(empty["trytes"], json::array());
}

TEST_F(HttpLegacy,
       FindTransactionsByAddressCoversValueAndZeroValueTransactionsWithOrWithoutChecksum)
{
    std::set<std::string> addresses;
    for (const auto &tx : L().txs)
    {
        addresses.insert(tx.fields.address);
    }
    ASSERT_GE(addresses.size(), 60u);
    int both_kinds = 0;
    for (const auto &address : addresses)
    {
        auto expected = Where([&](const Tx &tx) { return tx.fields.address == address; });
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"addresses", {address}}}), expected)
            << address;
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"addresses", {WithChecksum(address)}}}),
                  expected)
            << address;
        bool value = false, zero = false;
        for (const auto &tx : L().txs)
        {
            if (tx.fields.address == address)
            {
                (tx.fields.value == 0 ? zero : value) = true;
            }
        }
        both_kinds += value && zero;
    }
    EXPECT_GE(both_kinds, 3); // e.g. JNLHUU...'s input and its second signature fragment
    // A union within the field: two addresses, one given twice.
    std::string a = ByHash("ROILTKTL").fields.address; // the iota.js sample's input
    std::string b = ByHash("YD9HUVCQ").fields.address; // its remainder
    auto expected =
        Where([&](const Tx &tx) { return tx.fields.address == a || tx.fields.address == b; });
    EXPECT_EQ(expected.size(), 3u);
    EXPECT_EQ(Found({{"command", "findTransactions"}, {"addresses", {a, b, WithChecksum(a)}}}),
              expected);
    // The null address is one (IRI's test bundles use it); this one is no fixture's.
    std::string unused = std::string("NOSUCHADDRESS") + std::string(68, '9');
    ASSERT_TRUE(Where([&](const Tx &tx) { return tx.fields.address == unused; }).empty());
    EXPECT_EQ(Found({{"command", "findTransactions"}, {"addresses", {unused}}}),
              std::set<std::string>());
    EXPECT_EQ(Found({{"command", "findTransactions"}, {"addresses", {kNullHash}}}),
              Where([&](const Tx &tx) { return tx.fields.address == kNullHash; }));
}

TEST_F(HttpLegacy, FindTransactionsByBundleTagAndApprovee)
{
    std::set<std::string> bundles, tags, approvees;
    for (const auto &tx : L().txs)
    {
        bundles.insert(tx.fields.bundle);
        tags.insert(tx.fields.tag);
        approvees.insert(tx.fields.trunk_transaction);
        approvees.insert(tx.fields.branch_transaction);
    }
    for (const auto &bundle : bundles)
    {
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"bundles", {bundle}}}),
                  Where([&](const Tx &tx) { return tx.fields.bundle == bundle; }))
            << bundle;
    }
    int tagged = 0;
    for (const auto &tag : tags)
    {
        if (tag == std::string(27, '9'))
        {
            continue; // no tag: refused (below)
        }
        // As IRI, a tag may be given without its trailing nines.
        std::string shortened = tag.substr(0, tag.find_last_not_of('9') + 1);
        auto expected = Where([&](const Tx &tx) { return tx.fields.tag == tag; });
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"tags", {shortened}}}), expected) << tag;
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"tags", {tag}}}), expected) << tag;
        tagged++;
    }
    EXPECT_GE(tagged, 5);
    for (const auto &approvee : approvees)
    {
        EXPECT_EQ(Found({{"command", "findTransactions"}, {"approvees", {approvee}}}),
                  Where(
                      [&](const Tx &tx) {
                          return tx.fields.trunk_transaction == approvee ||
                                 tx.fields.branch_transaction == approvee;
                      }))
            << approvee;
    }
    // A transaction approving two of the approvees asked for is named once.
    const Tx &tail = ByHash("YD9HUVCQ");
    auto approvers =
        Found({{"command", "findTransactions"},
               {"approvees", {tail.fields.trunk_transaction, tail.fields.branch_transaction}}});
    EXPECT_EQ(approvers.count(tail.hash), 1u);
}

TEST_F(HttpLegacy, FindTransactionsIntersectsTheFieldsGiven)
{
    const Tx &input = ByHash("DKZYSMJA"); // HXSBZRKB... spends in several of IRI's test bundles
    std::string address = input.fields.address;
    auto of_address = Where([&](const Tx &tx) { return tx.fields.address == address; });
    auto in_bundle = Where([&](const Tx &tx) { return tx.fields.bundle == input.fields.bundle; });
    std::set<std::string> both;
    std::set_intersection(of_address.begin(), of_address.end(), in_bundle.begin(), in_bundle.end(),
                          std::inserter(both, both.begin()));
    ASSERT_LT(both.size(), of_address.size());
    ASSERT_LT(both.size(), in_bundle.size());
    ASSERT_GE(both.size(), 2u);
    EXPECT_EQ(Found({{"command", "findTransactions"},
                     {"addresses", {address}},
                     {"bundles", {input.fields.bundle}}}),
              both);
    // Three fields: the iota.js sample's tag, its branch, and its input address.
    const Tx &sample = ByHash("ROILTKTL");
    auto expected = Where(
        [&](const Tx &tx)
        {
            return tx.fields.tag == sample.fields.tag &&
                   (tx.fields.trunk_transaction == sample.fields.branch_transaction ||
                    tx.fields.branch_transaction == sample.fields.branch_transaction) &&
                   tx.fields.address == sample.fields.address;
        });
    EXPECT_EQ(expected.size(), 2u);
    EXPECT_EQ(Found({{"command", "findTransactions"},
                     {"tags", {sample.fields.tag}},
                     {"approvees", {sample.fields.branch_transaction}},
                     {"addresses", {WithChecksum(sample.fields.address)}}}),
              expected);
    // Disjoint fields, and an empty list: nothing.
    EXPECT_EQ(Found({{"command", "findTransactions"},
                     {"addresses", {address}},
                     {"bundles", {sample.fields.bundle}}}),
              std::set<std::string>());
    EXPECT_EQ(Found({{"command", "findTransactions"},
                     {"addresses", {address}},
                     {"bundles", json::array()}}),
              std::set<std::string>());
}

TEST_F(HttpLegacy, InclusionStatesAndSpentAddressesFollowTheConfirmingMilestones)
{
    json hashes = json::array();
    std::vector<bool> expected;
    for (const auto &tx : L().txs)
    {
        hashes.push_back(tx.hash);
        expected.push_back(tx.milestone > 0);
    }
    hashes.push_back(kUnknown);
    expected.push_back(false);
    json states = Ok({{"command", "getInclusionStates"}, {"transactions", hashes}})["states"];
    ASSERT_EQ(states.size(), expected.size());
    int confirmed = 0;
    for (std::size_t i = 0; i < expected.size(); i++)
    {
        EXPECT_EQ(states[i].get<bool>(), expected[i]) << hashes[i];
        confirmed += expected[i];
    }
    EXPECT_EQ(confirmed, 25);
    // tips are checked, then not needed
    EXPECT_EQ(Ok({{"command", "getInclusionStates"},
                  {"transactions", {L().txs[0].hash}},
                  {"tips", {kUnknown}}})["states"]
                  .size(),
              1u);

    std::set<std::string> addresses;
    for (const auto &tx : L().txs)
    {
        addresses.insert(tx.fields.address);
    }
    json asked = json::array();
    std::vector<bool> spent;
    int spent_count = 0, unconfirmed_inputs = 0;
    for (const auto &address : addresses)
    {
        bool was = false, unconfirmed_input = false;
        for (const auto &tx : L().txs)
        {
            if (tx.fields.address == address && tx.fields.value < 0)
            {
                (tx.milestone > 0 ? was : unconfirmed_input) = true;
            }
        }
        asked.push_back(asked.size() % 2 ? WithChecksum(address) : address);
        spent.push_back(was);
        spent_count += was;
        unconfirmed_inputs += unconfirmed_input && !was;
    }
    EXPECT_EQ(spent_count, 4);        // the inputs of the confirmed value bundles
    EXPECT_GE(unconfirmed_inputs, 5); // IRI's test bundles, never confirmed
    json body = Ok({{"command", "wereAddressesSpentFrom"}, {"addresses", asked}});
    ASSERT_EQ(body["states"].size(), spent.size());
    for (std::size_t i = 0; i < spent.size(); i++)
    {
        EXPECT_EQ(body["states"][i].get<bool>(), spent[i]) << asked[i];
    }
}

TEST_F(HttpLegacy, GetBalancesAtEachMilestoneAndTheNewestByDefault)
{
    std::set<std::string> addresses;
    for (const auto &tx : L().txs)
    {
        if (tx.fields.value != 0)
        {
            addresses.insert(tx.fields.address);
        }
    }
    for (const auto &[address, balance] : L().snapshot)
    {
        addresses.insert(address);
    }
    json asked = json::array();
    for (const auto &address : addresses)
    {
        asked.push_back(asked.size() % 3 == 1 ? WithChecksum(address) : address);
    }
    ASSERT_EQ(L().milestone_hash.size(), 3u);
    std::map<int, std::vector<std::int64_t>> seen;
    for (int m : {1, 2, 3, 0})
    {
        json request = {{"command", "getBalances"}, {"addresses", asked}, {"threshold", 100}};
        if (m > 0)
        {
            request["milestoneIndex"] = m;
        }
        json body = Ok(request);
        int at = m > 0 ? m : 3;
        EXPECT_EQ(body["milestoneIndex"], at);
        EXPECT_EQ(body["references"], json::array({L().milestone_hash.at(at)}));
        ASSERT_EQ(body["balances"].size(), addresses.size());
        std::size_t i = 0;
        for (const auto &address : addresses)
        {
            ASSERT_TRUE(body["balances"][i].is_string());
            std::int64_t balance = std::stoll(body["balances"][i].get<std::string>());
            EXPECT_EQ(balance, BalanceAt(address, at)) << address << " at " << at;
            EXPECT_GE(balance, 0) << address << " at " << at;
            seen[m].push_back(balance);
            i++;
        }
    }
    // The milestones moved value: each one's balances differ from the one before.
    EXPECT_NE(seen[1], seen[2]);
    EXPECT_NE(seen[2], seen[3]);
    EXPECT_EQ(seen[0], seen[3]);
    // The iota.js sample's input, spent whole at milestone 1; the BJVQHA remainder address,
    // with 7 in the snapshot, receives at milestone 2.
    std::string input = ByHash("ROILTKTL").fields.address;
    std::string remainder = ByHash("ICQWKRZN").fields.address;
    json early =
        Ok({{"command", "getBalances"}, {"addresses", {input, remainder}}, {"milestoneIndex", 1}});
    EXPECT_EQ(early["balances"], json::array({"0", "7"}));
    json late = Ok({{"command", "getBalances"}, {"addresses", {input, remainder}}});
    EXPECT_EQ(late["balances"], json::array({"0", std::to_string(7 + 19503378573783LL)}));
    // tips held are the references; the balances stay the newest milestone's
    const Tx &tip = ByHash("BHQBTEWA");
    json with_tips =
        Ok({{"command", "getBalances"}, {"addresses", {remainder}}, {"tips", {tip.hash}}});
    EXPECT_EQ(with_tips["references"], json::array({tip.hash}));
    EXPECT_EQ(with_tips["milestoneIndex"], 3);
    EXPECT_EQ(with_tips["balances"], json::array({late["balances"][1]}));
}

TEST_F(HttpLegacy, GetNodeInfoNamesTheMilestonesAndTheCoordinator)
{
    json info = Ok({{"command", "getNodeInfo"}});
    EXPECT_EQ(info["appName"], "permanode");
    EXPECT_EQ(info["appVersion"], PERMANODE_EXPECTED_VERSION);
    EXPECT_EQ(info["latestMilestoneIndex"], 3);
    EXPECT_EQ(info["latestMilestone"], L().milestone_hash.at(3));
    EXPECT_EQ(info["latestSolidSubtangleMilestoneIndex"], 3);
    EXPECT_EQ(info["latestSolidSubtangleMilestone"], L().milestone_hash.at(3));
    EXPECT_EQ(info["milestoneStartIndex"], 1);
    EXPECT_EQ(info["coordinatorAddress"], L().plan.at("coordinator"));
    EXPECT_EQ(info["transactionsToRequest"], 0);
    EXPECT_TRUE(info["time"].is_number_integer());
    EXPECT_TRUE(info["features"].is_array());
}

TEST_F(HttpLegacy, BadRequestsAreAnsweredInIrisShapeNamingTheBadValue)
{
    const std::string hash = L().txs[0].hash;
    const std::string address = ByHash("ROILTKTL").fields.address;
    ExpectError(PostRaw(*server_, json({{"command", "getNodeInfo"}}).dump(), "/", false), 400,
                "X-IOTA-API-Version");
    ExpectError(PostRaw(*server_, "{\"command\": ", "/api"), 400, "Invalid JSON");
    ExpectError(PostRaw(*server_, "[1, 2]"), 400, "not a JSON object");
    ExpectError(PostRaw(*server_, ""), 400, "Invalid JSON");
    ExpectError(Post({{"hashes", {hash}}}), 400, "COMMAND parameter has not been specified");
    ExpectError(Post({{"command", 7}}), 400, "COMMAND parameter has not been specified");
    ExpectError(Post({{"command", "getTrytez"}}), 400, "Command [getTrytez] is unknown");
    ExpectError(Post({{"command", "attachToTangle"}}), 401,
                "COMMAND attachToTangle is not available on this node");
    ExpectError(Post({{"command", "storeTransactions"}, {"trytes", json::array()}}), 401,
                "storeTransactions");
    ExpectError(Post({{"command", "getTrytes"}}), 400, "Invalid parameters: hashes is missing");
    ExpectError(Post({{"command", "getTrytes"}, {"hashes", hash}}), 400, "hashes must be an array");
    ExpectError(Post({{"command", "getTrytes"}, {"hashes", {hash, 5}}}), 400,
                "Invalid hashes input: element 1 is not a string");
    ExpectError(Post({{"command", "getTrytes"}, {"hashes", {hash, hash.substr(1)}}}), 400,
                "Invalid hashes input: element 1, \"" + hash.substr(1) + "\": it has 80 trytes");
    std::string lower = hash;
    lower[3] = 'a';
    ExpectError(Post({{"command", "getInclusionStates"}, {"transactions", {lower}}}), 400,
                "Invalid transactions input: element 0, \"" + lower +
                    "\": character 3 is not a tryte");
    std::string wrong_checksum = address + "ABCDEFGHI";
    ExpectError(Post({{"command", "getBalances"}, {"addresses", {address, wrong_checksum}}}), 400,
                "element 1, \"" + wrong_checksum + "\": addresses at tryte 81: checksum ABCDEFGHI");
    ExpectError(Post({{"command", "wereAddressesSpentFrom"}, {"addresses", {address + "9"}}}), 400,
                "got 82");
    ExpectError(Post({{"command", "findTransactions"}}), 400,
                "at least one of bundles, addresses, tags, approvees");
    ExpectError(Post({{"command", "findTransactions"}, {"tags", {std::string(28, 'A')}}}), 400,
                "a tag has 1 to 27 trytes");
    ExpectError(Post({{"command", "findTransactions"}, {"tags", {"999"}}}), 400,
                "Invalid tags input: element 0, \"999\": a tag of nines only");
    ExpectError(Post({{"command", "findTransactions"}, {"approvees", {"A"}}}), 400,
                "Invalid approvees input");
    ExpectError(Post({{"command", "getBalances"}, {"addresses", {address}}, {"milestoneIndex", 4}}),
                400, "holds no milestone 4");
    ExpectError(
        Post({{"command", "getBalances"}, {"addresses", {address}}, {"milestoneIndex", "2"}}), 400,
        "Invalid milestoneIndex input: \"2\"");
    ExpectError(
        Post({{"command", "getBalances"}, {"addresses", {address}}, {"milestoneIndex", -1}}), 400,
        "Invalid milestoneIndex input: -1");
    ExpectError(Post({{"command", "getBalances"}, {"addresses", {address}}, {"threshold", 101}}),
                400, "Invalid threshold input: 101");
    ExpectError(Post({{"command", "getBalances"}, {"addresses", {address}}, {"tips", {kUnknown}}}),
                400, "Tip not found: " + kUnknown);
    json many = json::array();
    for (int i = 0; i < 1001; i++)
    {
        many.push_back(hash);
    }
    ExpectError(Post({{"command", "getTrytes"}, {"hashes", many}}), 400,
                "hashes has 1001 elements, more than 1000 (maxRequestsList)");
    // The other routes keep their own error shape.
    auto hornet = server_->Get("/api/v1/messages/zz");
    ASSERT_TRUE(hornet);
    EXPECT_EQ(json::parse(hornet->body)["error"]["code"], "400");
}

// iota.js batches 1000 keys a request: 1000 checksummed addresses make a body of 92 KB.
TEST_F(HttpLegacy, ABatchOfAThousandChecksummedAddressesIsServed)
{
    const Tx &input = ByHash("ROILTKTL");
    json addresses = json::array({WithChecksum(input.fields.address)});
    for (int i = 1; i < 1000; i++)
    {
        std::string filler = std::to_string(i);
        for (char &c : filler)
        {
            c = static_cast<char>('A' + (c - '0'));
        }
        filler.resize(81, '9');
        addresses.push_back(WithChecksum(filler));
    }
    json request = {{"command", "findTransactions"}, {"addresses", addresses}};
    ASSERT_GT(request.dump().size(), 90000u);
    EXPECT_EQ(Found(request),
              Where([&](const Tx &tx) { return tx.fields.address == input.fields.address; }));
    json balances = Ok({{"command", "getBalances"}, {"addresses", addresses}})["balances"];
    ASSERT_EQ(balances.size(), 1000u);
    EXPECT_EQ(balances[0], std::to_string(BalanceAt(input.fields.address, 3)));
    EXPECT_EQ(balances[999], "0");
}

TEST_F(HttpLegacy, TheOpenApiDocumentListsTheCommandRoutes)
{
    auto result = server_->Get("/api/openapi.json");
    ASSERT_TRUE(result);
    json doc = json::parse(result->body);
    for (const std::string path : {"/", "/api"})
    {
        json post = doc["paths"][path]["post"];
        EXPECT_EQ(post["tags"], json::array({"legacy"})) << path;
        auto fields = post["requestBody"]["content"]["application/json"]["schema"]["properties"];
        for (const char *field : {"command", "hashes", "addresses", "bundles", "tags", "approvees",
                                  "transactions", "milestoneIndex"})
        {
            EXPECT_TRUE(fields.contains(field)) << path << " " << field;
        }
        EXPECT_EQ(post["responses"]["400"]["content"]["application/json"]["schema"]["$ref"],
                  "#/components/schemas/IriError");
    }
    EXPECT_TRUE(doc["components"]["schemas"].contains("IriError"));
}

// Every command answers the same once every legacy month is archived into RocksDB (the Range
// Scan reads the archived months), through the running server and a fresh one. Runs last: it
// archives and restores.
TEST_F(HttpLegacy, ZZEveryCommandAnswersTheSameOverArchivedMonths)
{
    json hashes = json::array(), addresses = json::array();
    std::set<std::string> distinct_addresses;
    for (const auto &tx : L().txs)
    {
        hashes.push_back(tx.hash);
        distinct_addresses.insert(tx.fields.address);
    }
    for (const auto &address : distinct_addresses)
    {
        addresses.push_back(address);
    }
    const Tx &sample = ByHash("ROILTKTL");
    std::vector<json> requests = {
        {{"command", "getTrytes"}, {"hashes", hashes}},
        {{"command", "getInclusionStates"}, {"transactions", hashes}},
        {{"command", "wereAddressesSpentFrom"}, {"addresses", addresses}},
        {{"command", "getBalances"}, {"addresses", addresses}, {"milestoneIndex", 1}},
        {{"command", "getBalances"}, {"addresses", addresses}},
        {{"command", "getNodeInfo"}},
        {{"command", "findTransactions"}, {"addresses", addresses}},
        {{"command", "findTransactions"}, {"bundles", {sample.fields.bundle}}},
        {{"command", "findTransactions"}, {"tags", {sample.fields.tag}}},
        {{"command", "findTransactions"}, {"approvees", {sample.fields.branch_transaction}}},
    };
    auto ask = [&](RunningServer &server)
    {
        std::vector<json> answers;
        for (const auto &request : requests)
        {
            Answer answer = PostRaw(server, request.dump());
            EXPECT_EQ(answer.status, 200) << request.dump().substr(0, 200);
            answer.body.erase("duration");
            answer.body.erase("time");
            if (answer.body.contains("hashes"))
            {
                std::vector<std::string> sorted = answer.body["hashes"];
                std::sort(sorted.begin(), sorted.end());
                answer.body["hashes"] = sorted;
            }
            answers.push_back(answer.body);
        }
        return answers;
    };
    auto hot = ask(*server_);
    EXPECT_EQ(hot[6]["hashes"].size(), L().txs.size());
    pqxx::connection admin(admin_dsn_);
    auto archived = pqxx::nontransaction(admin).exec(
        "SELECT table_name FROM legacy.archive(legacy.month_id(2016, 1), legacy.month_id(2100, "
        "1))");
    EXPECT_GE(archived.size(), 5u);
    EXPECT_EQ(pqxx::nontransaction(admin)
                  .exec1("SELECT count(*) FROM legacy.status WHERE tier = 'hot' AND rows > 0")[0]
                  .as<int>(),
              0);
    auto cold = ask(*server_);
    RunningServer fresh(ReaderDsn());
    auto cold_fresh = ask(fresh);
    for (std::size_t i = 0; i < requests.size(); i++)
    {
        EXPECT_EQ(cold[i], hot[i]) << requests[i].dump().substr(0, 200);
        EXPECT_EQ(cold_fresh[i], hot[i]) << requests[i].dump().substr(0, 200);
    }
    pqxx::nontransaction(admin).exec(
        "SELECT count(*) FROM legacy.restore(legacy.month_id(2016, 1), legacy.month_id(2100, 1))");
    pqxx::nontransaction(admin).exec("SELECT count(*) FROM permanode.archive_gc()");
}

// A database without legacy transactions (the Shimmer fixtures' own): no milestone, no
// Coordinator, every hash unknown, every balance 0, as a fresh IRI would answer.
TEST(HttpLegacyEmpty, ADatabaseWithoutLegacyTransactionsAnswersWithNinesAndZeros)
{
    RunningServer server(permanode::test::FixtureReaderDsn());
    auto post = [&](const json &request)
    {
        httplib::Client client("127.0.0.1", server.Port());
        auto result =
            client.Post("/", {{"X-IOTA-API-Version", "1"}}, request.dump(), "application/json");
        EXPECT_TRUE(result);
        EXPECT_EQ(result ? result->status : 0, 200) << (result ? result->body : "");
        return result ? json::parse(result->body) : json();
    };
    json info = post({{"command", "getNodeInfo"}});
    EXPECT_EQ(info["latestMilestoneIndex"], 0);
    EXPECT_EQ(info["latestMilestone"], kNullHash);
    EXPECT_EQ(info["milestoneStartIndex"], -1);
    EXPECT_EQ(info["coordinatorAddress"], kNullHash);
    const Tx &tx = ByHash("ROILTKTL");
    EXPECT_EQ(post({{"command", "getTrytes"}, {"hashes", {tx.hash}}})["trytes"],
              json::array({std::string(2673, '9')}));
    EXPECT_EQ(post({{"command", "findTransactions"}, {"addresses", {tx.fields.address}}})["hashes"],
              json::array());
    json balances = post({{"command", "getBalances"}, {"addresses", {tx.fields.address}}});
    EXPECT_EQ(balances["balances"], json::array({"0"}));
    EXPECT_EQ(balances["milestoneIndex"], 0);
    EXPECT_EQ(balances["references"], json::array({kNullHash}));
    EXPECT_EQ(post({{"command", "getInclusionStates"}, {"transactions", {tx.hash}}})["states"],
              json::array({false}));
}
