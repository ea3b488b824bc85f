// The fields of a legacy node API request ({"command": ..., ...}, IRI's API), checked as IRI
// checked them: lists of at most kMaxRequestList trytes strings of the right length. A bad field
// is an HttpError 400 in IRI's words ("Invalid hashes input", "Invalid parameters") that names the
// offending value and its position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace permanode::http::iri
{

// IRI's default API limits (--max-requests-list, --max-find-transactions).
constexpr std::size_t kMaxRequestList = 1000;
constexpr std::size_t kMaxFindTransactions = 100000;

// The request body as a JSON object; 400 when it is not one.
nlohmann::json ParseBody(const std::string &body);
// Its command; 400 when it names none.
std::string Command(const nlohmann::json &request);

// The list field `name`: an array of at most kMaxRequestList strings. nullptr when the request
// has no such field; RequiredList answers 400 then.
const nlohmann::json *OptionalList(const nlohmann::json &request, const char *name);
const nlohmann::json &RequiredList(const nlohmann::json &request, const char *name);

// Why `text` is not `size` trytes (A-Z and 9), or "" when it is.
std::string NotTrytes(const std::string &text, std::size_t size);

// The strings of a list field, each checked: transaction or bundle hashes of 81 trytes; addresses
// of 81 trytes or 90 with their checksum (checked, then dropped); tags of 1 to 27 trytes, padded
// to 27 with 9s as IRI padded them (a tag of nines only is refused, as IRI did).
std::vector<std::string> Hashes(const nlohmann::json &list, const char *name);
std::vector<std::string> Addresses(const nlohmann::json &list, const char *name);
std::vector<std::string> Tags(const nlohmann::json &list, const char *name);

// Path parameters of the legacy reads (a BadParameter 400 naming `name` otherwise): a legacy
// address of 81 trytes, or 90 with its checksum (checked by the database's type), and a
// transaction hash of 81 trytes (a hash carries no checksum).
std::string LegacyAddressParam(const std::string &text, const std::string &name);
std::string TransactionHashParam(const std::string &text, const std::string &name);

// An integer field in [min, max], nullopt when absent.
std::optional<std::int64_t> OptionalInteger(const nlohmann::json &request, const char *name,
                                            std::int64_t min, std::int64_t max);

} // namespace permanode::http::iri
