// The seed corpora of the fuzz targets (../README.md), written by fuzz_seeds from the real
// fixtures (../../../../shared/fixtures) and from what the project's own writers make of them.
#pragma once

#include "codec/types.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace permanode::fuzz
{

// The directory a target's seeds go into, a file each.
class SeedDir
{
  public:
    explicit SeedDir(std::string path) : path_(std::move(path)) {}
    // Writes DIR/NAME; throws when it cannot.
    void Write(const std::string &name, std::string_view bytes) const;
    void Write(const std::string &name, const codec::Bytes &bytes) const;

  private:
    std::string path_;
};

// IDs and addresses of the real fixtures, in the forms the HTTP API and the nodes' replies take.
struct Samples
{
    std::string block_id;          // 0x-hex, of a Shimmer transaction block
    std::string transaction_id;    // 0x-hex, of that block's transaction
    std::string output_id;         // 0x-hex, its first output
    std::string milestone_id;      // 0x-hex, of a Shimmer milestone
    std::uint32_t milestone_index; // that milestone's
    std::string bech32_address;    // smr1..., an Ed25519 address of a Shimmer output
    std::string ed25519_hash;      // 0x-hex, that address's hash
    std::string message_id;        // hex without 0x, of a Chrysalis fixture message
    std::string legacy_hash;       // 81 trytes, a legacy fixture transaction's
    std::string legacy_address;    // 81 trytes, its address
    std::string legacy_bundle;     // 81 trytes, its bundle
    std::string legacy_tag;        // 27 trytes, its tag
    std::string cursor;            // as the server writes one, of a block list
};
const Samples &FixtureSamples();

// Each target's seeds (seeds_*.cpp). ucan_fuzz's are files of their own (seeds/ucan).
void WriteCodecSeeds(const SeedDir &dir);
void WriteBundleSeeds(const SeedDir &dir);
void WriteDmpLineSeeds(const SeedDir &dir);
void WriteChronicleSeeds(const SeedDir &dir);
void WriteHttpRequestSeeds(const SeedDir &dir);
void WriteHttpParamsSeeds(const SeedDir &dir);
void WriteNodeReplySeeds(const SeedDir &dir);
// The route table http_params_fuzz is compiled with: every route the HTTP server registers.
std::string RouteTable();

} // namespace permanode::fuzz
