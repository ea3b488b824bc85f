// A node's REST API as the Node that `permanode sync --api URL` follows: the core API v2
// (Stardust, Hornet 2.x) or the API v1 (Chrysalis, Hornet 1.x and inx-api-core-v1), found by
// asking, or named by a URL ending in /api/core/v2 or /api/v1. Any such server serves, a
// permanode's own `permanode serve` too. Each milestone's cone is walked block by block
// (cone_walk.hpp), requests running concurrently.
#pragma once

#include "sync/http_getter.hpp"
#include "sync/node.hpp"

#include <atomic>
#include <string>

namespace permanode::sync
{

class RestNode final : public Node
{
  public:
    // url: http://host:port[/prefix][/api/core/v2 | /api/v1]; parallel: requests at once per
    // milestone. Throws std::invalid_argument for a URL that is not one.
    RestNode(const std::string &url, int parallel);

    NodeStatus Status() override;
    NodeMilestone Milestone(std::uint32_t index) override;
    std::vector<LedgerUpdates> Updates(std::uint32_t from, std::uint32_t to) override;
    std::vector<LedgerOutput> UnspentOutputs(std::uint32_t *ledger_index) override;
    std::uint32_t WaitForConfirmation(std::uint32_t after, int timeout_ms) override;
    std::string Name() const override { return "REST " + url_; }
    bool ReadsLedger() const override { return false; }

  private:
    enum class Api
    {
        kUnknown,
        kCoreV2,
        kV1,
    };
    // The API the node serves, asking it the first time.
    Api Detect();

    std::string url_;
    HttpGetter http_;
    int parallel_;
    std::atomic<Api> api_{Api::kUnknown};
};

} // namespace permanode::sync
