// IRI's historical export (.dmp): one transaction a line, "hash,trytes,snapshot_index", where
// snapshot_index is the milestone that confirmed it (0: none).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace permanode::cli
{

struct DmpLine
{
    std::string hash;                 // 81 trytes
    std::string trytes;               // 2673
    std::uint32_t snapshot_index = 0; // the milestone that confirms the transaction
};

// A line that is not a .dmp line; the message says what is wrong (without file:line).
class DmpLineError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// "hash,trytes,snapshot_index" (no newline).
std::string FormatDmpLine(const DmpLine &line);
// The reverse; checks the shape (field count, lengths, tryte characters, the index), not the hash.
DmpLine ParseDmpLine(std::string_view line);

} // namespace permanode::cli
