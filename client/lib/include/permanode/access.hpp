// Who may read a hosted archive (seed 001): the delegations, subscriptions and consumers stores
// of w3infra on a permanode database, each method one call of the SQL function of the same name
// in schema `access` (sql/permanode/schema/87_access.sql).
//
// Lists page with a keyset cursor: pass a page's `next` back as `after` until it is nullopt.
// Errors are client::Error with the server's SQLSTATE (23505: a conflict, naming what is held;
// 23503: no such subscription; 22023: bad input).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "permanode/client.hpp"

namespace permanode::client
{

struct Delegation
{
    std::string link; // the delegation's CID
    std::string audience;
    std::string issuer;
    std::optional<std::int64_t> expiration; // unix seconds; nullopt: never
    std::optional<std::string> cause;       // CID of the invocation that stored it
};

struct Subscription
{
    std::string provider;
    std::string subscription;
    std::string customer;
    std::optional<std::string> cause;
};

struct Consumer
{
    std::string provider;
    std::string subscription;
    std::string consumer;
    std::optional<std::string> customer; // read back only: the subscription's customer
    std::optional<std::string> cause;
};

template <typename T> struct AccessPage
{
    std::vector<T> items;
    std::optional<std::string> next; // the cursor of the next page; nullopt after the last
};

class AccessStore
{
  public:
    explicit AccessStore(const std::string &dsn);
    ~AccessStore();
    AccessStore(const AccessStore &) = delete;
    AccessStore &operator=(const AccessStore &) = delete;

    // delegations: put_many (a link held is overwritten; an empty list is fine), find, count
    std::int64_t PutDelegations(const std::vector<Delegation> &delegations);
    AccessPage<Delegation> FindDelegations(const std::string &audience,
                                           const std::optional<std::string> &after = {},
                                           int page_size = 1000);
    std::int64_t CountDelegations();
    std::int64_t ExpireDelegations();

    // subscriptions: add (a second for the same key is a conflict), the customer's subscriptions
    // to a provider, get
    Subscription AddSubscription(const Subscription &subscription);
    AccessPage<Subscription>
    FindProviderSubscriptionsForCustomer(const std::string &customer, const std::string &provider,
                                         const std::optional<std::string> &after = {},
                                         int page_size = 1000);
    std::optional<Subscription> GetSubscription(const std::string &provider,
                                                const std::string &subscription);

    // consumers: add (an identical re-add is accepted), has_storage_provider, get, list_by_customer
    Consumer AddConsumer(const Consumer &consumer);
    bool HasStorageProvider(const std::string &consumer);
    std::optional<Consumer> GetConsumer(const std::string &provider, const std::string &consumer);
    AccessPage<Consumer> ListConsumersByCustomer(const std::string &customer,
                                                 const std::optional<std::string> &after = {},
                                                 int page_size = 1000);

    // provisions: put, the customer's subscription (keyed by the customer unless given) and the
    // consumer, in one transaction
    Consumer PutProvision(const std::string &provider, const std::string &customer,
                          const std::string &consumer, const std::optional<std::string> &cause = {},
                          const std::optional<std::string> &subscription = {});

  private:
    std::unique_ptr<pqxx::connection> conn_;
};

} // namespace permanode::client
