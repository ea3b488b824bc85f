// The two REST APIs a RestNode speaks, each era's requests and replies (rest_stardust.cpp,
// rest_chrysalis.cpp), and the JSON reading they share (rest_node.cpp).
#pragma once

#include "sync/cone_walk.hpp"
#include "sync/http_getter.hpp"
#include "sync/node.hpp"

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace permanode::sync::rest
{

// The core API v2 (Stardust): /api/core/v2/…
NodeStatus StardustStatus(RestGetter &http);
NodeMilestone StardustMilestone(RestGetter &http, std::uint32_t index, int parallel);

// The API v1 (Chrysalis): /api/v1/…, every reply inside {"data": …}.
NodeStatus ChrysalisStatus(RestGetter &http);
NodeMilestone ChrysalisMilestone(RestGetter &http, std::uint32_t index, int parallel);

// GET path as JSON; a reply that is not JSON is NodeError kProtocol.
nlohmann::json GetJson(RestGetter &http, const std::string &path);
// A field of a reply, of the type asked; kProtocol naming `what` and the field otherwise.
const nlohmann::json &Field(const nlohmann::json &object, const char *key, const std::string &what);
std::uint32_t U32Field(const nlohmann::json &object, const char *key, const std::string &what);
std::string StringField(const nlohmann::json &object, const char *key, const std::string &what);
// A flag the node may leave out: true only when `object` is an object whose `key` is true.
bool FlagField(const nlohmann::json &object, const char *key);
// Hex with or without 0x, of `size` bytes (0: any).
codec::Bytes HexBytes(const nlohmann::json &value, std::size_t size, const std::string &what);
codec::OutputId OutputIdOf(const nlohmann::json &value, const std::string &what);
// A block as its metadata describes it (both APIs name the fields alike:
// referencedByMilestoneIndex, ledgerInclusionState, conflictReason, and in Hornet 2.x
// whiteFlagIndex), with its bytes from get_bytes(), hashed to `id`, when milestone `index`
// referenced it.
WalkedBlock ConeBlockOf(const nlohmann::json &metadata, std::uint32_t index,
                        const codec::BlockId &id, const std::string &what,
                        const std::function<std::string()> &get_bytes);
// The node's created and consumed outputs, by ID, from a utxo-changes reply.
LedgerUpdates UpdatesOf(const nlohmann::json &changes, const std::string &what);
// The created outputs the cone does not create, filled by fetch(output) (bytes and block).
void FillOutside(NodeMilestone &milestone, int parallel,
                 const std::function<void(LedgerOutput &)> &fetch);

} // namespace permanode::sync::rest
