// UCAN-authorised access (auth.hpp): the bearer token, the chain cache, the database's check of
// delegations and consumer, and the request counts.
#include "server/auth.hpp"

#include <ctime>
#include <iostream>

#include <httplib.h>
#include <pqxx/pqxx>

#include "server/json_errors.hpp"

namespace permanode::http
{
namespace
{

// How long the database's admission of a token holds, and how many tokens are cached.
constexpr auto kDatabaseAnswerHolds = std::chrono::seconds(5);
constexpr std::size_t kMostCached = 100000;

// The delegations of a chain that are not stored (or have expired), and whether its root
// consumes the provider (a consumer has a subscription: access.consumers' foreign key).
struct Standing
{
    std::optional<std::string> missing; // space-separated links
    bool consumer = false;
};

client::Query<Standing> StandingOf(const ucan::Chain &chain, const std::string &provider)
{
    static const auto statement = std::make_shared<const client::Statement>(client::Statement{
        "access_standing",
        "SELECT (SELECT string_agg(u.link, ' ' ORDER BY u.i) "
        "        FROM unnest($1::text[]) WITH ORDINALITY u(link, i) "
        "        WHERE NOT EXISTS (SELECT 1 FROM access.delegations_get(u.link))), "
        "       EXISTS (SELECT 1 FROM access.consumers_get($2, $3))",
        client::Plan::kGeneric});
    std::string links = "{";
    for (const std::string &link : chain.delegations)
    {
        if (links.size() > 1)
            links += ',';
        links += '"' + link + '"'; // base32: nothing to escape
    }
    links += '}';
    client::Query<Standing> query;
    query.statement = statement;
    query.params.Add(links);
    query.params.Add(provider);
    query.params.Add(chain.root);
    query.read = [](const client::Result &result)
    {
        client::Row row(result, 0);
        return Standing{row[0].optional<std::string>(), row[1].as<bool>()};
    };
    return query;
}

} // namespace

Authorizer::Authorizer(std::string service_did, std::string dsn, Metrics &metrics)
    : service_did_(std::move(service_did)), dsn_(std::move(dsn)),
      metrics_(metrics), wanted_{"archive/read", service_did_}
{
    flusher_ = std::thread([this] { Flush(); });
}

Authorizer::~Authorizer()
{
    {
        std::lock_guard<std::mutex> lock(flush_mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    flusher_.join();
}

Task<bool> Authorizer::Admit(const httplib::Request &request, httplib::Response &response, Db &db)
{
    std::string header = request.get_header_value("Authorization");
    static const std::string kBearer = "Bearer ";
    if (header.compare(0, kBearer.size(), kBearer) != 0 || header.size() == kBearer.size())
    {
        response.set_header("WWW-Authenticate", "Bearer");
        WriteError(response, 401, "missing Authorization: Bearer <UCAN>");
        co_return false;
    }
    std::string token = header.substr(kBearer.size());
    std::int64_t now = std::time(nullptr);
    auto steady_now = std::chrono::steady_clock::now();

    std::optional<ucan::Chain> chain;
    bool fresh = false; // the database admitted it lately
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = cache_.find(token);
        if (it != cache_.end())
        {
            if (it->second.chain.expires && *it->second.chain.expires <= now)
            {
                cache_.erase(it);
            }
            else
            {
                chain = it->second.chain;
                fresh = steady_now - it->second.checked < kDatabaseAnswerHolds;
            }
        }
    }
    if (!chain)
    {
        ucan::Verdict verdict = ucan::Verify(token, service_did_, wanted_, now);
        if (verdict.refusal)
        {
            if (verdict.refusal->status == 401)
                response.set_header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            WriteError(response, verdict.refusal->status, verdict.refusal->message);
            co_return false;
        }
        chain = std::move(verdict.chain);
    }
    if (!fresh)
    {
        Standing standing = co_await db.Run(StandingOf(*chain, service_did_));
        if (standing.missing)
        {
            WriteError(response, 403,
                       "delegation " + *standing.missing +
                           " is not stored in access.delegations, or has expired");
            co_return false;
        }
        if (!standing.consumer)
        {
            WriteError(response, 403,
                       "space " + chain->root + " is not a consumer of provider " + service_did_ +
                           " with a subscription");
            co_return false;
        }
        std::lock_guard<std::mutex> lock(mutex_);
        if (cache_.size() >= kMostCached)
            cache_.clear();
        cache_[token] = Entry{*chain, steady_now};
    }
    Count(chain->root);
    co_return true;
}

void Authorizer::Count(const std::string &consumer)
{
    metrics_.RecordConsumer(consumer);
    std::lock_guard<std::mutex> lock(flush_mutex_);
    pending_[consumer]++;
}

// Once a second, adds the counts of the requests admitted since to access.requests.
void Authorizer::Flush()
{
    std::unique_ptr<pqxx::connection> conn;
    std::unique_lock<std::mutex> lock(flush_mutex_);
    for (bool last = false; !last;)
    {
        last = wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; });
        std::map<std::string, long long> counts;
        counts.swap(pending_);
        if (counts.empty())
            continue;
        lock.unlock();
        try
        {
            if (!conn)
                conn = std::make_unique<pqxx::connection>(dsn_);
            pqxx::work tx(*conn);
            for (const auto &[consumer, requests] : counts)
                tx.exec_params("SELECT access.count_request($1, $2)", consumer, requests);
            tx.commit();
            counts.clear();
        }
        catch (const std::exception &e)
        {
            std::cerr << "permanode-serve: counting requests in access.requests failed: "
                      << e.what() << "\n";
            conn.reset();
        }
        lock.lock();
        for (const auto &[consumer, requests] : counts) // kept for the next try
            pending_[consumer] += requests;
    }
}

} // namespace permanode::http
