// Request parsing and response writing (RFC 9112's message syntax, the parts GET needs).
#include "server/http_codec.hpp"

#include <cstdio>

#include <algorithm>
#include <charconv>
#include <strings.h>

namespace permanode::http
{
namespace
{

ParsedRequest Refuse(int status)
{
    ParsedRequest parsed;
    parsed.state = ParsedRequest::State::kRefused;
    parsed.status = status;
    parsed.keep_alive = false;
    return parsed;
}

std::string_view Trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    {
        text.remove_suffix(1);
    }
    return text;
}

bool IsToken(std::string_view text)
{
    return !text.empty() &&
           std::all_of(text.begin(), text.end(),
                       [](unsigned char c) { return c > 32 && c < 127 && c != ':' && c != '"'; });
}

bool EqualsIgnoreCase(std::string_view a, const char *b)
{
    return a.size() == std::char_traits<char>::length(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

bool HasToken(std::string_view list, const char *token)
{
    while (!list.empty())
    {
        auto comma = list.find(',');
        if (EqualsIgnoreCase(Trim(list.substr(0, comma)), token))
        {
            return true;
        }
        if (comma == std::string_view::npos)
        {
            break;
        }
        list.remove_prefix(comma + 1);
    }
    return false;
}

// The longest method taken: the standard ones have at most 7 letters.
constexpr std::size_t kMaxMethodBytes = 32;

struct RequestLine
{
    std::string_view method;
    std::string_view target;
    std::string_view version;
};

// The line of `input` that ends at `end` (its CRLF), or, with `end` npos, the part of a line that
// has arrived: the input without a last CR, which may start the CRLF.
std::string_view Line(std::string_view input, std::size_t end)
{
    if (end != std::string_view::npos)
    {
        return input.substr(0, end);
    }
    if (!input.empty() && input.back() == '\r')
    {
        input.remove_suffix(1);
    }
    return input;
}

// The first fault of a method, a target or a version, scanned from its start: each is refused at
// its first wrong character or once it is too long, so that a part of one is refused as the
// whole would be. 0: none so far.
int MethodFault(std::string_view method)
{
    for (std::size_t i = 0; i < method.size(); i++)
    {
        if (i == kMaxMethodBytes || !IsToken(method.substr(i, 1)))
        {
            return 400;
        }
    }
    return 0;
}

int TargetFault(std::string_view target, std::size_t max_bytes)
{
    for (std::size_t i = 0; i < target.size(); i++)
    {
        if (i == max_bytes)
        {
            return 414;
        }
        unsigned char c = static_cast<unsigned char>(target[i]);
        if ((i == 0 && c != '/') || c <= ' ' || c == 127)
        {
            return 400; // not origin-form, or a space or control character
        }
    }
    return 0;
}

// `version` is HTTP/1.1 or HTTP/1.0, or (`complete` false) the start of one.
bool IsVersion(std::string_view version, bool complete)
{
    for (std::string_view known : {"HTTP/1.1", "HTTP/1.0"})
    {
        if (complete ? version == known : known.substr(0, version.size()) == version)
        {
            return true;
        }
    }
    return false;
}

// The refusal of a request line (`complete`: it ended in CRLF; else the part that has arrived),
// 0 when there is none: its fields are checked in the order they arrive, so that a line is
// refused as soon as it must be, with the status the whole line would get, whatever reads it
// came in. A complete line without a fault fills `fields`.
int RequestLineFault(std::string_view line, bool complete, const RequestLimits &limits,
                     RequestLine &fields)
{
    auto method_end = line.find(' ');
    std::string_view method = line.substr(0, method_end);
    if (int fault = MethodFault(method))
    {
        return fault;
    }
    if (method_end == std::string_view::npos)
    {
        return complete ? 400 : 0;
    }
    auto target_end = line.find(' ', method_end + 1);
    std::string_view target = line.substr(method_end + 1, target_end - method_end - 1);
    if (int fault = TargetFault(target, limits.max_uri_bytes))
    {
        return fault;
    }
    if (target_end == std::string_view::npos)
    {
        return complete ? 400 : 0;
    }
    std::string_view version = line.substr(target_end + 1);
    if (method.empty() || target.empty() || !IsVersion(version, complete))
    {
        return 400;
    }
    fields = {method, target, version};
    return 0;
}

const char *Reason(int status)
{
    switch (status)
    {
        case 200:
            return "OK";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 408:
            return "Request Timeout";
        case 409:
            return "Conflict";
        case 413:
            return "Payload Too Large";
        case 414:
            return "URI Too Long";
        case 431:
            return "Request Header Fields Too Large";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return "Unknown";
    }
}

} // namespace

ParsedRequest ParseRequest(std::string_view input, const RequestLimits &limits,
                           httplib::Request &request)
{
    // The request line: METHOD SP target SP HTTP/1.x
    auto line_end = input.find("\r\n");
    RequestLine line;
    if (int status = RequestLineFault(Line(input, line_end), line_end != std::string_view::npos,
                                      limits, line))
    {
        return Refuse(status);
    }
    if (line_end == std::string_view::npos)
    {
        return ParsedRequest{};
    }

    // Header lines, up to the empty line.
    request = httplib::Request();
    std::size_t at = line_end + 2;
    for (;;)
    {
        auto end = input.find("\r\n", at);
        std::string_view header = Line(
            input.substr(at), end == std::string_view::npos ? std::string_view::npos : end - at);
        if (header.size() > limits.max_header_line)
        {
            return Refuse(400);
        }
        if (end == std::string_view::npos)
        {
            return ParsedRequest{};
        }
        if (header.empty())
        {
            at = end + 2;
            break;
        }
        auto colon = header.find(':');
        if (request.headers.size() == limits.max_header_count || colon == std::string_view::npos ||
            !IsToken(header.substr(0, colon)))
        {
            return Refuse(400);
        }
        request.headers.emplace(std::string(header.substr(0, colon)),
                                std::string(Trim(header.substr(colon + 1))));
        at = end + 2;
    }
    std::string_view method = line.method;
    std::string_view target = line.target;
    std::string_view version = line.version;

    ParsedRequest parsed;
    std::string connection = request.get_header_value("Connection");
    parsed.keep_alive =
        version == "HTTP/1.1" ? !HasToken(connection, "close") : HasToken(connection, "keep-alive");
    if (request.has_header("Transfer-Encoding"))
    {
        return Refuse(400); // no route takes a body; a chunked one is not worth reading
    }
    std::size_t body_length = 0;
    if (request.has_header("Content-Length"))
    {
        std::string text = request.get_header_value("Content-Length");
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), body_length);
        if (error != std::errc() || end != text.data() + text.size() ||
            request.get_header_value_count("Content-Length") != 1)
        {
            return Refuse(400);
        }
        if (body_length > limits.max_body_bytes)
        {
            return Refuse(413);
        }
    }
    if (input.size() - at < body_length)
    {
        return ParsedRequest{}; // the body is still on its way
    }
    request.body.assign(input.substr(at, body_length));
    parsed.consumed = at + body_length;
    parsed.state = ParsedRequest::State::kComplete;

    request.method.assign(method);
    request.version.assign(version);
    request.target.assign(target);
    DecodeTarget(target, request);
    return parsed;
}

void DecodeTarget(std::string_view target, httplib::Request &request)
{
    auto query = target.find('?');
    request.path = httplib::detail::decode_url(std::string(target.substr(0, query)), false);
    if (query != std::string_view::npos)
    {
        httplib::detail::parse_query_text(std::string(target.substr(query + 1)), request.params);
    }
}

std::string RefusalMessage(int status, const RequestLimits &limits)
{
    switch (status)
    {
        case 413:
            return "request body larger than " + std::to_string(limits.max_body_bytes) + " bytes";
        case 414:
            return "request URI longer than " + std::to_string(limits.max_uri_bytes) + " bytes";
        default:
            return "malformed HTTP request (or a header line longer than " +
                   std::to_string(limits.max_header_line) + " bytes)";
    }
}

namespace
{

// The status line, the headers and the framing header `length` (Content-Length or
// Transfer-Encoding), then the connection's headers and the blank line.
void WriteHead(const httplib::Response &response, const std::string &length, bool keep_alive,
               int keep_alive_seconds, std::string &out)
{
    out += "HTTP/1.1 ";
    out += std::to_string(response.status);
    out += ' ';
    out += Reason(response.status);
    out += "\r\n";
    for (const auto &[name, value] : response.headers)
    {
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    out += length;
    out += "\r\n";
    if (keep_alive)
    {
        out += "Connection: Keep-Alive\r\nKeep-Alive: timeout=";
        out += std::to_string(keep_alive_seconds);
        out += "\r\n\r\n";
    }
    else
    {
        out += "Connection: close\r\n\r\n";
    }
}

} // namespace

void WriteResponse(const httplib::Response &response, bool keep_alive, bool head,
                   int keep_alive_seconds, std::string &out)
{
    WriteHead(response, "Content-Length: " + std::to_string(response.body.size()), keep_alive,
              keep_alive_seconds, out);
    if (!head)
    {
        out += response.body;
    }
}

void WriteChunkedHead(const httplib::Response &response, bool keep_alive, int keep_alive_seconds,
                      std::string &out)
{
    WriteHead(response, "Transfer-Encoding: chunked", keep_alive, keep_alive_seconds, out);
}

void WriteChunk(std::string_view data, std::string &out)
{
    char size[20];
    std::snprintf(size, sizeof(size), "%zx\r\n", data.size());
    out += size;
    out += data;
    out += "\r\n";
}

} // namespace permanode::http
