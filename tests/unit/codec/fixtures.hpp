// Loads the real Shimmer blocks from shared/fixtures/shimmer (MongoDB extended JSON).
// Header-only so the tests, the tools and the benchmark share one loader.
#pragma once

#include "chronicle_model.hpp"
#include "codec/types.hpp"

#include <nlohmann/json.hpp>
#include <sodium.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::codec::fixtures
{

// Binary, Binary32 and the Chronicle output model.
using namespace permanode::chronicle;

// PERMANODE_FIXTURES overrides the directory chosen at configure time.
inline std::string Directory()
{
    if (const char *env = std::getenv("PERMANODE_FIXTURES"); env && *env)
        return env;
#ifdef PERMANODE_FIXTURES_DEFAULT
    return PERMANODE_FIXTURES_DEFAULT;
#else
    throw std::runtime_error("set PERMANODE_FIXTURES to the shimmer fixtures directory");
#endif
}

inline nlohmann::json LoadJson(const std::string &name)
{
    std::string path = Directory() + "/" + name;
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open fixture " + path);
    return nlohmann::json::parse(in);
}

struct Block
{
    std::string name; // e.g. "17340/cone/5" or "2418187/12"
    Bytes raw;
    BlockId block_id{};
    nlohmann::json metadata;
};

// The cone blocks of in_memory_data.json (milestone order, then white-flag order) and all blocks of
// blocks_ms_2418187.json.
inline std::vector<Block> AllBlocks()
{
    std::vector<Block> blocks;
    nlohmann::json in_memory = LoadJson("in_memory_data.json");
    for (auto &[milestone, data] : in_memory.items())
    {
        const auto &cone = data.at("cone");
        for (std::size_t i = 0; i < cone.size(); ++i)
        {
            const auto &entry = cone.at(std::to_string(i));
            blocks.push_back({milestone + "/cone/" + std::to_string(i), Binary(entry.at("raw")),
                              Binary32(entry.at("block_id")), entry.at("metadata")});
        }
    }
    nlohmann::json later = LoadJson("blocks_ms_2418187.json");
    for (std::size_t i = 0; i < later.size(); ++i)
        blocks.push_back({"2418187/" + std::to_string(i), Binary(later[i].at("raw")),
                          Binary32(later[i].at("_id")), later[i].at("metadata")});
    return blocks;
}

} // namespace permanode::codec::fixtures
