// Seeds of the HTTP server's targets, from the routes it registers: requests on the wire
// (http_request), targets and bodies (http_params), filled with IDs and addresses of the
// fixtures; and the route table http_params_fuzz is compiled with.
#include "seeds.hpp"

#include "server/metrics.hpp"
#include "server/router.hpp"
#include "server/server.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <vector>

namespace permanode::fuzz
{
namespace
{

using nlohmann::json;

std::vector<http::RouteInfo> Routes()
{
    http::Metrics metrics;
    http::Router router(metrics);
    http::RegisterAllRoutes(router, metrics, http::HealthLimits{},
                            [] { return http::ConnectionStats{}; });
    return router.Routes();
}

bool IsChrysalis(const std::string &path)
{
    return path.rfind("/api/v1/", 0) == 0;
}

// A value for a path parameter, by its name.
std::string PathValue(const std::string &name, const std::string &path)
{
    const Samples &s = FixtureSamples();
    std::string plain = IsChrysalis(path) ? "" : "0x";
    if (name == "messageId" || name == "blockId")
        return IsChrysalis(path) ? s.message_id : s.block_id;
    if (name == "transactionId")
        return plain + s.transaction_id.substr(2);
    if (name == "milestoneId")
        return s.milestone_id;
    if (name == "outputId")
        return plain + s.output_id.substr(2);
    if (name == "address")
        return path.find("migrations") != std::string::npos ? s.legacy_address : s.bech32_address;
    if (name == "index" || name == "migratedAt")
        return std::to_string(s.milestone_index);
    if (name == "hash")
        return s.legacy_hash;
    if (name == "period")
        return "daily";
    if (name == "name")
        return "ledger_size";
    if (name.size() > 2 && name.compare(name.size() - 2, 2, "Id") == 0) // aliasId, nftId, ...
        return s.transaction_id;
    return "app.js";
}

// A value for a query parameter, by its name and type.
std::string QueryValue(const http::QueryParam &param)
{
    const Samples &s = FixtureSamples();
    const std::string &name = param.name;
    if (param.type == "boolean")
        return "true";
    if (name == "pageSize" || name == "last" || name == "top")
        return "10";
    if (name.find("Timestamp") != std::string::npos || name.find("After") != std::string::npos ||
        name.find("Before") != std::string::npos)
        return "1664346000";
    if (name.find("Count") != std::string::npos)
        return "2";
    if (param.type == "integer")
        return std::to_string(s.milestone_index);
    if (name.find("ddress") != std::string::npos || name == "sender" || name == "issuer" ||
        name == "governor" || name == "stateController")
        return s.bech32_address;
    if (name == "tag")
        return "0x66757a7a";
    if (name == "cursor")
        return s.cursor;
    if (name == "sort")
        return "oldest";
    if (name == "format")
        return "csv";
    if (name == "from" || name == "to")
        return "2022-09-28";
    if (name == "index")
        return "fuzz";
    return "0";
}

// A route's target with its parameters filled.
std::string Target(const http::RouteInfo &route)
{
    std::string target;
    std::size_t at = 0;
    while (at < route.path.size())
    {
        std::size_t open = route.path.find('{', at);
        if (open == std::string::npos)
        {
            target += route.path.substr(at);
            break;
        }
        std::size_t close = route.path.find('}', open);
        target += route.path.substr(at, open - at);
        target += PathValue(route.path.substr(open + 1, close - open - 1), route.path);
        at = close + 1;
    }
    char separator = '?';
    for (const http::QueryParam &param : route.query)
    {
        target += separator + param.name + "=" + QueryValue(param);
        separator = '&';
    }
    return target;
}

// A request body of each of IRI's commands that the legacy routes serve.
std::vector<std::string> IriBodies()
{
    const Samples &s = FixtureSamples();
    json hash = json::array({s.legacy_hash});
    json address = json::array({s.legacy_address});
    return {
        json{{"command", "getTrytes"}, {"hashes", hash}}.dump(),
        json{{"command", "findTransactions"},
             {"addresses", address},
             {"bundles", json::array({s.legacy_bundle})},
             {"tags", json::array({s.legacy_tag})},
             {"approvees", hash}}
            .dump(),
        json{{"command", "getInclusionStates"}, {"transactions", hash}, {"tips", hash}}.dump(),
        json{{"command", "getBalances"},
             {"addresses", address},
             {"threshold", 100},
             {"milestoneIndex", 3}}
            .dump(),
        json{{"command", "wereAddressesSpentFrom"}, {"addresses", address}}.dump(),
        json{{"command", "getNodeInfo"}}.dump(),
    };
}

std::string Get(const std::string &target, const std::string &headers = "")
{
    return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n" +
           headers + "\r\n";
}

std::string Post(const std::string &body, const std::string &headers = "")
{
    return "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           "X-IOTA-API-Version: 1\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
}

} // namespace

std::string RouteTable()
{
    std::string out = "// Written by fuzz_seeds routes: the routes the HTTP server registers.\n";
    for (const http::RouteInfo &route : Routes())
    {
        std::string fields;
        for (const http::QueryParam &field : route.body)
            fields += (fields.empty() ? "" : ", ") + std::string("{") + json(field.name).dump() +
                      ", " + json(field.type).dump() + "}";
        out += "{" + json(route.method).dump() + ", " + json(route.path).dump() + ", {" + fields +
               "}},\n";
    }
    return out;
}

void WriteHttpParamsSeeds(const SeedDir &dir)
{
    std::size_t n = 0;
    for (const http::RouteInfo &route : Routes())
    {
        if (route.method == "post")
            for (const std::string &body : IriBodies())
                dir.Write("route-" + std::to_string(n++), Target(route) + "\n" + body);
        else
            dir.Write("route-" + std::to_string(n++), Target(route));
    }
}

void WriteHttpRequestSeeds(const SeedDir &dir)
{
    std::vector<std::string> targets;
    for (const http::RouteInfo &route : Routes())
        if (route.method == "get")
            targets.push_back(Target(route));
    std::string body = IriBodies().front();
    dir.Write("get", Get(targets.front()));
    dir.Write("get-raw", Get(targets.front(), "Accept: application/vnd.iota.serializer-v1\r\n"));
    dir.Write("head-1.0", "HEAD / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    dir.Write("close", Get("/health", "Connection: close\r\n"));
    dir.Write("post", Post(body));
    char chunk_size[20];
    std::snprintf(chunk_size, sizeof chunk_size, "%zx", body.size());
    dir.Write("post-chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                  std::string(chunk_size) + "\r\n" + body + "\r\n0\r\n\r\n");
    std::string pipelined;
    for (std::size_t i = 0; i < targets.size() && i < 4; i++)
        pipelined += Get(targets[i * targets.size() / 4]);
    dir.Write("pipelined", pipelined + Post(body) + Get("/api/core/v2/info"));
    dir.Write("query",
              Get("/api/indexer/v1/outputs/basic?address=" + FixtureSamples().bech32_address +
                  "&pageSize=10&cursor=" + FixtureSamples().cursor));
    dir.Write("escaped", Get("/api/core/v2/blocks/%30x%41?a=%20b+c&d"));
}

} // namespace permanode::fuzz
