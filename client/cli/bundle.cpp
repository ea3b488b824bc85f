// The milestone bundle format: parsing and rendering of one NDJSON line.
#include "bundle.hpp"

#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/protocol_parameters.hpp"

#include <simdjson.h>

namespace permanode::cli
{
namespace
{

// simdjson's DOM: a bundle line is mostly long hex strings, which it hands over as views instead
// of building them a character at a time.
using simdjson::dom::element;
using simdjson::dom::object;

element Field(const object &parent, const char *name, const std::string &where)
{
    element value;
    if (parent[name].get(value) != simdjson::SUCCESS)
        throw BundleError(where + "missing \"" + name + "\"");
    return value;
}

std::uint32_t UnsignedField(const object &parent, const char *name, std::uint64_t max,
                            const std::string &where = {})
{
    std::uint64_t value = 0;
    if (Field(parent, name, where).get_uint64().get(value) != simdjson::SUCCESS || value > max)
        throw BundleError(where + "\"" + name + "\" must be an integer from 0 to " +
                          std::to_string(max));
    return static_cast<std::uint32_t>(value);
}

std::string_view StringField(const object &parent, const char *name, const std::string &where)
{
    std::string_view value;
    if (Field(parent, name, where).get_string().get(value) != simdjson::SUCCESS)
        throw BundleError(where + "\"" + name + "\" must be a string");
    return value;
}

codec::Bytes HexField(const object &parent, const char *name, const std::string &where)
{
    std::string_view text = StringField(parent, name, where);
    if (text.substr(0, 2) != "0x")
        throw BundleError(where + "\"" + name + "\" must be 0x-prefixed hex");
    auto bytes = codec::FromHex(text);
    if (!bytes)
        throw BundleError(where + "\"" + name + "\" is not valid hex");
    return std::move(*bytes);
}

InclusionState ParseInclusionState(std::string_view text, const std::string &where)
{
    if (text == "included")
        return InclusionState::kIncluded;
    if (text == "conflicting")
        return InclusionState::kConflicting;
    if (text == "no_transaction" || text == "noTransaction")
        return InclusionState::kNoTransaction;
    throw BundleError(where + "unknown inclusion_state \"" + std::string(text) +
                      "\" (expected included, conflicting or no_transaction)");
}

object ObjectEntry(const element &entry, const std::string &where)
{
    object value;
    if (entry.get_object().get(value) != simdjson::SUCCESS)
        throw BundleError(where + "must be an object");
    return value;
}

BundleBlock ParseBlock(const element &entry, std::size_t index)
{
    std::string where = "block " + std::to_string(index) + ": ";
    object fields = ObjectEntry(entry, where);
    BundleBlock block;
    block.bytes = HexField(fields, "block", where);
    if (block.bytes.empty())
        throw BundleError(where + "\"block\" is empty");
    block.inclusion_state =
        ParseInclusionState(StringField(fields, "inclusion_state", where), where);
    element reason;
    if (fields["conflict_reason"].get(reason) == simdjson::SUCCESS)
        block.conflict_reason =
            static_cast<std::uint8_t>(UnsignedField(fields, "conflict_reason", 255, where));
    return block;
}

SnapshotOutput ParseSnapshotOutput(const element &entry, std::size_t index)
{
    std::string where = "snapshot output " + std::to_string(index) + ": ";
    object fields = ObjectEntry(entry, where);
    SnapshotOutput output;
    auto id = codec::FromHexFixed<34>(StringField(fields, "output_id", where));
    if (!id)
        throw BundleError(where + "\"output_id\" must be 0x-prefixed hex of 34 bytes");
    output.output_id = codec::OutputIdFromBytes(*id);
    auto block_id = codec::FromHexFixed<32>(StringField(fields, "block_id", where));
    if (!block_id)
        throw BundleError(where + "\"block_id\" must be 0x-prefixed hex of 32 bytes");
    output.block_id = *block_id;
    output.output = HexField(fields, "output", where);
    return output;
}

} // namespace

const char *InclusionStateName(InclusionState state)
{
    switch (state)
    {
        case InclusionState::kIncluded:
            return "included";
        case InclusionState::kConflicting:
            return "conflicting";
        case InclusionState::kNoTransaction:
            break;
    }
    return "no_transaction";
}

MilestoneBundle ParseBundle(std::string_view line)
{
    // One parser per thread, reused: it keeps its buffers from line to line.
    thread_local simdjson::dom::parser parser;
    element document;
    if (auto error = parser.parse(line.data(), line.size()).get(document))
        throw BundleError(std::string("malformed JSON: ") + simdjson::error_message(error));
    object top;
    if (document.get_object().get(top) != simdjson::SUCCESS)
        throw BundleError("a bundle line must be a JSON object");

    MilestoneBundle bundle;
    element version;
    if (top["protocol_version"].get(version) == simdjson::SUCCESS)
    {
        std::uint64_t value = UnsignedField(top, "protocol_version", 255);
        if (value != kChrysalisProtocol && value != kStardustProtocol)
            throw BundleError("unknown \"protocol_version\" " + std::to_string(value) +
                              " (expected 1 for Chrysalis messages or 2 for Stardust blocks)");
        bundle.protocol_version = static_cast<std::uint8_t>(value);
    }
    bundle.milestone_index = UnsignedField(top, "milestone_index", INT32_MAX);
    bundle.milestone_timestamp = UnsignedField(top, "milestone_timestamp", UINT32_MAX);
    simdjson::dom::array blocks;
    if (Field(top, "blocks", {}).get_array().get(blocks) != simdjson::SUCCESS)
        throw BundleError("\"blocks\" must be an array");
    bundle.blocks.reserve(blocks.size());
    std::size_t i = 0;
    for (element entry : blocks)
        bundle.blocks.push_back(ParseBlock(entry, i++));
    element snapshot;
    if (top["snapshot_outputs"].get(snapshot) == simdjson::SUCCESS && !snapshot.is_null())
    {
        simdjson::dom::array outputs;
        if (snapshot.get_array().get(outputs) != simdjson::SUCCESS)
            throw BundleError("\"snapshot_outputs\" must be an array");
        i = 0;
        for (element entry : outputs)
            bundle.snapshot_outputs.push_back(ParseSnapshotOutput(entry, i++));
    }
    bool partial = false;
    if (top["partial_cone"].get(partial) == simdjson::SUCCESS)
        bundle.partial_cone = partial;
    element payload;
    if (bundle.protocol_version == kStardustProtocol &&
        top["milestone"].get(payload) == simdjson::SUCCESS && !payload.is_null())
        bundle.milestone_payload = HexField(top, "milestone", {});
    object parameters;
    if (bundle.protocol_version == kStardustProtocol &&
        top["protocol_parameters"].get(parameters) == simdjson::SUCCESS)
    {
        bundle.protocol_parameters = HexField(parameters, "params", "\"protocol_parameters\": ");
        if (!codec::TryDecodeProtocolParameters(codec::ByteSpan(bundle.protocol_parameters)))
            throw BundleError("\"protocol_parameters\": \"params\" are not protocol parameters "
                              "(TIP-32)");
    }
    return bundle;
}

std::string FormatBundle(const MilestoneBundle &bundle)
{
    // Written by hand rather than through a JSON DOM: the generator writes millions of blocks.
    std::string out;
    std::size_t size = 128;
    for (const auto &block : bundle.blocks)
        size += 2 * block.bytes.size() + 80;
    out.reserve(size);
    out += "{";
    // Stardust bundles leave it out, as they did before Chrysalis bundles existed.
    if (bundle.protocol_version != kStardustProtocol)
        out += "\"protocol_version\":" + std::to_string(bundle.protocol_version) + ",";
    out += "\"milestone_index\":" + std::to_string(bundle.milestone_index) +
           ",\"milestone_timestamp\":" + std::to_string(bundle.milestone_timestamp) +
           ",\"blocks\":[";
    for (std::size_t i = 0; i < bundle.blocks.size(); ++i)
    {
        const BundleBlock &block = bundle.blocks[i];
        if (i > 0)
            out += ',';
        out += "{\"block\":\"";
        out += codec::ToHex(codec::ByteSpan(block.bytes));
        out += "\",\"inclusion_state\":\"";
        out += InclusionStateName(block.inclusion_state);
        out += "\",\"conflict_reason\":" + std::to_string(block.conflict_reason) + "}";
    }
    out += "]";
    if (!bundle.snapshot_outputs.empty())
    {
        out += ",\"snapshot_outputs\":[";
        for (std::size_t i = 0; i < bundle.snapshot_outputs.size(); ++i)
        {
            const SnapshotOutput &output = bundle.snapshot_outputs[i];
            if (i > 0)
                out += ',';
            out += "{\"output_id\":\"" + codec::ToHex(codec::ToBytes(output.output_id)) +
                   "\",\"block_id\":\"" + codec::ToHex(output.block_id) + "\",\"output\":\"" +
                   codec::ToHex(codec::ByteSpan(output.output)) + "\"}";
        }
        out += "]";
    }
    if (bundle.partial_cone)
        out += ",\"partial_cone\":true";
    out += "}";
    return out;
}

} // namespace permanode::cli
