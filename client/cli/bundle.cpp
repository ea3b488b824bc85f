// The milestone bundle format: parsing and rendering of one NDJSON line.
#include "bundle.hpp"

#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <nlohmann/json.hpp>

namespace permanode::cli
{
namespace
{

using nlohmann::json;

const json &Field(const json &object, const char *name, const std::string &where)
{
    auto it = object.find(name);
    if (it == object.end())
        throw BundleError(where + "missing \"" + name + "\"");
    return *it;
}

std::uint32_t UnsignedField(const json &object, const char *name, std::uint64_t max,
                            const std::string &where = {})
{
    const json &value = Field(object, name, where);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() > max)
        throw BundleError(where + "\"" + name + "\" must be an integer from 0 to " +
                          std::to_string(max));
    return static_cast<std::uint32_t>(value.get<std::uint64_t>());
}

const std::string &StringField(const json &object, const char *name, const std::string &where)
{
    const json &value = Field(object, name, where);
    if (!value.is_string())
        throw BundleError(where + "\"" + name + "\" must be a string");
    return value.get_ref<const std::string &>();
}

codec::Bytes HexField(const json &object, const char *name, const std::string &where)
{
    const std::string &text = StringField(object, name, where);
    if (text.rfind("0x", 0) != 0)
        throw BundleError(where + "\"" + name + "\" must be 0x-prefixed hex");
    auto bytes = codec::FromHex(text);
    if (!bytes)
        throw BundleError(where + "\"" + name + "\" is not valid hex");
    return std::move(*bytes);
}

InclusionState ParseInclusionState(const std::string &text, const std::string &where)
{
    if (text == "included")
        return InclusionState::kIncluded;
    if (text == "conflicting")
        return InclusionState::kConflicting;
    if (text == "no_transaction" || text == "noTransaction")
        return InclusionState::kNoTransaction;
    throw BundleError(where + "unknown inclusion_state \"" + text +
                      "\" (expected included, conflicting or no_transaction)");
}

BundleBlock ParseBlock(const json &entry, std::size_t index)
{
    std::string where = "block " + std::to_string(index) + ": ";
    if (!entry.is_object())
        throw BundleError(where + "must be an object");
    BundleBlock block;
    block.bytes = HexField(entry, "block", where);
    if (block.bytes.empty())
        throw BundleError(where + "\"block\" is empty");
    block.inclusion_state =
        ParseInclusionState(StringField(entry, "inclusion_state", where), where);
    if (entry.contains("conflict_reason"))
        block.conflict_reason =
            static_cast<std::uint8_t>(UnsignedField(entry, "conflict_reason", 255, where));
    return block;
}

SnapshotOutput ParseSnapshotOutput(const json &entry, std::size_t index)
{
    std::string where = "snapshot output " + std::to_string(index) + ": ";
    if (!entry.is_object())
        throw BundleError(where + "must be an object");
    SnapshotOutput output;
    auto id = codec::FromHexFixed<34>(StringField(entry, "output_id", where));
    if (!id)
        throw BundleError(where + "\"output_id\" must be 0x-prefixed hex of 34 bytes");
    output.output_id = codec::OutputIdFromBytes(*id);
    auto block_id = codec::FromHexFixed<32>(StringField(entry, "block_id", where));
    if (!block_id)
        throw BundleError(where + "\"block_id\" must be 0x-prefixed hex of 32 bytes");
    output.block_id = *block_id;
    output.output = HexField(entry, "output", where);
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
    json document;
    try
    {
        document = json::parse(line.begin(), line.end());
    }
    catch (const json::parse_error &e)
    {
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at ...".
        std::string what = e.what();
        auto at = what.find("] ");
        throw BundleError("malformed JSON: " +
                          (at == std::string::npos ? what : what.substr(at + 2)));
    }
    if (!document.is_object())
        throw BundleError("a bundle line must be a JSON object");

    MilestoneBundle bundle;
    bundle.milestone_index = UnsignedField(document, "milestone_index", INT32_MAX);
    bundle.milestone_timestamp = UnsignedField(document, "milestone_timestamp", UINT32_MAX);
    const json &blocks = Field(document, "blocks", {});
    if (!blocks.is_array())
        throw BundleError("\"blocks\" must be an array");
    bundle.blocks.reserve(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i)
        bundle.blocks.push_back(ParseBlock(blocks[i], i));
    if (auto it = document.find("snapshot_outputs"); it != document.end() && !it->is_null())
    {
        if (!it->is_array())
            throw BundleError("\"snapshot_outputs\" must be an array");
        for (std::size_t i = 0; i < it->size(); ++i)
            bundle.snapshot_outputs.push_back(ParseSnapshotOutput((*it)[i], i));
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
    out += "{\"milestone_index\":" + std::to_string(bundle.milestone_index) +
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
    out += "}";
    return out;
}

} // namespace permanode::cli
