// Rows of the client library in the REST API v1 shapes (TIP-13) of Chrysalis nodes: plain hex
// without 0x, through the Chrysalis codec.
#pragma once

#include <nlohmann/json.hpp>

#include "codec/chrysalis/model.hpp"
#include "permanode/ledger_types.hpp"

namespace permanode::http
{

// 0x-hex (the database's form) as API v1 hex.
std::string PlainHex(const std::string &hex);

// The stored message decoded (a 500 when it does not decode: a damaged archive).
codec::chrysalis::Message DecodeStoredMessage(const client::BlockRow &row);
nlohmann::json ChrysalisMessageJson(const client::BlockRow &row);
nlohmann::json ChrysalisMetadataJson(const client::BlockRow &row);
// GET outputs/{id}: the output with where it was created and spent.
nlohmann::json ChrysalisOutputJson(const client::OutputRow &output);
// {"milestoneIndex", "receipt"} of a milestone that carries a receipt.
nlohmann::json ReceiptTupleJson(const client::ReceiptRow &row);
// GET treasury: the treasury output the newest receipt made.
nlohmann::json TreasuryJson(const client::ReceiptRow &row);
// The name of a Chrysalis network (chrysalis-mainnet, testnet7, ...) whose network ID is the
// first 8 bytes of its BLAKE2b-256; the ID in decimal when it is none of them.
std::string NetworkName(std::uint64_t network_id);

} // namespace permanode::http
