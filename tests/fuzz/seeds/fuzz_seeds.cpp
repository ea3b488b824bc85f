// fuzz_seeds: writes a fuzz target's seed corpus (tests/fuzz/README.md).
//   fuzz_seeds TARGET DIR   the seeds of TARGET (codec, bundle, dmp_line, chronicle,
//                           http_request, http_params, node_reply) as files in DIR
//   fuzz_seeds routes FILE  the route table that http_params_fuzz is compiled with
// Fixture directories as the codec's tests take them (PERMANODE_FIXTURES and its siblings).
#include "seeds.hpp"

#include "codec/bech32.hpp"
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "codec/json.hpp"
#include "codec/legacy/transaction.hpp"
#include "permanode/cursor.hpp"

// The codec tests' loaders of the fixtures (some named as the CLI's own loaders are).
#include "../../unit/codec/chrysalis_fixtures.hpp"
#include "../../unit/codec/fixtures.hpp"
#include "../../unit/codec/legacy_fixtures.hpp"

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>

namespace permanode::fuzz
{

void SeedDir::Write(const std::string &name, std::string_view bytes) const
{
    std::string path = path_ + "/" + name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        throw std::runtime_error("cannot write " + path);
}

void SeedDir::Write(const std::string &name, const codec::Bytes &bytes) const
{
    Write(name, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

namespace
{

// The first "pubKeyHash" anywhere in a TIP-25 JSON value.
std::optional<std::string> FirstPubKeyHash(const nlohmann::json &value)
{
    if (value.is_object() && value.contains("pubKeyHash"))
        return value.at("pubKeyHash").get<std::string>();
    if (value.is_structured())
        for (const auto &item : value)
            if (auto found = FirstPubKeyHash(item))
                return found;
    return std::nullopt;
}

Samples LoadSamples()
{
    Samples samples{};
    for (const auto &fixture : codec::fixtures::AllBlocks())
    {
        codec::DecodedBlock decoded = codec::DecodeBlockWithIds(fixture.raw);
        if (decoded.milestone_id && samples.milestone_id.empty())
        {
            samples.milestone_id = codec::ToHex(*decoded.milestone_id);
            samples.milestone_index = codec::MilestoneOf(decoded.block)->essence.index;
        }
        if (decoded.transaction_id && samples.transaction_id.empty())
        {
            samples.block_id = codec::ToHex(decoded.block_id);
            samples.transaction_id = codec::ToHex(*decoded.transaction_id);
            samples.output_id = samples.transaction_id + "0000";
            samples.ed25519_hash = FirstPubKeyHash(codec::ToJson(decoded.block)).value();
            codec::Address address{codec::AddressType::kEd25519,
                                   *codec::FromHexFixed<32>(samples.ed25519_hash)};
            samples.bech32_address = codec::AddressToBech32(address, "smr");
        }
    }
    auto message = codec::chrysalis::fixtures::Messages().front();
    samples.message_id = codec::ToHex(codec::chrysalis::ComputeMessageId(message.bytes)).substr(2);
    auto legacy = codec::legacy::fixtures::AllTransactions().front();
    codec::legacy::Transaction tx = codec::legacy::DecodeTransaction(legacy.trytes);
    samples.legacy_hash = legacy.hash;
    samples.legacy_address = tx.address;
    samples.legacy_bundle = tx.bundle;
    samples.legacy_tag = tx.tag;
    client::Cursor cursor{0, 1664346000000000, static_cast<std::int32_t>(samples.milestone_index),
                          samples.block_id};
    samples.cursor = client::EncodeCursor(cursor);
    if (samples.milestone_id.empty() || samples.transaction_id.empty())
        throw std::runtime_error("the fixtures lack a milestone or a transaction");
    return samples;
}

int Usage()
{
    std::cerr << "usage: fuzz_seeds TARGET DIR | fuzz_seeds routes FILE\n";
    return 2;
}

} // namespace

const Samples &FixtureSamples()
{
    static const Samples samples = LoadSamples();
    return samples;
}

} // namespace permanode::fuzz

int main(int argc, char **argv)
{
    using namespace permanode::fuzz;
    if (argc != 3)
        return Usage();
    const std::string what = argv[1];
    try
    {
        if (what == "routes")
        {
            std::ofstream out(argv[2], std::ios::trunc);
            out << RouteTable();
            if (!out.flush())
                throw std::runtime_error(std::string("cannot write ") + argv[2]);
            return 0;
        }
        const std::map<std::string, std::function<void(const SeedDir &)>> writers = {
            {"codec", WriteCodecSeeds},
            {"bundle", WriteBundleSeeds},
            {"dmp_line", WriteDmpLineSeeds},
            {"chronicle", WriteChronicleSeeds},
            {"http_request", WriteHttpRequestSeeds},
            {"http_params", WriteHttpParamsSeeds},
            {"node_reply", WriteNodeReplySeeds},
        };
        auto writer = writers.find(what);
        if (writer == writers.end())
            return Usage();
        writer->second(SeedDir(argv[2]));
        return 0;
    }
    catch (const std::exception &e)
    {
        std::cerr << "fuzz_seeds " << what << ": " << e.what() << "\n";
        return 1;
    }
}
