// GET requests to a node's REST API, from many threads at once: kept-alive connections in a
// pool, each request on one no other thread uses. Failures become NodeError: what to retry (no
// connection, 5xx, 429), what the node does not have (404), what is wrong (any other answer).
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

class HttpGetter
{
  public:
    explicit HttpGetter(NodeUrl url);
    ~HttpGetter();
    HttpGetter(const HttpGetter &) = delete;
    HttpGetter &operator=(const HttpGetter &) = delete;

    // The body of GET prefix+path, asking for `accept`; retries a few times what may pass.
    std::string Get(const std::string &path, const std::string &accept = "application/json");
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
