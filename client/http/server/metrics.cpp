// Metrics bookkeeping and the Prometheus text format.
#include "server/metrics.hpp"

#include <optional>
#include <sstream>

namespace permanode::http
{
namespace
{

// A label value with Prometheus escaping (backslash, quote, newline).
std::string Label(const std::string &value)
{
    std::string out;
    for (char c : value)
    {
        if (c == '\\' || c == '"')
        {
            out += '\\';
            out += c;
        }
        else if (c == '\n')
        {
            out += "\\n";
        }
        else
        {
            out += c;
        }
    }
    return out;
}

// One sample with its HELP and TYPE lines.
void WriteMetric(std::ostream &out, const char *name, const char *type, const char *help,
                 long long value)
{
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n"
        << name << " " << value << "\n";
}

} // namespace

constexpr std::array<double, 12> Metrics::kBuckets;

void Metrics::Record(const std::string &route, int status, double seconds)
{
    std::lock_guard<std::mutex> lock(mutex_);
    requests_[{route, status}]++;
    Histogram &h = latency_[route];
    for (std::size_t i = 0; i < kBuckets.size(); i++)
    {
        if (seconds <= kBuckets[i])
        {
            h.buckets[i]++;
            break;
        }
    }
    h.count++;
    h.sum += seconds;
}

void Metrics::RecordConsumer(const std::string &consumer)
{
    std::lock_guard<std::mutex> lock(mutex_);
    consumers_[consumer]++;
}

std::string Metrics::Render(const ConnectionStats &connections)
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::ostringstream out;
    if (!consumers_.empty())
    {
        // Since the start; per day in access.requests.
        out << "# HELP permanode_http_consumer_requests_total Requests admitted by UCAN, by "
               "consumer (space).\n# TYPE permanode_http_consumer_requests_total counter\n";
        for (const auto &[consumer, count] : consumers_)
            out << "permanode_http_consumer_requests_total{consumer=\"" << Label(consumer) << "\"} "
                << count << "\n";
    }
    out << "# HELP permanode_http_requests_total HTTP requests by route and status.\n"
           "# TYPE permanode_http_requests_total counter\n";
    for (const auto &[key, count] : requests_)
    {
        out << "permanode_http_requests_total{route=\"" << Label(key.first) << "\",status=\""
            << key.second << "\"} " << count << "\n";
    }
    out << "# HELP permanode_http_request_duration_seconds Request latency by route.\n"
           "# TYPE permanode_http_request_duration_seconds histogram\n";
    for (const auto &[route, h] : latency_)
    {
        std::string label = Label(route);
        long long cumulative = 0;
        for (std::size_t i = 0; i < kBuckets.size(); i++)
        {
            cumulative += h.buckets[i];
            out << "permanode_http_request_duration_seconds_bucket{route=\"" << label << "\",le=\""
                << kBuckets[i] << "\"} " << cumulative << "\n";
        }
        out << "permanode_http_request_duration_seconds_bucket{route=\"" << label
            << "\",le=\"+Inf\"} " << h.count << "\n";
        out << "permanode_http_request_duration_seconds_sum{route=\"" << label << "\"} " << h.sum
            << "\n";
        out << "permanode_http_request_duration_seconds_count{route=\"" << label << "\"} "
            << h.count << "\n";
    }
    // Per node, labeled as X-Permanode-Node says it.
    auto per_node = [&](const char *name, const char *type, const char *help, auto value)
    {
        out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
        for (const auto &node : connections.nodes)
        {
            out << name << "{node=\"" << Label(node.label) << "\"} " << value(node) << "\n";
        }
    };
    per_node("permanode_http_node_requests_total", "counter",
             "Requests answered from each database node.",
             [](const NodeStats &node) { return node.requests; });
    per_node("permanode_http_node_failures_total", "counter",
             "Requests a database node failed (connect failures, broken connections); a replica's "
             "are served again by another node.",
             [](const NodeStats &node) { return node.failures; });
    per_node("permanode_http_node_ledger_index", "gauge",
             "Each database node's newest synced milestone as last read (-1: not read yet).",
             [](const NodeStats &node) { return node.ledger_index; });
    WriteMetric(out, "permanode_http_pool_connections", "gauge",
                "Database connections (per event loop and node, times the loops and nodes).",
                connections.size);
    WriteMetric(out, "permanode_http_pool_connected", "gauge",
                "Database connections that are open.", connections.connected);
    WriteMetric(out, "permanode_http_queries_in_flight", "gauge",
                "Queries sent and not yet answered.", connections.in_flight);
    WriteMetric(out, "permanode_http_pool_connect_failures_total", "counter",
                "Failed database connects.", connections.connect_failures);
    WriteMetric(out, "permanode_http_clients_open", "gauge", "Client connections that are open.",
                connections.clients_open);
    WriteMetric(out, "permanode_http_clients_refused_total", "counter",
                "Client connections turned away at --max-clients (answered 503, or closed) or "
                "for want of descriptors.",
                connections.clients_refused);
    return out.str();
}

std::string RenderSyncMetrics(const std::vector<client::SyncFollowRow> &syncs)
{
    std::ostringstream out;
    auto per_sync = [&](const char *name, const char *type, const char *help, auto value)
    {
        out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
        for (const auto &sync : syncs)
        {
            auto v = value(sync);
            if (v) // unknown: no sample
                out << name << "{source=\"" << Label(sync.source) << "\"} " << *v << "\n";
        }
    };
    using Row = client::SyncFollowRow;
    per_sync("permanode_sync_lag_milestones", "gauge",
             "Milestones the archive is behind the node a sync follows (its confirmed milestone "
             "as last reported).",
             [](const Row &s) { return std::optional<double>(s.lag_milestones); });
    per_sync("permanode_sync_lag_seconds", "gauge",
             "Seconds between the node's confirmed milestone and the archive's newest, by their "
             "timestamps.",
             [](const Row &s)
             { return s.lag_seconds ? std::optional<double>(*s.lag_seconds) : std::nullopt; });
    per_sync("permanode_sync_milestones_per_second", "gauge",
             "Milestones the sync archived per second over its last seconds.",
             [](const Row &s) { return std::optional<double>(s.milestones_per_second); });
    per_sync("permanode_sync_blocks_per_second", "gauge",
             "Blocks the sync archived per second over its last seconds.",
             [](const Row &s) { return std::optional<double>(s.blocks_per_second); });
    per_sync("permanode_sync_reconnects_total", "counter",
             "Times the sync opened the node's confirmation stream again after it broke, since "
             "it started.",
             [](const Row &s) { return std::optional<double>(s.reconnects); });
    per_sync("permanode_sync_heartbeat_age_seconds", "gauge",
             "Seconds since the sync last reported.",
             [](const Row &s) { return std::optional<double>(s.heartbeat_age_seconds); });
    per_sync("permanode_sync_healthy", "gauge",
             "1 when the sync keeps the archive healthy (as /health judges it), else 0.",
             [](const Row &s) { return std::optional<double>(s.healthy ? 1 : 0); });
    return out.str();
}

} // namespace permanode::http
