// PostgreSQL's binary wire formats, for calls with binary parameters (ingest, sync, import-dmp):
// big-endian integers, length-prefixed values and one-dimensional arrays.
#pragma once

#include <cstdint>
#include <string>

namespace permanode::cli::pgbin
{

constexpr std::uint32_t kInt2Oid = 21;
constexpr std::uint32_t kInt4Oid = 23;
constexpr std::uint32_t kInt8Oid = 20;
constexpr std::uint32_t kByteaOid = 17;

void PutU32(std::string &out, std::uint32_t value);
void PutU64(std::string &out, std::uint64_t value);
// A length-prefixed value (an array element, a record column).
void PutBytes(std::string &out, const std::uint8_t *data, std::size_t size);
// The header of a one-dimensional array without nulls (array_recv's format).
void PutArrayHeader(std::string &out, std::uint32_t element_type, std::size_t count);

} // namespace permanode::cli::pgbin
