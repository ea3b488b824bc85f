// Loads the real legacy (ternary) transactions of shared/fixtures/legacy/*.json and assembles
// their bundles the way a node did: from each tail (current index 0) along the trunks.
#pragma once

#include "codec/legacy/transaction.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::codec::legacy::fixtures
{

// PERMANODE_LEGACY_FIXTURES overrides the directory chosen at configure time.
inline std::string Directory()
{
    if (const char *env = std::getenv("PERMANODE_LEGACY_FIXTURES"); env && *env)
        return env;
#ifdef PERMANODE_LEGACY_FIXTURES_DEFAULT
    return PERMANODE_LEGACY_FIXTURES_DEFAULT;
#else
    throw std::runtime_error("set PERMANODE_LEGACY_FIXTURES to the legacy fixtures directory");
#endif
}

struct FixtureTransaction
{
    std::string file;   // fixture file name
    std::string hash;   // Curl-P-81 as the fixture computed it
    std::string trytes; // 2673
    bool hash_recorded_in_source = false;
};

struct FixtureFile
{
    std::string name;
    nlohmann::json json;
};

// Every fixture file, sorted by name.
inline std::vector<FixtureFile> Files()
{
    std::vector<FixtureFile> files;
    for (const auto &entry : std::filesystem::directory_iterator(Directory()))
        if (entry.path().extension() == ".json")
        {
            std::ifstream in(entry.path());
            files.push_back({entry.path().filename().string(), nlohmann::json::parse(in)});
        }
    std::sort(files.begin(), files.end(),
              [](const FixtureFile &a, const FixtureFile &b) { return a.name < b.name; });
    if (files.empty())
        throw std::runtime_error("no legacy fixtures in " + Directory());
    return files;
}

inline std::vector<FixtureTransaction> Transactions(const FixtureFile &file)
{
    std::vector<FixtureTransaction> out;
    for (const auto &tx : file.json.at("transactions"))
        out.push_back({file.name, tx.at("hash").get<std::string>(),
                       tx.at("trytes").get<std::string>(),
                       tx.at("hash_recorded_in_source").get<bool>()});
    return out;
}

inline std::vector<FixtureTransaction> AllTransactions()
{
    std::vector<FixtureTransaction> out;
    for (const auto &file : Files())
        for (auto &tx : Transactions(file))
            out.push_back(std::move(tx));
    return out;
}

// One bundle as a node would hand it to validation: transactions in trunk order from a tail,
// with their hashes.
struct AssembledBundle
{
    std::vector<Transaction> transactions;
    std::vector<std::string> hashes;
    bool trunk_chained = false; // found along the trunks; else ordered by current index
};

// The bundle `bundle_hash` among `txs`: from the first tail along the trunks while the
// transactions carry the bundle hash, up to its last index; a bundle never attached (no chain)
// is ordered by current index instead when each index occurs once. Empty when incomplete.
inline std::vector<AssembledBundle> Assemble(const std::vector<FixtureTransaction> &txs,
                                             const std::string &bundle_hash)
{
    std::map<std::string, Transaction> members; // by hash
    for (const auto &tx : txs)
    {
        Transaction decoded = DecodeTransaction(tx.trytes);
        if (decoded.bundle == bundle_hash)
            members.emplace(tx.hash, decoded);
    }
    std::vector<AssembledBundle> bundles;
    for (const auto &[hash, tx] : members)
    {
        if (tx.current_index != 0)
            continue;
        AssembledBundle bundle;
        bundle.trunk_chained = true;
        std::string at = hash;
        while (true)
        {
            const Transaction &current = members.at(at);
            bundle.transactions.push_back(current);
            bundle.hashes.push_back(at);
            if (static_cast<std::int64_t>(bundle.transactions.size()) > current.last_index)
                break;
            auto next = members.find(current.trunk_transaction);
            if (next == members.end())
            {
                bundle.transactions.clear();
                break;
            }
            at = next->first;
        }
        if (!bundle.transactions.empty())
            bundles.push_back(std::move(bundle));
    }
    if (!bundles.empty() || members.empty())
        return bundles;
    // No chain: one transaction per index 0..last, in index order.
    std::map<std::int64_t, std::string> by_index;
    std::int64_t last = members.begin()->second.last_index;
    for (const auto &[hash, tx] : members)
        if (!by_index.emplace(tx.current_index, hash).second || tx.last_index != last)
            return {};
    if (static_cast<std::int64_t>(by_index.size()) != last + 1 || by_index.rbegin()->first != last)
        return {};
    AssembledBundle bundle;
    for (const auto &[index, hash] : by_index)
    {
        bundle.transactions.push_back(members.at(hash));
        bundle.hashes.push_back(hash);
    }
    bundles.push_back(std::move(bundle));
    return bundles;
}

} // namespace permanode::codec::legacy::fixtures
