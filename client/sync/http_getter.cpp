// GET requests to a node's REST API (see http_getter.hpp).
#include "sync/http_getter.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

namespace permanode::sync
{
namespace
{

constexpr int kAttempts = 3;
constexpr int kFirstRetryMs = 50;
constexpr int kTimeoutSeconds = 60;
// Connections kept open between requests: as many as the fetcher's threads use at once.
constexpr std::size_t kMaxIdle = 64;

bool WorthRetrying(const NodeError &e)
{
    return e.kind() == NodeError::Kind::kUnavailable;
}

} // namespace

NodeError ReplyError(int status, const std::string &where, std::string body)
{
    NodeError::Kind kind = NodeError::Kind::kProtocol;
    if (status == 404)
        kind = NodeError::Kind::kNotFound;
    else if (status >= 500 || status == 429)
        kind = NodeError::Kind::kUnavailable;
    if (body.size() > 300)
        body = body.substr(0, 300) + "…";
    return NodeError(kind, fmt::format("GET {}: HTTP {} {}", where, status, body));
}

NodeUrl ParseNodeUrl(const std::string &url)
{
    const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0)
        throw std::invalid_argument(
            fmt::format("\"{}\" is not an http:// URL (for example http://localhost:14265)", url));
    std::size_t slash = url.find('/', scheme.size());
    NodeUrl out;
    out.origin = url.substr(0, slash);
    if (out.origin.size() == scheme.size())
        throw std::invalid_argument(fmt::format("\"{}\" names no host", url));
    if (slash != std::string::npos)
        out.prefix = url.substr(slash);
    while (!out.prefix.empty() && out.prefix.back() == '/')
        out.prefix.pop_back();
    return out;
}

HttpGetter::HttpGetter(NodeUrl url) : url_(std::move(url)) {}

HttpGetter::~HttpGetter() = default;

std::unique_ptr<httplib::Client> HttpGetter::Borrow()
{
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty())
        {
            auto client = std::move(idle_.back());
            idle_.pop_back();
            return client;
        }
    }
    auto client = std::make_unique<httplib::Client>(url_.origin);
    client->set_keep_alive(true);
    client->set_connection_timeout(kTimeoutSeconds, 0);
    client->set_read_timeout(kTimeoutSeconds, 0);
    return client;
}

void HttpGetter::Return(std::unique_ptr<httplib::Client> client)
{
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdle)
        idle_.push_back(std::move(client));
}

std::string HttpGetter::GetOnce(const std::string &path, const std::string &accept)
{
    std::unique_ptr<httplib::Client> client = Borrow();
    std::string where = url_.origin + url_.prefix + path;
    httplib::Result result = client->Get(url_.prefix + path, {{"Accept", accept}});
    if (!result)
        throw NodeError(NodeError::Kind::kUnavailable,
                        fmt::format("GET {}: {}", where, httplib::to_string(result.error())));
    int status = result->status;
    std::string body = std::move(result->body);
    Return(std::move(client));
    if (status == 200)
        return body;
    throw ReplyError(status, where, std::move(body));
}

std::string HttpGetter::Get(const std::string &path, const std::string &accept)
{
    int wait_ms = kFirstRetryMs;
    for (int attempt = 1;; ++attempt)
    {
        try
        {
            return GetOnce(path, accept);
        }
        catch (const NodeError &e)
        {
            if (!WorthRetrying(e) || attempt == kAttempts)
                throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
        wait_ms *= 4;
    }
}

} // namespace permanode::sync
