// Prometheus metrics: requests by route and status, a latency histogram per route, the
// database connections, and the syncs that follow nodes.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "server/db_nodes.hpp"
#include "permanode/ledger_types.hpp"

namespace permanode::http
{

// The database connections' figures, summed over the event loops.
struct ConnectionStats
{
    std::vector<NodeStats> nodes; // the replicas, then the primary
    int size = 0;
    int connected = 0;
    long long in_flight = 0;
    long long connect_failures = 0;
    int clients_open = 0;
    long long clients_refused = 0;
};

class Metrics
{
  public:
    // Records one request to `route` (its path template) answered with `status`.
    void Record(const std::string &route, int status, double seconds);
    // Records one request admitted for a consumer (serve --auth ucan).
    void RecordConsumer(const std::string &consumer);
    // The Prometheus text exposition format (version 0.0.4).
    std::string Render(const ConnectionStats &connections);

  private:
    static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                        0.05,   0.1,   0.25,   0.5,   1,    2.5};
    struct Histogram
    {
        std::array<long long, kBuckets.size()> buckets{}; // cumulative on output only
        long long count = 0;
        double sum = 0;
    };
    std::mutex mutex_;
    std::map<std::pair<std::string, int>, long long> requests_;
    std::map<std::string, Histogram> latency_;
    std::map<std::string, long long> consumers_;
};

// The figures of the syncs that follow nodes (permanode.sync_health), labelled by source, in the
// same text format: lag, rates, reconnects, heartbeat age and health.
std::string RenderSyncMetrics(const std::vector<client::SyncFollowRow> &syncs);

} // namespace permanode::http
