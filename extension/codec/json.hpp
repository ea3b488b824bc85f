// JSON in the core REST API shape (TIP-25): 0x-hex bytes, decimal-string amounts, numeric types.
// Empty optional lists and byte strings are omitted, as the node API does.
#pragma once

#include "codec/address.hpp"
#include "codec/block.hpp"
#include "codec/block_metadata.hpp"
#include "codec/feature.hpp"
#include "codec/output.hpp"
#include "codec/payload.hpp"
#include "codec/protocol_parameters.hpp"
#include "codec/unlock_condition.hpp"

#include <nlohmann/json.hpp>

namespace permanode::codec
{

// Rendering (in json_write.cpp).
nlohmann::json ToJson(const Address &address);
nlohmann::json ToJson(const UnlockCondition &condition);
nlohmann::json ToJson(const Feature &feature);
nlohmann::json ToJson(const Output &output);
nlohmann::json ToJson(const Payload &payload);
nlohmann::json ToJson(const Block &block);
nlohmann::json ToJson(const BlockMetadata &metadata);
// The `protocol` object of the core API /info (iota.go v3 / Hornet shape): version, networkName,
// bech32Hrp, minPowScore, belowMaxDepth, rentStructure {vByteCost, vByteFactorData,
// vByteFactorKey} and tokenSupply as a decimal string. (A protocol parameters milestone option
// itself renders its params as hex, as Hornet and iota.js do.)
nlohmann::json ToJson(const ProtocolParameters &parameters);
// Output ID text: transaction ID hex followed by the index as 4 hex digits of u16 LE.
std::string OutputIdToHex(const OutputId &output_id);

// Parsing (in json_read.cpp); every function throws JsonError naming the offending path.
Address AddressFromJson(const nlohmann::json &json);
Output OutputFromJson(const nlohmann::json &json);
Payload PayloadFromJson(const nlohmann::json &json);
Block BlockFromJson(const nlohmann::json &json);
BlockMetadata BlockMetadataFromJson(const nlohmann::json &json);
ProtocolParameters ProtocolParametersFromJson(const nlohmann::json &json);
OutputId OutputIdFromHex(std::string_view text);

} // namespace permanode::codec
