// IOTA core API v2 routes (TIP-25 shapes): blocks, outputs, transactions, milestones, /info.
#include <variant>

#include <httplib.h>

#include "codec/block.hpp"
#include "codec/json.hpp"
#include "codec/milestone.hpp"
#include "codec/payload.hpp"
#include "server/json_errors.hpp"
#include "server/json_text.hpp"
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

const std::string kCore = "/api/core/v2";

// Shimmer's protocol parameters since its launch (the values every milestone of the fixtures
// carries in inx-chronicle's protocol_params): /info falls back to them when no recent milestone
// carries a protocol parameters option.
codec::ProtocolParameters ShimmerDefaults()
{
    codec::ProtocolParameters p;
    p.version = 2;
    p.network_name = "shimmer";
    p.bech32_hrp = "smr";
    p.min_pow_score = 1500;
    p.below_max_depth = 15;
    p.rent_structure = {100, 1, 10};
    p.token_supply = 1813620509061365ULL;
    return p;
}

// The protocol parameters of the newest milestone option among `milestones` (newest first).
std::optional<codec::ProtocolParameters>
ParametersOf(const std::vector<client::MilestoneRow> &milestones)
{
    for (const auto &row : milestones)
    {
        codec::Bytes bytes(row.payload.begin(), row.payload.end());
        try
        {
            codec::ByteReader reader{codec::ByteSpan(bytes)};
            auto payload = codec::DecodeBlockPayload(reader);
            const auto *milestone = std::get_if<codec::MilestonePayload>(&payload);
            if (milestone == nullptr)
            {
                continue;
            }
            for (const auto &option : milestone->essence.options)
            {
                const auto *params = std::get_if<codec::ProtocolParamsMilestoneOption>(&option);
                if (params != nullptr && params->parameters)
                {
                    return params->parameters;
                }
            }
        }
        catch (const std::exception &)
        {
            continue; // a payload that does not decode carries no usable option
        }
    }
    return std::nullopt;
}

Task<> Info(Db &db, httplib::Response &response, HealthLimits limits)
{
    std::int32_t ledger_index = co_await db.Run(client::queries::LedgerIndex());
    SyncHealth health = co_await ReadSyncHealth(db, limits);
    auto milestones = co_await db.Run(client::queries::LatestMilestones(100));
    nlohmann::json latest = {{"index", ledger_index}};
    if (!milestones.empty() && milestones[0].milestone_index == ledger_index)
    {
        latest["timestamp"] = milestones[0].timestamp;
        latest["milestoneId"] = milestones[0].milestone_id;
    }
    auto parameters = ParametersOf(milestones).value_or(ShimmerDefaults());
    // Milestones before the era's first are not served here (Chrysalis ones are, under /api/v1):
    // to a client, the core API's history starts there.
    auto era = co_await db.Run(client::queries::EraOf(client::kStardust));
    std::int32_t pruning_index = era && era->first_index > 0 ? era->first_index - 1 : 0;
    nlohmann::json body = {
        {"name", "permanode"},
        {"version", PERMANODE_VERSION_STRING},
        {"status",
         {{"isHealthy", ledger_index > 0 && health.healthy},
          {"latestMilestone", latest},
          {"confirmedMilestone", latest},
          {"pruningIndex", pruning_index}}},
        {"supportedProtocolVersions", {parameters.version}},
        {"protocol", codec::ToJson(parameters)},
        {"pendingProtocolParameters", nlohmann::json::array()},
        {"baseToken",
         {{"name", "Shimmer"},
          {"tickerSymbol", "SMR"},
          {"unit", "SMR"},
          {"subunit", "glow"},
          {"decimals", 6},
          {"useMetricPrefix", false}}},
        {"metrics",
         {{"blocksPerSecond", 0}, {"referencedBlocksPerSecond", 0}, {"referencedRate", 0}}},
        {"features", nlohmann::json::array()}};
    SendJson(response, body);
}

// The core API serves the Stardust era; Chrysalis rows are answered under /api/v1.
void RequireStardust(std::int16_t protocol_version, const std::string &what,
                     const std::string &v1_path)
{
    if (protocol_version != client::kStardust)
    {
        throw HttpError(404,
                        what + " not found: it is of the Chrysalis era, see /api/v1/" + v1_path);
    }
}

std::string PlainHexOf(const std::string &id)
{
    return id.substr(2);
}

void SendBlock(const httplib::Request &request, httplib::Response &response,
               const client::BlockRow &block)
{
    RequireStardust(block.protocol_version, "block " + block.block_id,
                    "messages/" + PlainHexOf(block.block_id));
    if (WantsRaw(request))
    {
        SendRaw(response, block.raw);
    }
    else
    {
        SendJson(response, BlockJson(block));
    }
}

Task<> Block(const httplib::Request &request, httplib::Response &response, Db &db,
             const PathParams &path)
{
    auto id = BlockIdParam(path[0], "blockId");
    auto block = co_await db.Run(client::queries::Block(id));
    if (!block)
    {
        throw NotFound("block " + id);
    }
    SendBlock(request, response, *block);
}

Task<> BlockMetadata(const httplib::Request &, httplib::Response &response, Db &db,
                     const PathParams &path)
{
    auto id = BlockIdParam(path[0], "blockId");
    auto block = co_await db.Run(client::queries::Block(id));
    if (!block)
    {
        throw NotFound("block " + id);
    }
    RequireStardust(block->protocol_version, "block " + id,
                    "messages/" + PlainHexOf(id) + "/metadata");
    SendJson(response, BlockMetadataJson(*block));
}

// The output of the path; with ledgerIndex=N, as it stood at the end of milestone N: not found
// before its creation, unspent until the milestone that spent it.
Task<client::OutputRow> FindOutput(const httplib::Request &request, const PathParams &path, Db &db)
{
    auto id = OutputIdParam(path[0], "outputId");
    auto at = co_await LedgerIndexParam(db, request);
    auto output = co_await db.Run(client::queries::Output(id));
    if (!output)
    {
        throw NotFound("output " + id);
    }
    RequireStardust(output->protocol_version, "output " + id, "outputs/" + PlainHexOf(id));
    if (at)
    {
        if (output->milestone_index_booked > *at)
        {
            throw NotFound("output " + id + " (created at milestone " +
                           std::to_string(output->milestone_index_booked) + ", after milestone " +
                           std::to_string(*at) + ")");
        }
        if (output->is_spent && output->milestone_index_spent > *at)
        {
            output->is_spent = false;
            output->milestone_index_spent = 0;
            output->milestone_timestamp_spent = 0;
            output->transaction_id_spent.clear();
        }
        output->ledger_index = *at;
    }
    co_return *output;
}

Task<> Output(const httplib::Request &request, httplib::Response &response, Db &db,
              const PathParams &path)
{
    auto output = co_await FindOutput(request, path, db);
    if (WantsRaw(request))
    {
        SendRaw(response, output.raw);
    }
    else
    {
        SendJson(response, OutputJson(output));
    }
}

Task<> OutputMetadata(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    SendJson(response, OutputMetadataJson(co_await FindOutput(request, path, db)));
}

Task<> IncludedBlock(const httplib::Request &request, httplib::Response &response, Db &db,
                     const PathParams &path)
{
    auto id = BlockIdParam(path[0], "transactionId");
    auto block = co_await TransactionIncludedBlock(db, id);
    if (!block)
    {
        throw NotFound("included block of transaction " + id);
    }
    SendBlock(request, response, *block);
}

void SendMilestone(const httplib::Request &request, httplib::Response &response,
                   const client::MilestoneRow &milestone)
{
    RequireStardust(milestone.protocol_version,
                    "milestone " + std::to_string(milestone.milestone_index),
                    "milestones/" + std::to_string(milestone.milestone_index));
    if (WantsRaw(request))
    {
        SendRaw(response, milestone.payload);
    }
    else
    {
        SendJson(response, MilestoneJson(milestone));
    }
}

Task<> MilestoneById(const httplib::Request &request, httplib::Response &response, Db &db,
                     const PathParams &path)
{
    auto id = BlockIdParam(path[0], "milestoneId");
    auto milestone = co_await db.Run(client::queries::MilestoneById(id));
    if (!milestone)
    {
        throw NotFound("milestone " + id);
    }
    SendMilestone(request, response, *milestone);
}

Task<> MilestoneByIndex(const httplib::Request &request, httplib::Response &response, Db &db,
                        const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    auto milestone = co_await db.Run(client::queries::MilestoneByIndex(index));
    if (!milestone)
    {
        throw NotFound("milestone " + std::to_string(index));
    }
    SendMilestone(request, response, *milestone);
}

Task<> SendUtxoChanges(httplib::Response &response, Db &db, std::int32_t index)
{
    auto changes = co_await db.Run(client::queries::UtxoChangesAt(index));
    if (!changes)
    {
        throw NotFound("milestone " + std::to_string(index));
    }
    RequireStardust(changes->protocol_version, "milestone " + std::to_string(index),
                    "milestones/" + std::to_string(index) + "/utxo-changes");
    SendJson(response, UtxoChangesJson(*changes));
}

Task<> UtxoChangesByIndex(const httplib::Request &, httplib::Response &response, Db &db,
                          const PathParams &path)
{
    co_await SendUtxoChanges(response, db, MilestoneIndexParam(path[0], "index"));
}

Task<> UtxoChangesById(const httplib::Request &, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    auto id = BlockIdParam(path[0], "milestoneId");
    auto milestone = co_await db.Run(client::queries::MilestoneById(id));
    if (!milestone)
    {
        throw NotFound("milestone " + id);
    }
    co_await SendUtxoChanges(response, db, milestone->milestone_index);
}

// 200 when the database answers and every node followed is kept up with; else 503 saying why
// (the node pools of client libraries pick nodes by this).
Task<> Health(Db &db, httplib::Response &response, HealthLimits limits)
{
    SyncHealth health = co_await ReadSyncHealth(db, limits);
    if (health.healthy)
    {
        response.status = 200;
        co_return;
    }
    response.status = 503;
    response.set_content(JsonText(nlohmann::json{{"healthy", false}, {"reason", health.reason}}),
                         "application/json");
}

Task<> Routes(const httplib::Request &, httplib::Response &response, Db &, const PathParams &)
{
    SendJson(response,
             {{"routes", {"core/v2", "indexer/v1", "explorer/v2", "analytics/v2", "v1"}}});
    co_return;
}

} // namespace

void RegisterCoreRoutes(Router &router, const HealthLimits &health)
{
    router.Get(
        {kCore + "/info", "core", "Node information and protocol parameters; isHealthy as /health"},
        [health](const httplib::Request &, httplib::Response &response, Db &db, const PathParams &)
        { return Info(db, response, health); });
    router.Get({kCore + "/blocks/{blockId}", "core", "A block (JSON or raw bytes)", {}, true},
               Block);
    router.Get({kCore + "/blocks/{blockId}/metadata", "core", "A block's metadata"}, BlockMetadata);
    const QueryParam ledger_index = {
        "ledgerIndex", "integer",
        "a milestone held: the output's state at its end (spent or not); default: the newest"};
    router.Get({kCore + "/outputs/{outputId}",
                "core",
                "An output with its metadata",
                {ledger_index},
                true},
               Output);
    router.Get(
        {kCore + "/outputs/{outputId}/metadata", "core", "An output's metadata", {ledger_index}},
        OutputMetadata);
    router.Get({kCore + "/transactions/{transactionId}/included-block",
                "core",
                "The block that included a transaction",
                {},
                true},
               IncludedBlock);
    router.Get(
        {kCore + "/milestones/by-index/{index}", "core", "A milestone payload by index", {}, true},
        MilestoneByIndex);
    router.Get({kCore + "/milestones/by-index/{index}/utxo-changes", "core",
                "Outputs a milestone created and consumed"},
               UtxoChangesByIndex);
    router.Get({kCore + "/milestones/{milestoneId}", "core", "A milestone payload by ID", {}, true},
               MilestoneById);
    router.Get({kCore + "/milestones/{milestoneId}/utxo-changes", "core",
                "Outputs a milestone created and consumed"},
               UtxoChangesById);
    router.Get({"/health", "core",
                "200 when the database answers and the archive keeps up with the nodes "
                "`permanode sync` follows, else 503 with {\"healthy\": false, \"reason\"}"},
               [health](const httplib::Request &, httplib::Response &response, Db &db,
                        const PathParams &) { return Health(db, response, health); });
    router.Get({"/api/routes", "core", "The API families this server offers"}, Routes);
}

} // namespace permanode::http
