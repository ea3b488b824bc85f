// GET requests to a node's REST API, from many threads at once: kept-alive connections in a
// pool, each request on one no other thread uses. Failures become NodeError: what to retry (no
// connection, 5xx, 429), what the node does not have (404), what is wrong (any other answer).
// The REST APIs' readers take any RestGetter.
#pragma once

#include "sync/node.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace httplib
{
class Client;
} // namespace httplib

namespace permanode::sync
{

// "http://host:port" and the path before the API's own ("" or "/prefix"), from a node's URL.
struct NodeUrl
{
    std::string origin;
    std::string prefix;
};
// Throws std::invalid_argument naming what is wrong with `url`.
NodeUrl ParseNodeUrl(const std::string &url);

// What the REST APIs' readers (rest_apis.hpp) ask of a node: HttpGetter over HTTP, or a script
// of replies (the fuzz target of the readers).
class RestGetter
{
  public:
    virtual ~RestGetter() = default;
    // The body of GET path (the API's own: /api/...), asking for `accept`; NodeError when the
    // node does not give it.
    virtual std::string Get(const std::string &path,
                            const std::string &accept = "application/json") = 0;
    // Where a path is, as messages name it (the URL).
    virtual std::string Where(const std::string &path) const = 0;
};

// The error of a reply other than 200 to GET `where`: what to retry (5xx, 429), what the node
// does not have (404), what is wrong (any other answer), quoting the start of its body.
NodeError ReplyError(int status, const std::string &where, std::string body);

class HttpGetter final : public RestGetter
{
  public:
    explicit HttpGetter(NodeUrl url);
    ~HttpGetter() override;
    HttpGetter(const HttpGetter &) = delete;
    HttpGetter &operator=(const HttpGetter &) = delete;

    // The body of GET prefix+path, asking for `accept`; retries a few times what may pass.
    std::string Get(const std::string &path,
                    const std::string &accept = "application/json") override;
    std::string Where(const std::string &path) const override
    {
        return url_.origin + url_.prefix + path;
    }
    const NodeUrl &url() const { return url_; }

  private:
    std::string GetOnce(const std::string &path, const std::string &accept);
    std::unique_ptr<httplib::Client> Borrow();
    void Return(std::unique_ptr<httplib::Client> client);

    NodeUrl url_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<httplib::Client>> idle_;
};

} // namespace permanode::sync
