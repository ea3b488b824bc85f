// REST API v1 routes (TIP-13): the Chrysalis era as its nodes (Hornet 1.x) served it, every reply
// wrapped in {"data": ...}, IDs as plain hex. Rows of the other era are not found here: a Stardust
// block is a 404 that names its core API v2 path.
#include <httplib.h>

#include "routes/chrysalis_render.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "routes/render.hpp"
#include "server/router.hpp"
#include "server/sync_health.hpp"

#ifndef PERMANODE_VERSION_STRING
#define PERMANODE_VERSION_STRING "0.0.0"
#endif

namespace permanode::http
{
namespace
{

const std::string kV1 = "/api/v1";
// At most this many IDs in a list, as Hornet's default restAPI.limits.maxResults.
constexpr int kMaxResults = 1000;

void SendData(httplib::Response &response, nlohmann::json data)
{
    SendJson(response, {{"data", std::move(data)}});
}

std::string MessageIdParam(const PathParams &path)
{
    return PlainHexIdParam(path[0], "messageId", 32);
}

// The message, which must be a Chrysalis one.
Task<client::BlockRow> FindMessage(Db &db, const std::string &id)
{
    auto block = co_await db.Run(client::queries::Block(id));
    if (!block)
    {
        throw NotFound("message " + PlainHex(id));
    }
    if (block->protocol_version != client::kChrysalis)
    {
        throw HttpError(404, "message " + PlainHex(id) +
                                 " not found: it is a Stardust block, see /api/core/v2/blocks/" +
                                 id);
    }
    co_return *block;
}

Task<client::BlockRow> FindIncludedMessage(Db &db, const PathParams &path)
{
    auto transaction_id = PlainHexIdParam(path[0], "transactionId", 32);
    auto block_id = co_await db.Run(client::queries::TransactionBlockId(transaction_id));
    if (!block_id)
    {
        throw NotFound("included message of transaction " + PlainHex(transaction_id));
    }
    co_return co_await FindMessage(db, *block_id);
}

Task<> Info(Db &db, httplib::Response &response, HealthLimits limits)
{
    auto era = co_await db.Run(client::queries::EraOf(client::kChrysalis));
    SyncHealth health = co_await ReadSyncHealth(db, limits);
    std::string network = "";
    std::string hrp = "";
    std::int32_t latest = 0;
    std::int64_t timestamp = 0;
    std::int32_t pruning = 0;
    if (era)
    {
        latest = era->last_index;
        timestamp = era->last_timestamp;
        pruning = era->first_index > 0 ? era->first_index - 1 : 0;
        hrp = era->bech32_hrp;
        if (era->last_message_id)
        {
            auto message = co_await db.Run(client::queries::Block(*era->last_message_id));
            if (message && message->protocol_version == client::kChrysalis)
            {
                network = NetworkName(DecodeStoredMessage(*message).network_id);
            }
        }
    }
    // An archive takes no messages: no PoW, no rates; everything it holds was referenced.
    SendData(response, {{"name", "permanode"},
                        {"version", PERMANODE_VERSION_STRING},
                        {"isHealthy", latest > 0 && health.healthy},
                        {"networkId", network},
                        {"bech32HRP", hrp},
                        {"minPoWScore", 0},
                        {"messagesPerSecond", 0},
                        {"referencedMessagesPerSecond", 0},
                        {"referencedRate", 100},
                        {"latestMilestoneTimestamp", timestamp},
                        {"latestMilestoneIndex", latest},
                        {"confirmedMilestoneIndex", latest},
                        {"pruningIndex", pruning},
                        {"features", nlohmann::json::array()}});
}

Task<> Message(const httplib::Request &, httplib::Response &response, Db &db,
               const PathParams &path)
{
    SendData(response, ChrysalisMessageJson(co_await FindMessage(db, MessageIdParam(path))));
}

Task<> MessageMetadata(const httplib::Request &, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    SendData(response, ChrysalisMetadataJson(co_await FindMessage(db, MessageIdParam(path))));
}

// Raw bytes as Hornet 1.x served them.
void SendOctets(httplib::Response &response, const std::string &bytes)
{
    response.status = 200;
    response.set_content(bytes, "application/octet-stream");
}

Task<> MessageRaw(const httplib::Request &, httplib::Response &response, Db &db,
                  const PathParams &path)
{
    SendOctets(response, (co_await FindMessage(db, MessageIdParam(path))).raw);
}

// {"messageId", "maxResults", "count", "childrenMessageIds"}: the newest children first.
Task<> SendChildren(httplib::Response &response, Db &db, const std::string &id)
{
    auto page = co_await db.Run(client::queries::BlockChildren(id, kMaxResults, std::nullopt));
    nlohmann::json children = nlohmann::json::array();
    for (const auto &child : page.items)
    {
        children.push_back(PlainHex(child));
    }
    SendData(response, {{"messageId", PlainHex(id)},
                        {"maxResults", kMaxResults},
                        {"count", children.size()},
                        {"childrenMessageIds", children}});
}

Task<> MessageChildren(const httplib::Request &, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    co_await SendChildren(response, db, MessageIdParam(path));
}

Task<> MessagesByIndex(const httplib::Request &request, httplib::Response &response, Db &db,
                       const PathParams &)
{
    auto index = IndexationIndexParam(request, "index");
    auto page = co_await db.Run(
        client::queries::ChrysalisMessagesByIndex(index, kMaxResults, std::nullopt));
    nlohmann::json ids = nlohmann::json::array();
    for (const auto &id : page.items)
    {
        ids.push_back(PlainHex(id));
    }
    SendData(response, {{"index", *QueryText(request, "index")},
                        {"maxResults", kMaxResults},
                        {"count", ids.size()},
                        {"messageIds", ids}});
}

Task<> Output(const httplib::Request &, httplib::Response &response, Db &db, const PathParams &path)
{
    auto id = PlainHexIdParam(path[0], "outputId", 34);
    auto output = co_await db.Run(client::queries::Output(id, client::kChrysalis));
    if (!output)
    {
        throw NotFound("output " + PlainHex(id));
    }
    SendData(response, ChrysalisOutputJson(*output));
}

// The address as the replies name it: its Ed25519 hash in plain hex.
std::string HashOf(const std::string &address_bytes_hex)
{
    return address_bytes_hex.substr(4); // 0x, then the type byte 00
}

// ledgerIndex=N on a Chrysalis route: N must be a Chrysalis milestone held.
Task<std::optional<std::int32_t>> ChrysalisLedgerIndex(Db &db, const httplib::Request &request)
{
    auto at = co_await LedgerIndexParam(db, request);
    if (!at)
    {
        co_return std::nullopt;
    }
    auto era = co_await db.Run(client::queries::EraOf(client::kChrysalis));
    if (!era || *at < era->first_index || *at > era->last_index)
    {
        throw BadParameter("ledgerIndex", "milestone " + std::to_string(*at) +
                                              " is not a Chrysalis milestone" +
                                              (era ? " (this archive holds Chrysalis milestones " +
                                                         std::to_string(era->first_index) + " to " +
                                                         std::to_string(era->last_index) + ")"
                                                   : std::string()));
    }
    co_return at;
}

Task<> SendBalance(const httplib::Request &request, httplib::Response &response, Db &db,
                   const std::string &address)
{
    auto at = co_await ChrysalisLedgerIndex(db, request);
    // A named query: GCC 12 destroys a temporary of a conditional inside co_await twice.
    auto query = at ? client::queries::ChrysalisBalanceAt(address, *at)
                    : client::queries::ChrysalisBalanceOf(address);
    auto balance = co_await db.Run(query);
    // TIP-15: an address may hold one dust output per 100,000 i of dust allowance, 100 at most.
    std::int64_t allowed = std::min<std::int64_t>(balance.dust_allowance / 100000, 100);
    SendData(response, {{"addressType", 0},
                        {"address", HashOf(address)},
                        {"balance", balance.balance},
                        {"dustAllowed", allowed > balance.dust_outputs},
                        {"ledgerIndex", balance.ledger_index}});
}

Task<> AddressBalance(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    co_await SendBalance(request, response, db, ChrysalisAddressParam(path[0], "address"));
}

Task<> Ed25519Balance(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    co_await SendBalance(request, response, db, Ed25519AddressParam(path[0], "address"));
}

Task<> SendAddressOutputs(const httplib::Request &request, httplib::Response &response, Db &db,
                          const std::string &address)
{
    std::optional<std::int16_t> type;
    if (auto text = QueryText(request, "type"))
    {
        if (*text != "0" && *text != "1")
        {
            throw BadParameter("type", "expected 0 (SigLockedSingleOutput) or 1 "
                                       "(SigLockedDustAllowanceOutput)");
        }
        type = static_cast<std::int16_t>(*text == "1");
    }
    bool include_spent = QueryBool(request, "include-spent").value_or(false);
    auto at = co_await ChrysalisLedgerIndex(db, request);
    if (at && include_spent)
    {
        throw BadParameter("include-spent", "not with ledgerIndex, which lists the outputs "
                                            "unspent at the end of that milestone");
    }
    auto query =
        at ? client::queries::ChrysalisAddressOutputsAt(address, type, *at, kMaxResults)
           : client::queries::ChrysalisAddressOutputs(address, type, include_spent, kMaxResults);
    auto ids = co_await db.Run(query);
    nlohmann::json items = nlohmann::json::array();
    for (const auto &id : ids.items)
    {
        items.push_back(PlainHex(id));
    }
    SendData(response, {{"addressType", 0},
                        {"address", HashOf(address)},
                        {"maxResults", kMaxResults},
                        {"count", items.size()},
                        {"outputIds", items},
                        {"ledgerIndex", ids.ledger_index}});
}

Task<> AddressOutputs(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    co_await SendAddressOutputs(request, response, db, ChrysalisAddressParam(path[0], "address"));
}

Task<> Ed25519Outputs(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    co_await SendAddressOutputs(request, response, db, Ed25519AddressParam(path[0], "address"));
}

Task<> Milestone(const httplib::Request &, httplib::Response &response, Db &db,
                 const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    auto milestone = co_await db.Run(client::queries::MilestoneByIndex(index));
    if (!milestone || milestone->protocol_version != client::kChrysalis)
    {
        // a milestone archived from a partial cone may lack its milestone message: say so, where
        // /api/v1/info counts it among the archived ones
        auto changes = co_await db.Run(client::queries::UtxoChangesAt(index));
        if (changes && changes->protocol_version == client::kChrysalis)
        {
            throw HttpError(404, "milestone " + std::to_string(index) +
                                     " is archived without its milestone message (its cone was "
                                     "partial): its UTXO changes are at /api/v1/milestones/" +
                                     std::to_string(index) + "/utxo-changes");
        }
        throw NotFound("milestone " + std::to_string(index));
    }
    SendData(response, {{"index", milestone->milestone_index},
                        {"messageId", PlainHex(milestone->block_id)},
                        {"timestamp", milestone->timestamp}});
}

Task<> UtxoChanges(const httplib::Request &, httplib::Response &response, Db &db,
                   const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    auto changes = co_await db.Run(client::queries::UtxoChangesAt(index));
    if (!changes || changes->protocol_version != client::kChrysalis)
    {
        throw NotFound("milestone " + std::to_string(index));
    }
    auto plain = [](const std::vector<std::string> &ids)
    {
        nlohmann::json list = nlohmann::json::array();
        for (const auto &id : ids)
        {
            list.push_back(PlainHex(id));
        }
        return list;
    };
    SendData(response, {{"index", index},
                        {"createdOutputs", plain(changes->created_outputs)},
                        {"consumedOutputs", plain(changes->consumed_outputs)}});
}

Task<> SendReceipts(httplib::Response &response, Db &db, std::optional<std::int64_t> migrated_at)
{
    auto rows = co_await db.Run(client::queries::Receipts(migrated_at));
    nlohmann::json receipts = nlohmann::json::array();
    for (const auto &row : rows)
    {
        receipts.push_back(ReceiptTupleJson(row));
    }
    SendData(response, {{"receipts", receipts}});
}

Task<> Receipts(const httplib::Request &, httplib::Response &response, Db &db, const PathParams &)
{
    co_await SendReceipts(response, db, std::nullopt);
}

Task<> ReceiptsAt(const httplib::Request &, httplib::Response &response, Db &db,
                  const PathParams &path)
{
    co_await SendReceipts(response, db, MilestoneIndexParam(path[0], "migratedAt"));
}

Task<> Treasury(const httplib::Request &, httplib::Response &response, Db &db, const PathParams &)
{
    auto receipt = co_await db.Run(client::queries::LatestReceipt());
    if (!receipt)
    {
        // The treasury before the first receipt came from the network's snapshot, which is
        // not ingested.
        throw HttpError(404, "treasury not found: no milestone in the archive carries a receipt "
                             "(the treasury before the first one is in the network's snapshot)");
    }
    SendData(response, TreasuryJson(*receipt));
}

Task<> IncludedMessage(const httplib::Request &, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    SendData(response, ChrysalisMessageJson(co_await FindIncludedMessage(db, path)));
}

Task<> IncludedMessageMetadata(const httplib::Request &, httplib::Response &response, Db &db,
                               const PathParams &path)
{
    SendData(response, ChrysalisMetadataJson(co_await FindIncludedMessage(db, path)));
}

Task<> IncludedMessageRaw(const httplib::Request &, httplib::Response &response, Db &db,
                          const PathParams &path)
{
    SendOctets(response, (co_await FindIncludedMessage(db, path)).raw);
}

Task<> IncludedMessageChildren(const httplib::Request &, httplib::Response &response, Db &db,
                               const PathParams &path)
{
    co_await SendChildren(response, db, (co_await FindIncludedMessage(db, path)).block_id);
}

} // namespace

void RegisterChrysalisRoutes(Router &router, const HealthLimits &health)
{
    const std::string family = "chrysalis";
    std::vector<QueryParam> outputs_query = {
        {"type", "integer", "0 SigLockedSingleOutput, 1 SigLockedDustAllowanceOutput"},
        {"include-spent", "boolean", "also the spent outputs (after the unspent ones)"},
        {"ledgerIndex", "integer",
         "a Chrysalis milestone held: the outputs unspent at its end (permanode's extension)"}};
    router.Get({kV1 + "/info", family,
                "Chrysalis network, newest and oldest milestone; isHealthy as /health"},
               [health](const httplib::Request &, httplib::Response &response, Db &db,
                        const PathParams &) { return Info(db, response, health); });
    router.Get({kV1 + "/messages",
                family,
                "Messages with an indexation index (hex or UTF-8), newest first, 1000 at most",
                {{"index", "string", "the index as hex, or as UTF-8 text (required)"}}},
               MessagesByIndex);
    router.Get({kV1 + "/messages/{messageId}", family, "A message"}, Message);
    router.Get({kV1 + "/messages/{messageId}/metadata", family, "A message's metadata"},
               MessageMetadata);
    RouteInfo raw(kV1 + "/messages/{messageId}/raw", family, "A message's bytes");
    raw.media_type = "application/octet-stream";
    router.Get(raw, MessageRaw);
    router.Get({kV1 + "/messages/{messageId}/children", family,
                "A message's children, newest first, 1000 at most"},
               MessageChildren);
    router.Get({kV1 + "/outputs/{outputId}", family, "An output, with its spent state"}, Output);
    const QueryParam ledger_index = {
        "ledgerIndex", "integer",
        "a Chrysalis milestone held: answer as of its end (permanode's extension)"};
    router.Get({kV1 + "/addresses/ed25519/{address}",
                family,
                "The balance of an Ed25519 address (hex)",
                {ledger_index}},
               Ed25519Balance);
    router.Get({kV1 + "/addresses/ed25519/{address}/outputs", family,
                "Outputs of an Ed25519 address (hex), 1000 at most", outputs_query},
               Ed25519Outputs);
    router.Get(
        {kV1 + "/addresses/{address}", family, "The balance of a bech32 address", {ledger_index}},
        AddressBalance);
    router.Get({kV1 + "/addresses/{address}/outputs", family,
                "Outputs of a bech32 address, 1000 at most", outputs_query},
               AddressOutputs);
    router.Get({kV1 + "/milestones/{index}", family, "A milestone's message and timestamp"},
               Milestone);
    router.Get({kV1 + "/milestones/{index}/utxo-changes", family,
                "Outputs a milestone created and consumed"},
               UtxoChanges);
    router.Get({kV1 + "/receipts", family, "Every receipt (TIP-17) with its milestone"}, Receipts);
    router.Get({kV1 + "/receipts/{migratedAt}", family, "The receipts of a legacy milestone"},
               ReceiptsAt);
    router.Get({kV1 + "/treasury", family, "The treasury output the newest receipt made"},
               Treasury);
    router.Get({kV1 + "/transactions/{transactionId}/included-message", family,
                "The message that included a transaction"},
               IncludedMessage);
    router.Get({kV1 + "/transactions/{transactionId}/included-message/metadata", family,
                "The metadata of the message that included a transaction"},
               IncludedMessageMetadata);
    RouteInfo included_raw(kV1 + "/transactions/{transactionId}/included-message/raw", family,
                           "The bytes of the message that included a transaction");
    included_raw.media_type = "application/octet-stream";
    router.Get(included_raw, IncludedMessageRaw);
    router.Get({kV1 + "/transactions/{transactionId}/included-message/children", family,
                "The children of the message that included a transaction"},
               IncludedMessageChildren);
}

} // namespace permanode::http
