#include "pg_binary.hpp"

namespace permanode::cli::pgbin
{

void PutU32(std::string &out, std::uint32_t value)
{
    char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                     static_cast<char>(value >> 8), static_cast<char>(value)};
    out.append(bytes, 4);
}

void PutU64(std::string &out, std::uint64_t value)
{
    PutU32(out, static_cast<std::uint32_t>(value >> 32));
    PutU32(out, static_cast<std::uint32_t>(value));
}

void PutBytes(std::string &out, const std::uint8_t *data, std::size_t size)
{
    PutU32(out, static_cast<std::uint32_t>(size));
    out.append(reinterpret_cast<const char *>(data), size);
}

void PutArrayHeader(std::string &out, std::uint32_t element_type, std::size_t count)
{
    PutU32(out, 1); // dimensions
    PutU32(out, 0); // no nulls
    PutU32(out, element_type);
    PutU32(out, static_cast<std::uint32_t>(count));
    PutU32(out, 1); // lower bound
}

} // namespace permanode::cli::pgbin
