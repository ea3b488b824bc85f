// The access stores through the client library's AccessStore (#27, seed 001), each method as a
// user calls it on a real cluster: delegations overwritten, found page by page to the end and
// counted, expired ones hidden and removed; subscriptions and consumers added, conflicts as
// client::Error with SQLSTATE 23505 naming what is held; provisions in one transaction.
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "permanode/access.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

using permanode::client::AccessStore;
using permanode::client::Consumer;
using permanode::client::Delegation;
using permanode::client::Error;
using permanode::client::Subscription;
using permanode::test::FreshTestDatabase;
using permanode::test::TestDsn;

namespace
{

class AccessTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        dsn_ = TestDsn() + " dbname=" + FreshTestDatabase("permanode_access_");
        pqxx::connection conn(dsn_);
        pqxx::nontransaction tx(conn);
        tx.exec0("CREATE EXTENSION permanode CASCADE");
    }
    std::string dsn_;
};

// The SQLSTATE and message of what fn throws ("" when it does not throw).
template <typename Fn> std::pair<std::string, std::string> Failure(Fn &&fn)
{
    try
    {
        fn();
    }
    catch (const Error &e)
    {
        return {e.sqlstate(), e.what()};
    }
    return {"", ""};
}

TEST_F(AccessTest, DelegationsPageToTheEndAndExpire)
{
    AccessStore store(dsn_);
    EXPECT_EQ(store.PutDelegations({}), 0);
    std::int64_t now = std::time(nullptr);
    std::vector<Delegation> many;
    for (int i = 0; i < 2345; ++i)
        many.push_back({"bafy" + std::to_string(100000 + i), "did:key:agent", "did:web:svc",
                        std::nullopt, std::nullopt});
    many.push_back({"bafy-expired", "did:key:agent", "did:web:svc", now - 10, "bafy-cause"});
    many.push_back({"bafy-later", "did:key:agent", "did:web:svc", now + 3600, "bafy-cause"});
    EXPECT_EQ(store.PutDelegations(many), 2347);
    // A link held is overwritten.
    EXPECT_EQ(store.PutDelegations(
                  {{"bafy100000", "did:key:other", "did:web:svc2", std::nullopt, std::nullopt}}),
              1);

    std::set<std::string> seen;
    std::optional<std::string> after;
    int pages = 0;
    do
    {
        auto page = store.FindDelegations("did:key:agent", after, 500);
        for (const Delegation &d : page.items)
            EXPECT_TRUE(seen.insert(d.link).second) << d.link << " twice";
        after = page.next;
        ++pages;
    } while (after);
    EXPECT_EQ(seen.size(), 2345u); // 2344 plain, bafy-later; not the expired or overwritten one
    EXPECT_EQ(pages, 5);
    EXPECT_TRUE(seen.count("bafy-later"));
    EXPECT_FALSE(seen.count("bafy-expired"));
    EXPECT_FALSE(seen.count("bafy100000"));
    auto other = store.FindDelegations("did:key:other");
    ASSERT_EQ(other.items.size(), 1u);
    EXPECT_EQ(other.items[0].issuer, "did:web:svc2");
    EXPECT_FALSE(other.next);
    EXPECT_EQ(store.CountDelegations(), 2346);
    EXPECT_EQ(store.ExpireDelegations(), 1);
    EXPECT_EQ(store.CountDelegations(), 2346);

    auto [state, message] = Failure([&] { store.FindDelegations("did:key:agent", {}, 0); });
    EXPECT_EQ(state, "22023");
    EXPECT_NE(message.find("page size 0"), std::string::npos) << message;
}

TEST_F(AccessTest, SubscriptionsConsumersAndProvisions)
{
    AccessStore store(dsn_);
    store.AddSubscription({"did:web:svc", "sub-1", "did:mailto:alice", "bafy-cause"});
    auto [state, message] = Failure(
        [&] {
            store.AddSubscription({"did:web:svc", "sub-1", "did:mailto:eve", {}});
        });
    EXPECT_EQ(state, "23505");
    EXPECT_NE(message.find("did:mailto:alice"), std::string::npos) << message;
    EXPECT_NE(message.find("did:web:svc"), std::string::npos) << message;
    store.AddSubscription({"did:web:svc", "sub-2", "did:mailto:alice", {}});

    auto found = store.FindProviderSubscriptionsForCustomer("did:mailto:alice", "did:web:svc",
                                                            std::nullopt, 1);
    ASSERT_EQ(found.items.size(), 1u);
    EXPECT_EQ(found.items[0].subscription, "sub-1");
    EXPECT_EQ(found.items[0].cause, "bafy-cause");
    ASSERT_TRUE(found.next);
    found = store.FindProviderSubscriptionsForCustomer("did:mailto:alice", "did:web:svc",
                                                       found.next, 1);
    ASSERT_EQ(found.items.size(), 1u);
    EXPECT_EQ(found.items[0].subscription, "sub-2");
    found = store.FindProviderSubscriptionsForCustomer("did:mailto:alice", "did:web:svc",
                                                       found.next, 1);
    EXPECT_TRUE(found.items.empty());
    EXPECT_FALSE(found.next);

    auto got = store.GetSubscription("did:web:svc", "sub-1");
    ASSERT_TRUE(got);
    EXPECT_EQ(got->customer, "did:mailto:alice");
    EXPECT_FALSE(store.GetSubscription("did:web:svc", "sub-9"));

    Consumer added = store.AddConsumer({"did:web:svc", "sub-1", "did:key:space1", {}, "c1"});
    EXPECT_EQ(added.consumer, "did:key:space1");
    EXPECT_EQ(added.cause, "c1");
    // The same again is accepted; another consumer for the subscription is a conflict.
    EXPECT_EQ(store.AddConsumer({"did:web:svc", "sub-1", "did:key:space1", {}, {}}).cause, "c1");
    std::tie(state, message) = Failure(
        [&] {
            store.AddConsumer({"did:web:svc", "sub-1", "did:key:space2", {}, {}});
        });
    EXPECT_EQ(state, "23505");
    EXPECT_NE(message.find("did:key:space1"), std::string::npos) << message;
    std::tie(state, message) = Failure(
        [&] {
            store.AddConsumer({"did:web:svc", "sub-9", "did:key:space2", {}, {}});
        });
    EXPECT_EQ(state, "23503");

    EXPECT_TRUE(store.HasStorageProvider("did:key:space1"));
    EXPECT_FALSE(store.HasStorageProvider("did:key:space2"));
    auto consumer = store.GetConsumer("did:web:svc", "did:key:space1");
    ASSERT_TRUE(consumer);
    EXPECT_EQ(consumer->subscription, "sub-1");
    EXPECT_EQ(consumer->customer, "did:mailto:alice");
    EXPECT_FALSE(store.GetConsumer("did:web:svc", "did:key:space2"));

    // Provisions: a conflict on the consumer leaves no subscription behind.
    Consumer provisioned = store.PutProvision("did:web:svc", "did:mailto:alice", "did:key:space3");
    EXPECT_EQ(provisioned.subscription, "did:mailto:alice");
    std::tie(state, message) =
        Failure([&] { store.PutProvision("did:web:svc", "did:mailto:bob", "did:key:space3"); });
    EXPECT_EQ(state, "23505");
    EXPECT_FALSE(store.GetSubscription("did:web:svc", "did:mailto:bob"));

    std::vector<std::string> consumers;
    std::optional<std::string> after;
    do
    {
        auto page = store.ListConsumersByCustomer("did:mailto:alice", after, 1);
        for (const Consumer &c : page.items)
            consumers.push_back(c.consumer + "@" + c.subscription);
        after = page.next;
    } while (after);
    EXPECT_EQ(consumers, (std::vector<std::string>{"did:key:space3@did:mailto:alice",
                                                   "did:key:space1@sub-1"}));
}

} // namespace
