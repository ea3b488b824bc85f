// Request parameters: parsing and validation. Every failure is a 400 naming the parameter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "permanode/cursor.hpp"
#include "permanode/ledger_types.hpp"

namespace httplib
{
struct Request;
}

namespace permanode::http
{

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;

// 0x + 2*size hex digits; returns it in lower case.
std::string HexIdParam(const std::string &text, const std::string &name, std::size_t size);
inline std::string BlockIdParam(const std::string &text, const std::string &name)
{
    return HexIdParam(text, name, 32);
}
inline std::string OutputIdParam(const std::string &text, const std::string &name)
{
    return HexIdParam(text, name, 34);
}
// A bech32 Stardust address.
std::string AddressParam(const std::string &text, const std::string &name);
// A milestone index: a decimal in 0..2^31-1.
std::int32_t MilestoneIndexParam(const std::string &text, const std::string &name);

// REST API v1 (Chrysalis) parameters: hex without 0x, as Hornet 1.x took it (0x is taken too).
// An ID of `size` bytes; returns it as 0x-hex in lower case, the database's form.
std::string PlainHexIdParam(const std::string &text, const std::string &name, std::size_t size);
// An Ed25519 address in bech32 under any network's HRP (iota1..., atoi1..., smr1..., rms1...): an
// address kept its hash from Chrysalis to Stardust, and /api/v1/info names the database's HRP,
// a Stardust one where the archive holds both eras; returns the 0x-hex of its 33 bytes.
std::string ChrysalisAddressParam(const std::string &text, const std::string &name);
// An address of either era: bech32 under any network's HRP (of any address kind), or the hex of
// an Ed25519 address's hash (64 digits) or of its 33 bytes (type first); 0x optional. Returns the
// 0x-hex of its 33 bytes.
std::string AnyEraAddressParam(const std::string &text, const std::string &name);
// An Ed25519 address as 64 hex digits; returns the 0x-hex of its 33 bytes.
std::string Ed25519AddressParam(const std::string &text, const std::string &name);
// An indexation index of 1 to 64 bytes: hex digits (0x optional), else the text's UTF-8 bytes,
// as Hornet 1.x took both; returns the bytes in bytea's hex text form.
std::string IndexationIndexParam(const httplib::Request &request, const std::string &name);

// Query parameters (unset: nullopt).
std::optional<std::string> QueryText(const httplib::Request &request, const std::string &name);
std::optional<bool> QueryBool(const httplib::Request &request, const std::string &name);
std::optional<std::int32_t> QueryCount(const httplib::Request &request, const std::string &name);
// Unix seconds.
std::optional<std::int64_t> QueryTime(const httplib::Request &request, const std::string &name);
std::optional<std::string> QueryAddress(const httplib::Request &request, const std::string &name);
// 0x-hex of at most max_bytes bytes.
std::optional<std::string> QueryHex(const httplib::Request &request, const std::string &name,
                                    std::size_t max_bytes);
// YYYY-MM-DD.
std::optional<std::string> QueryDate(const httplib::Request &request, const std::string &name);
// An integer in [min, max].
std::optional<int> QueryInt(const httplib::Request &request, const std::string &name, int min,
                            int max);
// sort: newest (the default) or oldest.
client::SortOrder SortParam(const httplib::Request &request);
// pageSize: 1..kMaxPageSize, default kDefaultPageSize.
int PageSize(const httplib::Request &request);
// What a list's cursor carries as its id: the last row's block ID, output ID, white-flag index,
// or ledger-update key (an output ID and 'c' or 's').
enum class CursorKey
{
    kBlockId,
    kOutputId,
    kWhiteFlagIndex,
    kLedgerUpdate,
};
// The cursor parameter of a list whose rows have `key`s; a 400 naming it when it is no cursor
// of such a list.
std::optional<client::Cursor> CursorParam(const httplib::Request &request, CursorKey key);
// Whether the client asked for raw bytes (Accept: application/vnd.iota.serializer-v1).
bool WantsRaw(const httplib::Request &request);

} // namespace permanode::http
