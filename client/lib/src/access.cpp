// permanode client library: the access stores (permanode/access.hpp), each method one call of
// the SQL function of the same name in schema access. Delegations travel as one JSON array.
#include "permanode/access.hpp"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "internal.hpp"

namespace permanode::client
{
namespace
{

using internal::Translate;

std::optional<std::string> OptionalText(const pqxx::field &f)
{
    if (f.is_null())
        return std::nullopt;
    return f.as<std::string>();
}

// A page's cursor for the next: the last row's, when the page is full.
template <typename T>
AccessPage<T> Paged(std::vector<T> items, std::optional<std::string> last, int page_size)
{
    AccessPage<T> page;
    if (static_cast<int>(items.size()) == page_size)
        page.next = std::move(last);
    page.items = std::move(items);
    return page;
}

Consumer ConsumerOf(const pqxx::row &row)
{
    // subscription, provider, cause, consumer: access.consumers' columns
    Consumer c;
    c.subscription = row["subscription"].as<std::string>();
    c.provider = row["provider"].as<std::string>();
    c.cause = OptionalText(row["cause"]);
    c.consumer = row["consumer"].as<std::string>();
    return c;
}

} // namespace

AccessStore::AccessStore(const std::string &dsn)
{
    Translate([&] { conn_ = std::make_unique<pqxx::connection>(dsn); });
}

AccessStore::~AccessStore() = default;

std::int64_t AccessStore::PutDelegations(const std::vector<Delegation> &delegations)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Delegation &d : delegations)
    {
        nlohmann::json item = {{"link", d.link}, {"audience", d.audience}, {"issuer", d.issuer}};
        if (d.expiration)
            item["expiration"] = *d.expiration;
        if (d.cause)
            item["cause"] = *d.cause;
        list.push_back(std::move(item));
    }
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            return tx.exec_params1("SELECT access.delegations_put_many($1::jsonb)", list.dump())[0]
                .as<std::int64_t>();
        });
}

AccessPage<Delegation> AccessStore::FindDelegations(const std::string &audience,
                                                    const std::optional<std::string> &after,
                                                    int page_size)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<Delegation> items;
            std::optional<std::string> last;
            for (const auto &row :
                 tx.exec_params("SELECT link, issuer, expiration, cause, cursor "
                                "FROM access.delegations_find($1, NULLIF($2, ''), $3)",
                                audience, after.value_or(""), page_size))
            {
                Delegation d;
                d.link = row[0].as<std::string>();
                d.audience = audience;
                d.issuer = row[1].as<std::string>();
                if (!row[2].is_null())
                    d.expiration = row[2].as<std::int64_t>();
                d.cause = OptionalText(row[3]);
                last = row[4].as<std::string>();
                items.push_back(std::move(d));
            }
            return Paged(std::move(items), std::move(last), page_size);
        });
}

std::int64_t AccessStore::CountDelegations()
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            return tx.exec1("SELECT access.delegations_count()")[0].as<std::int64_t>();
        });
}

std::int64_t AccessStore::ExpireDelegations()
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            return tx.exec1("SELECT access.expire_delegations()")[0].as<std::int64_t>();
        });
}

Subscription AccessStore::AddSubscription(const Subscription &s)
{
    Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            tx.exec_params("SELECT access.subscriptions_add($1, $2, $3, NULLIF($4, ''))",
                           s.provider, s.subscription, s.customer, s.cause.value_or(""));
        });
    return s;
}

AccessPage<Subscription> AccessStore::FindProviderSubscriptionsForCustomer(
    const std::string &customer, const std::string &provider,
    const std::optional<std::string> &after, int page_size)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<Subscription> items;
            std::optional<std::string> last;
            for (const auto &row :
                 tx.exec_params("SELECT subscription, cause, cursor FROM "
                                "access.subscriptions_find_provider_subscriptions_for_customer("
                                "$1, $2, NULLIF($3, ''), $4)",
                                customer, provider, after.value_or(""), page_size))
            {
                items.push_back(
                    {provider, row[0].as<std::string>(), customer, OptionalText(row[1])});
                last = row[2].as<std::string>();
            }
            return Paged(std::move(items), std::move(last), page_size);
        });
}

std::optional<Subscription> AccessStore::GetSubscription(const std::string &provider,
                                                         const std::string &subscription)
{
    return Translate(
        [&]() -> std::optional<Subscription>
        {
            pqxx::nontransaction tx(*conn_);
            pqxx::result rows =
                tx.exec_params("SELECT customer, cause FROM access.subscriptions_get($1, $2)",
                               provider, subscription);
            if (rows.empty())
                return std::nullopt;
            return Subscription{provider, subscription, rows[0][0].as<std::string>(),
                                OptionalText(rows[0][1])};
        });
}

Consumer AccessStore::AddConsumer(const Consumer &c)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            return ConsumerOf(
                tx.exec_params1("SELECT * FROM access.consumers_add($1, $2, $3, NULLIF($4, ''))",
                                c.provider, c.subscription, c.consumer, c.cause.value_or("")));
        });
}

bool AccessStore::HasStorageProvider(const std::string &consumer)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            return tx.exec_params1("SELECT access.consumers_has_storage_provider($1)", consumer)[0]
                .as<bool>();
        });
}

std::optional<Consumer> AccessStore::GetConsumer(const std::string &provider,
                                                 const std::string &consumer)
{
    return Translate(
        [&]() -> std::optional<Consumer>
        {
            pqxx::nontransaction tx(*conn_);
            pqxx::result rows = tx.exec_params(
                "SELECT subscription, customer, cause FROM access.consumers_get($1, $2)", provider,
                consumer);
            if (rows.empty())
                return std::nullopt;
            return Consumer{provider, rows[0][0].as<std::string>(), consumer,
                            rows[0][1].as<std::string>(), OptionalText(rows[0][2])};
        });
}

AccessPage<Consumer> AccessStore::ListConsumersByCustomer(const std::string &customer,
                                                          const std::optional<std::string> &after,
                                                          int page_size)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<Consumer> items;
            std::optional<std::string> last;
            for (const auto &row :
                 tx.exec_params("SELECT consumer, provider, subscription, cursor "
                                "FROM access.consumers_list_by_customer($1, NULLIF($2, ''), $3)",
                                customer, after.value_or(""), page_size))
            {
                items.push_back({row[1].as<std::string>(), row[2].as<std::string>(),
                                 row[0].as<std::string>(), customer, std::nullopt});
                last = row[3].as<std::string>();
            }
            return Paged(std::move(items), std::move(last), page_size);
        });
}

Consumer AccessStore::PutProvision(const std::string &provider, const std::string &customer,
                                   const std::string &consumer,
                                   const std::optional<std::string> &cause,
                                   const std::optional<std::string> &subscription)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            Consumer c = ConsumerOf(tx.exec_params1(
                "SELECT * FROM access.provisions_put($1, $2, $3, NULLIF($4, ''), NULLIF($5, ''))",
                provider, customer, consumer, cause.value_or(""), subscription.value_or("")));
            c.customer = customer;
            return c;
        });
}

} // namespace permanode::client
