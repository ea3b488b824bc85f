// Files that carry one generated era into the next (permanode generate): the legacy tail
// transactions Chrysalis receipts name (--migration-tails), and the Chrysalis outputs unspent at
// the end that the Stardust genesis carries (--end-model, --carry).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator_common.hpp"

namespace permanode::cli
{

// A line of an era file that is not what it should be; what() is "FILE:LINE: problem".
class EraFileError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// One legacy transaction hash (81 trytes) per line, as t5b1 bytes.
std::vector<std::array<std::uint8_t, 49>> ReadMigrationTails(const std::string &path);
// One output per line: output ID (0x-hex), owner's Ed25519 hash (0x-hex), amount.
void WriteModel(const std::vector<ModelOutput> &model, const std::string &path);
std::vector<ModelOutput> ReadModel(const std::string &path);

} // namespace permanode::cli
