// The legacy node API: the ternary era (2016-2021) as IRI 1.8 served it, and Chronicle after it.
// One route, POST / (and POST /api), takes {"command": ..., ...}: getTrytes, findTransactions,
// getInclusionStates, getBalances (also at a past milestone), wereAddressesSpentFrom and
// getNodeInfo, over schema legacy. As IRI: the request must carry X-IOTA-API-Version, every
// answer carries X-IOTA-API-Version: 1 and "duration" (milliseconds), and errors are
// {"error": "...", "duration": N} (400 for a bad request, naming the bad value). IRI's commands
// that write, attach or talk to neighbors answer 401, as IRI answered a command it was told not
// to serve: an archive takes no transactions.
#include <chrono>
#include <map>
#include <set>

#include <httplib.h>

#include "server/json_errors.hpp"
#include "routes/legacy_request.hpp"
#include "routes/render.hpp"
#include "server/router.hpp"

#ifndef PERMANODE_VERSION_STRING
#define PERMANODE_VERSION_STRING "0.0.0"
#endif

namespace permanode::http
{
namespace
{

namespace legacy_queries = client::queries::legacy;

// IRI's null hash: an unknown milestone, a transaction not held (as 2673 nines).
const std::string kNullHash(81, '9');
const std::string kNullTrytes(2673, '9');

using CommandHandler = Task<nlohmann::json> (*)(const nlohmann::json &request, Db &db);

// The strings of a list, each once (IRI kept them in a set).
std::vector<std::string> Distinct(std::vector<std::string> values)
{
    std::set<std::string> seen;
    std::vector<std::string> out;
    for (auto &value : values)
    {
        if (seen.insert(value).second)
        {
            out.push_back(std::move(value));
        }
    }
    return out;
}

Task<nlohmann::json> GetTrytes(const nlohmann::json &request, Db &db)
{
    auto hashes = iri::Hashes(iri::RequiredList(request, "hashes"), "hashes");
    auto found = co_await db.Run(legacy_queries::Trytes(hashes));
    nlohmann::json trytes = nlohmann::json::array();
    for (const auto &one : found)
    {
        trytes.push_back(one.value_or(kNullTrytes));
    }
    co_return nlohmann::json{{"trytes", trytes}};
}

Task<nlohmann::json> FindTransactions(const nlohmann::json &request, Db &db)
{
    client::legacy::TransactionFilter filter;
    if (const auto *list = iri::OptionalList(request, "bundles"))
    {
        filter.bundles = Distinct(iri::Hashes(*list, "bundles"));
    }
    if (const auto *list = iri::OptionalList(request, "addresses"))
    {
        filter.addresses = Distinct(iri::Addresses(*list, "addresses"));
    }
    if (const auto *list = iri::OptionalList(request, "tags"))
    {
        filter.tags = Distinct(iri::Tags(*list, "tags"));
    }
    if (const auto *list = iri::OptionalList(request, "approvees"))
    {
        filter.approvees = Distinct(iri::Hashes(*list, "approvees"));
    }
    if (!filter.bundles && !filter.addresses && !filter.tags && !filter.approvees)
    {
        throw HttpError(400, "Invalid parameters: findTransactions takes at least one of "
                             "bundles, addresses, tags, approvees");
    }
    auto hashes = co_await db.Run(
        legacy_queries::FindTransactions(filter, static_cast<int>(iri::kMaxFindTransactions)));
    if (hashes.size() > iri::kMaxFindTransactions)
    {
        throw HttpError(400, "Could not complete request: more than " +
                                 std::to_string(iri::kMaxFindTransactions) +
                                 " transactions match (maxFindTransactions); ask for fewer "
                                 "values, or intersect with another field");
    }
    co_return nlohmann::json{{"hashes", hashes}};
}

Task<nlohmann::json> GetInclusionStates(const nlohmann::json &request, Db &db)
{
    auto transactions = iri::Hashes(iri::RequiredList(request, "transactions"), "transactions");
    // IRI 1.8 checked the tips and went on without them: confirmation is by milestone alone.
    if (const auto *tips = iri::OptionalList(request, "tips"))
    {
        iri::Hashes(*tips, "tips");
    }
    auto states = co_await db.Run(legacy_queries::InclusionStates(transactions));
    co_return nlohmann::json{{"states", states}};
}

Task<nlohmann::json> WereAddressesSpentFrom(const nlohmann::json &request, Db &db)
{
    auto addresses = iri::Addresses(iri::RequiredList(request, "addresses"), "addresses");
    auto states = co_await db.Run(legacy_queries::WereSpentFrom(addresses));
    co_return nlohmann::json{{"states", states}};
}

// Balances at the newest milestone, or at milestoneIndex (our extension of IRI's command). With
// tips, as IRI, each must be held ("Tip not found") and they are the references; transactions no
// milestone confirmed never moved value, so the balances are the milestone's all the same.
Task<nlohmann::json> GetBalances(const nlohmann::json &request, Db &db)
{
    auto addresses = iri::Addresses(iri::RequiredList(request, "addresses"), "addresses");
    iri::OptionalInteger(request, "threshold", 0, 100); // IRI 1.8 took it and ignored it
    std::vector<std::string> tips;
    if (const auto *list = iri::OptionalList(request, "tips"))
    {
        tips = iri::Hashes(*list, "tips");
    }
    auto index = iri::OptionalInteger(request, "milestoneIndex", 0, INT32_MAX);
    auto milestone = co_await db.Run(legacy_queries::MilestoneAt(
        index ? std::optional<std::int32_t>(static_cast<std::int32_t>(*index)) : std::nullopt));
    if (index && !milestone)
    {
        throw HttpError(400, "Invalid milestoneIndex input: the archive holds no milestone " +
                                 std::to_string(*index));
    }
    if (!tips.empty())
    {
        auto held = co_await db.Run(legacy_queries::Trytes(tips));
        for (std::size_t i = 0; i < tips.size(); i++)
        {
            if (!held[i])
            {
                throw HttpError(400, "Tip not found: " + tips[i]);
            }
        }
    }
    // No milestone held at all: every confirmed transaction counts, at index 0.
    auto balances = co_await db.Run(legacy_queries::Balances(
        addresses, milestone ? std::optional<std::int32_t>(milestone->index) : std::nullopt));
    nlohmann::json texts = nlohmann::json::array();
    for (auto balance : balances)
    {
        texts.push_back(std::to_string(balance));
    }
    nlohmann::json references =
        tips.empty() ? nlohmann::json::array({milestone ? milestone->hash : kNullHash})
                     : nlohmann::json(tips);
    co_return nlohmann::json{{"balances", texts},
                             {"references", references},
                             {"milestoneIndex", milestone ? milestone->index : 0}};
}

Task<nlohmann::json> GetNodeInfo(const nlohmann::json &, Db &db)
{
    auto milestones = co_await db.Run(legacy_queries::MilestoneRange());
    std::string latest = milestones.latest ? milestones.latest->hash : kNullHash;
    std::int32_t latest_index = milestones.latest ? milestones.latest->index : 0;
    std::int32_t start = milestones.first_index.value_or(-1);
    auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    // Everything the archive holds is solid; it has no neighbors, tips or requests.
    co_return nlohmann::json{
        {"appName", "permanode"},
        {"appVersion", PERMANODE_VERSION_STRING},
        {"latestMilestone", latest},
        {"latestMilestoneIndex", latest_index},
        {"latestSolidSubtangleMilestone", latest},
        {"latestSolidSubtangleMilestoneIndex", latest_index},
        {"milestoneStartIndex", start},
        {"lastSnapshottedMilestoneIndex", start > 0 ? start - 1 : 0},
        {"neighbors", 0},
        {"packetsQueueSize", 0},
        {"time", now.count()},
        {"tips", 0},
        {"transactionsToRequest", 0},
        {"features", {"WereAddressesSpentFrom"}},
        {"coordinatorAddress", milestones.coordinator.empty() ? kNullHash : milestones.coordinator},
    };
}

const std::map<std::string, CommandHandler> &Commands()
{
    static const std::map<std::string, CommandHandler> commands = {
        {"getTrytes", GetTrytes},
        {"findTransactions", FindTransactions},
        {"getInclusionStates", GetInclusionStates},
        {"wereAddressesSpentFrom", WereAddressesSpentFrom},
        {"getBalances", GetBalances},
        {"getNodeInfo", GetNodeInfo},
    };
    return commands;
}

// IRI's commands an archive does not serve: they attach, store or broadcast transactions, select
// tips or manage neighbors.
const std::set<std::string> &Unavailable()
{
    static const std::set<std::string> commands = {
        "addNeighbors",
        "attachToTangle",
        "broadcastTransactions",
        "checkConsistency",
        "getMissingTransactions",
        "getNeighbors",
        "getNodeAPIConfiguration",
        "getTips",
        "getTransactionsToApprove",
        "interruptAttachingToTangle",
        "removeNeighbors",
        "storeTransactions",
    };
    return commands;
}

// The answer to a request: its command's, or the error that ended it.
Task<nlohmann::json> Answer(const httplib::Request &http_request, Db &db)
{
    if (!http_request.has_header("X-IOTA-API-Version"))
    {
        throw HttpError(400, "Invalid API Version: the request has no X-IOTA-API-Version header");
    }
    nlohmann::json request = iri::ParseBody(http_request.body);
    std::string command = iri::Command(request);
    auto it = Commands().find(command);
    if (it == Commands().end())
    {
        if (Unavailable().count(command) > 0)
        {
            throw HttpError(401, "COMMAND " + command +
                                     " is not available on this node (an archive: it takes no "
                                     "transactions and has no neighbors)");
        }
        throw HttpError(400, "Command [" + command + "] is unknown");
    }
    co_return co_await it->second(request, db);
}

Task<> Serve(const httplib::Request &request, httplib::Response &response, Db &db,
             const PathParams &)
{
    auto start = std::chrono::steady_clock::now();
    nlohmann::json body;
    std::optional<HttpError> error;
    try
    {
        body = co_await Answer(request, db);
    }
    catch (...)
    {
        error = ErrorOf(std::current_exception());
    }
    auto duration = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    if (error)
    {
        body = {{"error", error->what()}};
    }
    body["duration"] = duration;
    SendJson(response, body);
    if (error)
    {
        response.status = error->status();
    }
    response.set_header("X-IOTA-API-Version", "1");
}

} // namespace

void RegisterLegacyRoutes(Router &router)
{
    std::vector<std::string> commands;
    for (const auto &[name, handler] : Commands())
    {
        commands.push_back(name);
    }
    std::vector<QueryParam> body = {
        {"command", "string", "the command", commands},
        {"hashes", "array", "getTrytes: transaction hashes (81 trytes)"},
        {"bundles", "array", "findTransactions: bundle hashes"},
        {"addresses", "array",
         "findTransactions, getBalances, wereAddressesSpentFrom: addresses (81 trytes, or 90 "
         "with the checksum)"},
        {"tags", "array", "findTransactions: tags (up to 27 trytes, padded with 9s)"},
        {"approvees", "array", "findTransactions: transactions approved (trunk or branch)"},
        {"transactions", "array", "getInclusionStates: transaction hashes"},
        {"tips", "array", "getBalances: transactions that must be held, then the references"},
        {"threshold", "integer", "getBalances: 0 to 100, ignored (as IRI 1.8)"},
        {"milestoneIndex", "integer",
         "getBalances: the balances at the end of this milestone (permanode's extension; "
         "default the newest)"}};
    const std::string summary =
        "IRI's node API (legacy ternary era): {\"command\": ...}; needs X-IOTA-API-Version";
    for (const char *path : {"/", "/api"})
    {
        RouteInfo route(path, "legacy", summary);
        route.body = body;
        route.error_schema = "IriError";
        router.Post(route, Serve);
    }
}

} // namespace permanode::http
