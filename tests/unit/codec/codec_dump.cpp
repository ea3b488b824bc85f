// codec_dump: a small driver for cross-checks (the fuzz seeds are tests/fuzz/fuzz_seeds.cpp's).
//   codec_dump json            hex blocks on stdin, one TIP-25 JSON block per line on stdout
//   codec_dump reencode        hex blocks on stdin, decode -> encode, hex on stdout
//   codec_dump params          hex protocol parameters blobs on stdin, one /info `protocol` JSON
//                              object per line (plus "reencoded": the blob encoded again)
//   codec_dump legacy-bundle   legacy bundles on stdin, one a line (its transactions' trytes in
//                              bundle order, space-separated): the verdict as JSON
//   codec_dump legacy-checksum 81-tryte addresses on stdin: {"checksum"} of each
//   codec_dump legacy-generate N SEED  N random legacy transactions, then value bundles signed
//                              at security 1, 2, 3 and 1+3+2, as JSON lines {"trytes"}
// A line that fails to decode prints {"error": "..."} (json, params) or "error: ..." (reencode).
#include "codec/block.hpp"
#include "codec/hex.hpp"
#include "codec/json.hpp"
#include "codec/legacy/address.hpp"
#include "legacy_samples.hpp"

#include <iostream>
#include <sstream>
#include <string>

namespace
{

using namespace permanode::codec;

int Usage()
{
    std::cerr << "usage: codec_dump json|reencode  (hex blocks on stdin)\n"
                 "       codec_dump params  (hex protocol parameters on stdin)\n"
                 "       codec_dump legacy-bundle|legacy-checksum  (trytes on stdin)\n"
                 "       codec_dump legacy-generate N SEED\n";
    return 2;
}

// The verdict on each bundle of standard input (trytes separated by spaces, bundle order).
int LegacyBundles()
{
    std::string line;
    while (std::getline(std::cin, line))
    {
        std::istringstream in(line);
        std::vector<legacy::Transaction> txs;
        for (std::string trytes; in >> trytes;)
            txs.push_back(legacy::DecodeTransaction(trytes));
        legacy::BundleVerdict verdict = legacy::ValidateBundle(txs);
        std::cout << nlohmann::json{{"valid", verdict.Valid()},
                                    {"check", legacy::BundleCheckName(verdict.failed)},
                                    {"transaction", verdict.transaction},
                                    {"detail", verdict.detail}}
                         .dump()
                  << "\n";
    }
    return 0;
}

int LegacyChecksums()
{
    std::string line;
    while (std::getline(std::cin, line))
        if (!line.empty())
            std::cout << nlohmann::json{{"checksum", legacy::AddressChecksum(line)}}.dump() << "\n";
    return 0;
}

int LegacyGenerate(std::size_t count, std::uint64_t seed)
{
    auto trytes_of = [](const legacy::Transaction &tx)
    {
        legacy::Trits trits = legacy::EncodeTransaction(tx);
        return legacy::TritsToTrytes(trits.data(), trits.size());
    };
    std::mt19937_64 random(seed);
    for (std::size_t i = 0; i < count; i++)
        std::cout << nlohmann::json{{"trytes",
                                     trytes_of(legacy::samples::RandomTransaction(random))}}
                         .dump()
                  << "\n";
    for (const auto &securities : std::vector<std::vector<int>>{{1}, {2}, {3}, {1, 3, 2}})
    {
        nlohmann::json bundle = nlohmann::json::array();
        for (const auto &tx : legacy::samples::SignedBundle(
                 securities, legacy::samples::RandomTrytes(random, legacy::kHashTrytes)))
            bundle.push_back(trytes_of(tx));
        std::cout << nlohmann::json{{"trytes", bundle}, {"security", securities}}.dump() << "\n";
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return Usage();
    std::string mode = argv[1];
    if (mode == "legacy-bundle")
        return LegacyBundles();
    if (mode == "legacy-checksum")
        return LegacyChecksums();
    if (mode == "legacy-generate")
        return argc == 4 ? LegacyGenerate(std::stoul(argv[2]), std::stoull(argv[3])) : Usage();
    if (mode != "json" && mode != "reencode" && mode != "params")
        return Usage();

    std::string line;
    while (std::getline(std::cin, line))
    {
        if (line.empty())
            continue;
        try
        {
            auto bytes = FromHex(line);
            if (!bytes)
                throw std::runtime_error("input line is not hex");
            if (mode == "params")
            {
                ProtocolParameters parameters = DecodeProtocolParameters(*bytes);
                nlohmann::json out = ToJson(parameters);
                out["reencoded"] = ToHex(EncodeProtocolParameters(parameters));
                std::cout << out.dump() << "\n";
                continue;
            }
            Block block = DecodeBlock(*bytes);
            if (mode == "json")
                std::cout << ToJson(block).dump() << "\n";
            else
                std::cout << ToHex(EncodeBlock(block)) << "\n";
        }
        catch (const std::exception &error)
        {
            if (mode != "reencode")
                std::cout << nlohmann::json{{"error", error.what()}}.dump() << "\n";
            else
                std::cout << "error: " << error.what() << "\n";
        }
    }
    return 0;
}
