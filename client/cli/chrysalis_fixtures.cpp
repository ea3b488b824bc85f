// See chrysalis_fixtures.hpp.
#include "chrysalis_fixtures.hpp"

#include "bundle_check.hpp"

#include "codec/hex.hpp"

#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace permanode::cli
{
namespace
{

struct ConeEntry
{
    const char *id_prefix; // the first hex digits of the message ID
    InclusionState state;
};

struct Cone
{
    std::uint32_t index;
    std::uint32_t timestamp; // 16241's is its milestone payload's; 16242's ten seconds later
    std::vector<ConeEntry> messages;
};

const std::vector<Cone> &TestnetCones()
{
    static const std::vector<Cone> cones = {
        {16241,
         1617959712,
         {{"10dbee9c", InclusionState::kNoTransaction},
          {"30d87fa9", InclusionState::kNoTransaction},
          {"70a9a9bc", InclusionState::kIncluded},
          {"92f427d6", InclusionState::kIncluded},
          {"89e4d40f", InclusionState::kIncluded},
          {"53e5f848", InclusionState::kNoTransaction}}},
        {16242, 1617959722, {{"1f7af3df", InclusionState::kIncluded}}}};
    return cones;
}

} // namespace

std::vector<MilestoneBundle> ChrysalisFixtureBundles(const std::string &messages_json)
{
    std::ifstream in(messages_json);
    if (!in)
        throw std::runtime_error("cannot read " + messages_json);
    nlohmann::json document = nlohmann::json::parse(in);
    std::map<std::string, codec::Bytes> by_id;
    for (const auto &message : document.at("messages"))
    {
        auto bytes = codec::FromHex("0x" + message.at("message_hex").get<std::string>());
        if (!bytes)
            throw std::runtime_error(messages_json + ": a message_hex is not hex");
        by_id[message.at("message_id_computed").get<std::string>()] = std::move(*bytes);
    }
    std::vector<MilestoneBundle> bundles;
    for (const Cone &cone : TestnetCones())
    {
        MilestoneBundle bundle;
        bundle.protocol_version = kChrysalisProtocol;
        bundle.milestone_index = cone.index;
        bundle.milestone_timestamp = cone.timestamp;
        for (const ConeEntry &entry : cone.messages)
        {
            auto found = by_id.lower_bound(entry.id_prefix);
            if (found == by_id.end() || found->first.rfind(entry.id_prefix, 0) != 0)
                throw std::runtime_error(messages_json + " has no message " + entry.id_prefix +
                                         "…");
            bundle.blocks.push_back({found->second, entry.state, 0});
        }
        // the fixture holds some messages of each cone only
        bundle.partial_cone = MerkleProblem(bundle).has_value();
        bundles.push_back(std::move(bundle));
    }
    return bundles;
}

} // namespace permanode::cli
