// Loads the real Chrysalis messages of shared/fixtures/chrysalis/chrysalis_messages.json.
#pragma once

#include "codec/hex.hpp"
#include "codec/types.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::codec::chrysalis::fixtures
{

// PERMANODE_CHRYSALIS_FIXTURES overrides the directory chosen at configure time.
inline std::string Directory()
{
    if (const char *env = std::getenv("PERMANODE_CHRYSALIS_FIXTURES"); env && *env)
        return env;
#ifdef PERMANODE_CHRYSALIS_FIXTURES_DEFAULT
    return PERMANODE_CHRYSALIS_FIXTURES_DEFAULT;
#else
    throw std::runtime_error(
        "set PERMANODE_CHRYSALIS_FIXTURES to the chrysalis fixtures directory");
#endif
}

struct Record
{
    std::string label;
    Bytes bytes;
    nlohmann::json record; // the whole fixture record
};

inline Bytes HexBytes(const std::string &hex)
{
    std::optional<Bytes> bytes = FromHex(hex);
    if (!bytes)
        throw std::runtime_error("bad hex in fixture: " + hex.substr(0, 16));
    return *bytes;
}

inline std::vector<Record> Messages()
{
    std::string path = Directory() + "/chrysalis_messages.json";
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open fixture " + path);
    nlohmann::json file = nlohmann::json::parse(in);
    std::vector<Record> records;
    for (const nlohmann::json &message : file.at("messages"))
        records.push_back({message.at("label").get<std::string>(),
                           HexBytes(message.at("message_hex").get<std::string>()), message});
    return records;
}

} // namespace permanode::codec::chrysalis::fixtures
