// Rows of the client library in the core API JSON shapes (TIP-25), through the codec.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "permanode/ledger_types.hpp"

namespace httplib
{
struct Response;
}

namespace permanode::http
{

nlohmann::json BlockJson(const client::BlockRow &block);
nlohmann::json BlockMetadataJson(const client::BlockRow &block);
// {"metadata": ..., "output": ...}
nlohmann::json OutputJson(const client::OutputRow &output);
nlohmann::json OutputMetadataJson(const client::OutputRow &output);
// The milestone payload.
nlohmann::json MilestoneJson(const client::MilestoneRow &milestone);
nlohmann::json UtxoChangesJson(const client::UtxoChanges &changes);
// {"ledgerIndex", "pageSize", "cursor"?, "items"}
nlohmann::json OutputIdPageJson(const client::OutputIdPage &page, int page_size);

void SendJson(httplib::Response &response, const nlohmann::json &body);
// Raw bytes as application/vnd.iota.serializer-v1.
void SendRaw(httplib::Response &response, const std::string &bytes);

} // namespace permanode::http
