// Seed 000's routes, at the paths it names: messages (blocks), their metadata and children,
// messages by index (tag), an address's outputs, an output, a milestone's messages. They serve
// both eras: lists span every partition newest first, whatever the protocol of their rows, and a
// message, its metadata or an output comes in its era's node API shape (core API v2 for a
// Stardust block, REST API v1 for a Chrysalis message), with its protocolVersion.
#include <httplib.h>

#include "routes/chrysalis_render.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "routes/render.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

// A page of IDs as {"<key>": ..., "<list>": [...], "cursor"?}.
nlohmann::json IdPageJson(const std::string &key_name, const nlohmann::json &key,
                          const std::string &list_name, const client::Page<std::string> &page)
{
    nlohmann::json body = {{key_name, key}, {list_name, page.items}};
    if (page.next)
    {
        body["cursor"] = client::EncodeCursor(*page.next);
    }
    return body;
}

Task<> Message(const httplib::Request &request, httplib::Response &response, Db &db,
               const PathParams &path)
{
    auto id = BlockIdParam(path[0], "messageId");
    auto block = co_await db.Run(client::queries::Block(id));
    if (!block)
    {
        throw NotFound("message " + id);
    }
    if (WantsRaw(request))
    {
        SendRaw(response, block->raw);
        co_return;
    }
    bool chrysalis = block->protocol_version == client::kChrysalis;
    SendJson(response, {{"messageId", id},
                        {"protocolVersion", block->protocol_version},
                        {"message", chrysalis ? ChrysalisMessageJson(*block) : BlockJson(*block)}});
}

Task<> MessageMetadata(const httplib::Request &, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    auto id = BlockIdParam(path[0], "messageId");
    auto block = co_await db.Run(client::queries::Block(id));
    if (!block)
    {
        throw NotFound("message " + id);
    }
    SendJson(response, block->protocol_version == client::kChrysalis ? ChrysalisMetadataJson(*block)
                                                                     : BlockMetadataJson(*block));
}

Task<> MessageChildren(const httplib::Request &request, httplib::Response &response, Db &db,
                       const PathParams &path)
{
    auto id = BlockIdParam(path[0], "messageId");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kBlockId);
    auto page = co_await db.Run(client::queries::BlockChildren(id, page_size, cursor));
    SendJson(response, IdPageJson("messageId", id, "childrenMessageIds", page));
}

Task<> MessagesByIndex(const httplib::Request &request, httplib::Response &response, Db &db,
                       const PathParams &)
{
    auto index = QueryHex(request, "index", 64);
    if (!index)
    {
        throw BadParameter("index", "required: the tag (indexation key) as 0x-hex");
    }
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kBlockId);
    auto page =
        co_await db.Run(client::queries::BlocksByTag("\\x" + index->substr(2), page_size, cursor));
    SendJson(response, IdPageJson("index", *index, "messageIds", page));
}

Task<> AddressOutputs(const httplib::Request &request, httplib::Response &response, Db &db,
                      const PathParams &path)
{
    auto address = AddressParam(path[0], "address");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kOutputId);
    auto page = co_await db.Run(client::queries::AddressOutputs(address, page_size, cursor));
    SendJson(response, IdPageJson("address", address, "outputIds", page));
}

Task<> SeedOutput(const httplib::Request &, httplib::Response &response, Db &db,
                  const PathParams &path)
{
    auto id = OutputIdParam(path[0], "outputId");
    auto output = co_await db.Run(client::queries::Output(id));
    if (!output)
    {
        throw NotFound("output " + id);
    }
    SendJson(response, output->protocol_version == client::kChrysalis ? ChrysalisOutputJson(*output)
                                                                      : OutputJson(*output));
}

Task<> MilestoneMessages(const httplib::Request &request, httplib::Response &response, Db &db,
                         const PathParams &path)
{
    auto index = MilestoneIndexParam(path[0], "index");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kWhiteFlagIndex);
    auto page = co_await db.Run(client::queries::MilestoneBlocks(index, page_size, cursor));
    SendJson(response, IdPageJson("index", index, "messageIds", page));
}

} // namespace

void RegisterSeedRoutes(Router &router)
{
    router.Get({"/messages/{messageId}",
                "seed",
                "A message: a Stardust block or a Chrysalis message, in its era's shape",
                {},
                true},
               Message);
    router.Get({"/messages/{messageId}/metadata", "seed", "A message's metadata"}, MessageMetadata);
    router.Get({"/messages/{messageId}/children", "seed", "A message's children, newest first",
                kPagingParams},
               MessageChildren);
    std::vector<QueryParam> by_index = kPagingParams;
    by_index.insert(by_index.begin(), {"index", "string", "the tag as 0x-hex (required)"});
    router.Get(
        {"/messages", "seed", "Messages with a tag (indexation key), newest first", by_index},
        MessagesByIndex);
    router.Get({"/addresses/{address}/outputs", "seed",
                "Outputs an address holds or held, newest first", kPagingParams},
               AddressOutputs);
    router.Get({"/outputs/{outputId}", "seed", "An output with its metadata, of either era"},
               SeedOutput);
    router.Get({"/milestones/{index}", "seed",
                "The messages a milestone references, in "
                "white-flag order",
                kPagingParams},
               MilestoneMessages);
}

} // namespace permanode::http
