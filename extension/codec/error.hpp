// Typed errors raised by the codec.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace permanode::codec
{

// Malformed binary input: names the field being read and the byte offset where it starts.
// Ternary (legacy) input counts its offset in trytes or trits instead: `unit` names it.
class DecodeError : public std::runtime_error
{
  public:
    DecodeError(std::string field, std::size_t offset, const std::string &reason,
                const char *unit = "byte");

    const std::string &Field() const noexcept { return field_; }
    std::size_t Offset() const noexcept { return offset_; }

  private:
    std::string field_;
    std::size_t offset_;
};

// A model that cannot be serialized (e.g. a list longer than its length prefix allows).
class EncodeError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// JSON that does not have the TIP-25 shape; names the JSON path of the offending value.
class JsonError : public std::runtime_error
{
  public:
    JsonError(std::string path, const std::string &reason);

    const std::string &Path() const noexcept { return path_; }

  private:
    std::string path_;
};

} // namespace permanode::codec
