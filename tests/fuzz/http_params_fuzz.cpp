// libFuzzer target for the HTTP API's parameters: the input is a request target (up to the first
// newline) and a request body (the rest). The target is decoded as the server decodes it
// (DecodeTarget: the URL-decoded path, the query parameters), the path matched against every
// route the server registers (fuzz_routes.inc, written from the router by `fuzz_seeds routes`),
// and each path parameter of a matching route read by every path parameter parser of
// server/params.hpp and routes/legacy_request.hpp; every query parameter is read by every query
// parser, and the body of a matching POST route (IRI's API) by the legacy request's readers,
// field by field as the route declares them. Each parser must give a value of its promised shape
// or throw the project's 400 (HttpError), which the server answers (WriteError); a path no route
// matches gets the router's 404. Anything else escaping fails the target.
#include "fuzz_check.hpp"
#include "routes/legacy_request.hpp"
#include "server/http_codec.hpp"
#include "server/json_errors.hpp"
#include "server/params.hpp"
#include "server/path_template.hpp"

#include <cctype>
#include <climits>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace
{

namespace http = permanode::http;
namespace iri = permanode::http::iri;

struct RouteField
{
    const char *name;
    const char *type; // OpenAPI type: string, integer, boolean, array
};

struct Route
{
    const char *method; // get or post
    const char *path;   // the template
    std::vector<RouteField> body;
};

const std::vector<Route> kRoutes = {
#include "fuzz_routes.inc"
};

// The error answer the server writes (WriteError): it quotes what the client sent.
void CheckAnswer(int status, const std::string &message)
{
    httplib::Response response;
    http::WriteError(response, status, message);
    FUZZ_CHECK(response.status == status && !response.body.empty());
}

// Runs a parser: it returns, or throws a 400 that says why, which the server can answer.
void Expect400(const std::function<void()> &parse)
{
    try
    {
        parse();
    }
    catch (const http::HttpError &e)
    {
        FUZZ_CHECK(e.status() == 400 && *e.what() != '\0');
        CheckAnswer(e.status(), e.what());
    }
}

bool IsLowerHex(std::string_view text)
{
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f'))
            return false;
    return true;
}

// "0x" and 2 * bytes lower-case hex digits.
bool Is0xHex(const std::string &text, std::size_t bytes)
{
    return text.size() == 2 + 2 * bytes && text.compare(0, 2, "0x") == 0 &&
           IsLowerHex(std::string_view(text).substr(2));
}

bool IsTrytes(const std::string &text, std::size_t size)
{
    return text.size() == size && iri::NotTrytes(text, size).empty();
}

// A path parameter's value through every parser a route uses for one.
void ParsePathParam(const std::string &value)
{
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::BlockIdParam(value, "blockId"), 32)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::OutputIdParam(value, "outputId"), 34)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::HexIdParam(value, "foundryId", 38), 38)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::PlainHexIdParam(value, "messageId", 32), 32)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::PlainHexIdParam(value, "outputId", 34), 34)); });
    Expect400([&] { FUZZ_CHECK(http::AddressParam(value, "address") == value); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::ChrysalisAddressParam(value, "address"), 33)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::AnyEraAddressParam(value, "address"), 33)); });
    Expect400([&] { FUZZ_CHECK(Is0xHex(http::Ed25519AddressParam(value, "address"), 33)); });
    Expect400([&] { FUZZ_CHECK(http::MilestoneIndexParam(value, "index") >= 0); });
    Expect400(
        [&]
        {
            std::string address = iri::LegacyAddressParam(value, "address");
            FUZZ_CHECK(IsTrytes(address, 81) || IsTrytes(address, 90));
        });
    Expect400([&] { FUZZ_CHECK(IsTrytes(iri::TransactionHashParam(value, "hash"), 81)); });
}

// A query parameter through every query parser.
void ParseQueryParam(const httplib::Request &request, const std::string &name)
{
    Expect400([&] { FUZZ_CHECK(http::QueryText(request, name).has_value()); });
    Expect400([&] { http::QueryBool(request, name).value(); });
    Expect400(
        [&]
        {
            auto count = http::QueryCount(request, name);
            FUZZ_CHECK(*count >= 0 && *count <= 255);
        });
    Expect400([&] { FUZZ_CHECK(*http::QueryTime(request, name) >= 0); });
    Expect400([&] { FUZZ_CHECK(http::QueryAddress(request, name).has_value()); });
    Expect400(
        [&]
        {
            std::string hex = http::QueryHex(request, name, 64).value();
            FUZZ_CHECK(hex.size() <= 2 + 2 * 64 && hex.size() % 2 == 0 &&
                       Is0xHex(hex, hex.size() / 2 - 1));
        });
    Expect400([&] { FUZZ_CHECK(http::QueryDate(request, name)->size() == 10); });
    Expect400(
        [&]
        {
            int value = http::QueryInt(request, name, 1, 1000).value();
            FUZZ_CHECK(value >= 1 && value <= 1000);
        });
    Expect400(
        [&]
        {
            std::string index = http::IndexationIndexParam(request, name);
            FUZZ_CHECK(index.compare(0, 2, "\\x") == 0 && index.size() <= 2 + 2 * 64 &&
                       index.size() % 2 == 0 && IsLowerHex(std::string_view(index).substr(2)));
        });
}

// The query parameters every list reads by their own names.
void ParseListParams(const httplib::Request &request)
{
    Expect400([&] { http::SortParam(request); });
    Expect400(
        [&]
        {
            int size = http::PageSize(request);
            FUZZ_CHECK(size >= 1 && size <= http::kMaxPageSize);
        });
    for (auto key : {http::CursorKey::kBlockId, http::CursorKey::kOutputId,
                     http::CursorKey::kWhiteFlagIndex, http::CursorKey::kLedgerUpdate})
        Expect400([&] { http::CursorParam(request, key); });
    http::WantsRaw(request);
}

// A legacy POST body, field by field as the route declares them.
void ParseIriBody(const std::string &body, const std::vector<RouteField> &fields)
{
    nlohmann::json request;
    try
    {
        request = iri::ParseBody(body);
        iri::Command(request);
    }
    catch (const http::HttpError &e)
    {
        FUZZ_CHECK(e.status() == 400);
        CheckAnswer(e.status(), e.what());
        if (request.is_null())
            return;
    }
    for (const RouteField &field : fields)
    {
        std::string type = field.type;
        if (type == "integer")
            Expect400([&] { iri::OptionalInteger(request, field.name, 0, INT32_MAX); });
        if (type != "array")
            continue;
        const nlohmann::json *list = nullptr;
        Expect400([&] { list = iri::OptionalList(request, field.name); });
        if (list == nullptr)
            continue;
        FUZZ_CHECK(list->size() <= iri::kMaxRequestList);
        Expect400(
            [&]
            {
                for (const std::string &hash : iri::Hashes(*list, field.name))
                    FUZZ_CHECK(IsTrytes(hash, 81));
            });
        Expect400(
            [&]
            {
                for (const std::string &address : iri::Addresses(*list, field.name))
                    FUZZ_CHECK(IsTrytes(address, 81));
            });
        Expect400(
            [&]
            {
                for (const std::string &tag : iri::Tags(*list, field.name))
                    FUZZ_CHECK(IsTrytes(tag, 27));
            });
    }
}

// The number of {name} segments of a template.
std::size_t ParamCount(const std::string &path)
{
    std::size_t count = 0;
    for (std::size_t at = path.find("/{"); at != std::string::npos; at = path.find("/{", at + 1))
        count++;
    return count;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::vector<http::PathTemplate> templates = []
    {
        std::vector<http::PathTemplate> out;
        for (const Route &route : kRoutes)
            out.emplace_back(route.path);
        return out;
    }();

    std::string_view input(reinterpret_cast<const char *>(data), size);
    std::size_t newline = input.find('\n');
    std::string_view target = input.substr(0, newline);
    std::string body(newline == std::string_view::npos ? "" : input.substr(newline + 1));

    httplib::Request request;
    http::DecodeTarget(target, request);
    request.body = body;

    bool routed = false;
    for (std::size_t i = 0; i < kRoutes.size(); i++)
    {
        http::PathParams params;
        if (!templates[i].Match(request.path, params))
            continue;
        routed = true;
        FUZZ_CHECK(params.size() == ParamCount(kRoutes[i].path));
        for (const std::string &value : params)
        {
            FUZZ_CHECK(!value.empty() && value.find('/') == std::string::npos);
            ParsePathParam(value);
        }
        if (std::string(kRoutes[i].method) == "post")
            ParseIriBody(request.body, kRoutes[i].body);
    }

    if (!routed)
        CheckAnswer(404, "no route " + request.path); // as Router::Serve answers

    // The parsers take the code's own names (httplib looks them up as C strings).
    std::set<std::string> names;
    for (const auto &[name, value] : request.params)
        if (name.find('\0') == std::string::npos)
            names.insert(name);
    for (const std::string &name : names)
        ParseQueryParam(request, name);
    ParseListParams(request);
    return 0;
}
