// UCAN-authorised access (serve --auth ucan): every request carries `Authorization: Bearer
// <token>` (ucan.hpp: the base64 CAR of a ucanto invocation of archive/read on the service's
// DID). A request is admitted when the chain verifies and, in the database, every delegation on
// it is stored in access.delegations and not expired, and its root (the space) is a consumer of
// the service with a subscription (access.consumers). Else 401 (no token, or one that is not a
// valid credential) or 403 naming what is missing.
//
// Verified chains are cached by token (its CAR, so by the invocation's CID) until the chain's
// earliest expiry; the database's answer for a token is cached for a few seconds, so revoking a
// delegation or a consumer takes effect within that time. Admitted requests are counted per
// consumer in /metrics and, per consumer and day, in access.requests (written once a second by a
// thread on its own connection).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "server/db.hpp"
#include "server/metrics.hpp"
#include "server/task.hpp"
#include "server/ucan.hpp"

namespace httplib
{
struct Request;
struct Response;
} // namespace httplib

namespace permanode::http
{

class Authorizer
{
  public:
    // `dsn`: where access.requests is written (the primary).
    Authorizer(std::string service_did, std::string dsn, Metrics &metrics);
    ~Authorizer();
    Authorizer(const Authorizer &) = delete;
    Authorizer &operator=(const Authorizer &) = delete;

    // Whether the request may be served; when not, the response holds the 401 or 403.
    Task<bool> Admit(const httplib::Request &request, httplib::Response &response, Db &db);

  private:
    struct Entry
    {
        ucan::Chain chain;
        std::chrono::steady_clock::time_point checked; // when the database last admitted it
    };
    void Count(const std::string &consumer);
    void Flush();

    std::string service_did_;
    std::string dsn_;
    Metrics &metrics_;
    ucan::Capability wanted_;

    std::mutex mutex_;
    std::unordered_map<std::string, Entry> cache_; // by token
    std::map<std::string, long long> pending_;     // requests not yet in access.requests

    std::mutex flush_mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread flusher_;
};

} // namespace permanode::http
