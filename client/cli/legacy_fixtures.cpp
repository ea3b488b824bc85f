#include "legacy_fixtures.hpp"

#include "codec/legacy/transaction.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace permanode::cli
{

namespace fs = std::filesystem;
namespace legacy = codec::legacy;

const char *const kFixtureCoordinator =
    "GLPBYFMNEWRJP9BP9NQHMSOWXGHPCSFQLQLZQBAGKBUZAIXLVQWHLZQBHTGCKMQCXPYWTMPSCXRNXVSHW";

std::vector<DmpLine> LegacyFixtureLines(const std::string &directory)
{
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(directory))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<DmpLine> lines;
    std::set<std::string> seen;
    for (const fs::path &file : files)
    {
        std::ifstream in(file);
        nlohmann::json document = nlohmann::json::parse(in);
        bool test_network = file.filename().string().rfind("hornet-", 0) == 0;
        for (const auto &t : document.at("transactions"))
        {
            DmpLine line{t.at("hash").get<std::string>(), t.at("trytes").get<std::string>(), 0};
            if (!seen.insert(line.hash).second)
                continue;
            if (test_network)
            {
                legacy::Transaction tx = legacy::DecodeTransaction(line.trytes);
                char first = tx.obsolete_tag.front();
                line.snapshot_index =
                    tx.address == kFixtureCoordinator && first >= 'A' && first <= 'C'
                        ? static_cast<std::uint32_t>(first - 'A' + 1)
                        : 3;
            }
            lines.push_back(std::move(line));
        }
    }
    if (lines.empty())
        throw std::runtime_error("no legacy transactions in " + directory);
    return lines;
}

} // namespace permanode::cli
