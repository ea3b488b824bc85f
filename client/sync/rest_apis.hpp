// The two REST APIs a RestNode speaks, each era's requests and replies (rest_stardust.cpp,
// rest_chrysalis.cpp), and the JSON reading they share (rest_node.cpp).
#pragma once

#include "sync/http_getter.hpp"
#include "sync/node.hpp"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace permanode::sync::rest
{

// The core API v2 (Stardust): /api/core/v2/…
NodeStatus StardustStatus(HttpGetter &http);
NodeMilestone StardustMilestone(HttpGetter &http, std::uint32_t index, int parallel);

// The API v1 (Chrysalis): /api/v1/…, every reply inside {"data": …}.
NodeStatus ChrysalisStatus(HttpGetter &http);
NodeMilestone ChrysalisMilestone(HttpGetter &http, std::uint32_t index, int parallel);

// GET path as JSON; a reply that is not JSON is NodeError kProtocol.
nlohmann::json GetJson(HttpGetter &http, const std::string &path);
// A field of a reply, of the type asked; kProtocol naming `what` and the field otherwise.
const nlohmann::json &Field(const nlohmann::json &object, const char *key, const std::string &what);
std::uint32_t U32Field(const nlohmann::json &object, const char *key, const std::string &what);
// Hex with or without 0x, of `size` bytes (0: any).
codec::Bytes HexBytes(const nlohmann::json &value, std::size_t size, const std::string &what);
codec::OutputId OutputIdOf(const nlohmann::json &value, const std::string &what);
// Checks that bytes hash to the ID they were asked by (BLAKE2b-256 in both eras).
void CheckHashesTo(const codec::Bytes &bytes, const codec::BlockId &id, const char *what);
// The node's created and consumed outputs, by ID, from a utxo-changes reply.
LedgerUpdates UpdatesOf(const nlohmann::json &changes, const std::string &what);
// The created outputs the cone does not create, filled by fetch(output) (bytes and block).
void FillOutside(NodeMilestone &milestone, int parallel,
                 const std::function<void(LedgerOutput &)> &fetch);

} // namespace permanode::sync::rest
