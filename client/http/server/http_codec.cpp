// Request parsing and response writing (RFC 9112's message syntax, the parts GET needs).
#include "server/http_codec.hpp"

#include <cstdio>

#include <algorithm>
#include <charconv>
#include <optional>
#include <strings.h>

namespace permanode::http
{
namespace
{

ParsedRequest Refuse(int status, std::string message)
{
    ParsedRequest parsed;
    parsed.state = ParsedRequest::State::kRefused;
    parsed.status = status;
    parsed.message = std::move(message);
    parsed.keep_alive = false;
    return parsed;
}

ParsedRequest Malformed(const std::string &what)
{
    return Refuse(400, "malformed HTTP request: " + what);
}

// A line of the request's head, as far as it has come.
struct Line
{
    std::string_view text; // without its CRLF
    bool complete = false; // its CRLF has come
    bool control = false;  // it holds a control character (a bare CR or LF among them)
};

// A byte no line of the head may hold (RFC 9112): a control character but HTAB. A bare CR or LF
// would end a line for one reader and not for another.
bool IsControl(unsigned char c)
{
    return (c < 32 && c != '\t') || c == 127;
}

// The line that starts at `at`.
Line LineAt(std::string_view input, std::size_t at)
{
    Line line;
    auto crlf = input.find("\r\n", at);
    line.complete = crlf != std::string_view::npos;
    line.text = input.substr(at, line.complete ? crlf - at : std::string_view::npos);
    // A CR that ends the input may be followed by its LF: not part of the line's text.
    if (!line.complete && !line.text.empty() && line.text.back() == '\r')
    {
        line.text.remove_suffix(1);
    }
    line.control = std::any_of(line.text.begin(), line.text.end(),
                               [](unsigned char c) { return IsControl(c); });
    return line;
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

// The longest request method taken (the longest registered one has 17 bytes).
constexpr std::size_t kMaxMethodBytes = 32;

// The parts of the request line.
struct RequestLine
{
    std::string_view method;
    std::string_view target;
    std::string_view version;
};

// Whether `text` is a version "HTTP/1.1" or "HTTP/1.0", or, while the line has not ended, the
// start of one.
bool IsVersion(std::string_view text, bool complete)
{
    for (std::string_view version : {"HTTP/1.1", "HTTP/1.0"})
    {
        if (complete ? text == version : version.substr(0, text.size()) == text)
        {
            return true;
        }
    }
    return false;
}

// Checks the request line (METHOD SP TARGET SP HTTP/1.x) as far as it has come, so that a line
// is refused alike whether it came whole or in part, and as soon as it cannot become valid: a
// refusal, or nullopt (the parts filled once the line is complete).
std::optional<ParsedRequest> CheckRequestLine(const Line &line, const RequestLimits &limits,
                                              RequestLine &parts)
{
    auto control = std::find_if(line.text.begin(), line.text.end(),
                                [](unsigned char c) { return IsControl(c); });
    if (control != line.text.end())
    {
        // What came before it is refused as it would have been had the line come up to there.
        Line before{line.text.substr(0, control - line.text.begin()), false, false};
        if (auto refused = CheckRequestLine(before, limits, parts))
        {
            return refused;
        }
        return Malformed("a control character (or a bare CR or LF) in the request line");
    }
    const std::string_view not_a_line = "the request line is not METHOD TARGET HTTP/1.x";
    std::string_view rest = line.text;
    auto space = rest.find(' ');
    parts.method = rest.substr(0, space);
    if (parts.method.size() > kMaxMethodBytes ||
        (!parts.method.empty() && !IsToken(parts.method)) ||
        (parts.method.empty() && space != std::string_view::npos))
    {
        return Malformed("the request method is not a token of at most " +
                         std::to_string(kMaxMethodBytes) + " bytes");
    }
    if (space == std::string_view::npos)
    {
        return line.complete ? std::optional(Malformed(std::string(not_a_line))) : std::nullopt;
    }
    rest.remove_prefix(space + 1);
    space = rest.find(' ');
    parts.target = rest.substr(0, space);
    // (Each fault in the order its byte comes: a tab within the limit, then the limit.)
    auto tab = parts.target.find('\t');
    if ((!parts.target.empty() && parts.target.front() != '/') ||
        (tab != std::string_view::npos && tab < limits.max_uri_bytes) ||
        (parts.target.empty() && space != std::string_view::npos))
    {
        return Malformed(std::string(not_a_line) + " (TARGET a path: /...)");
    }
    if (parts.target.size() > limits.max_uri_bytes)
    {
        return Refuse(414,
                      "request URI longer than " + std::to_string(limits.max_uri_bytes) + " bytes");
    }
    if (space == std::string_view::npos)
    {
        return line.complete ? std::optional(Malformed(std::string(not_a_line))) : std::nullopt;
    }
    parts.version = rest.substr(space + 1);
    if (!IsVersion(parts.version, line.complete))
    {
        return Malformed("the HTTP version is neither HTTP/1.1 nor HTTP/1.0");
    }
    return std::nullopt;
}

bool EqualsIgnoreCase(std::string_view a, const char *b)
{
    return a.size() == std::char_traits<char>::length(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

// The query's NAME=VALUE pairs, split at '&' and each at its first '=' (the URL standard's
// application/x-www-form-urlencoded parsing: httplib's own keeps only what follows a value's
// last '=', so "q=a=b" would be read as "b").
void ParseQuery(std::string_view query, httplib::Params &params)
{
    while (!query.empty())
    {
        auto amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        query.remove_prefix(amp == std::string_view::npos ? query.size() : amp + 1);
        if (pair.empty())
        {
            continue;
        }
        auto equals = pair.find('=');
        std::string_view value =
            equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
        params.emplace(httplib::detail::decode_url(std::string(pair.substr(0, equals)), true),
                       httplib::detail::decode_url(std::string(value), true));
    }
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
    Line line = LineAt(input, 0);
    RequestLine parts;
    if (auto refused = CheckRequestLine(line, limits, parts))
    {
        return *refused;
    }
    if (!line.complete)
    {
        return ParsedRequest{};
    }
    std::string_view method = parts.method;
    std::string_view target = parts.target;
    std::string_view version = parts.version;

    // Header lines, up to the empty line.
    request = httplib::Request();
    std::size_t at = line.text.size() + 2;
    for (;;)
    {
        Line header = LineAt(input, at);
        if (header.text.size() > limits.max_header_line)
        {
            return Refuse(400, "header line longer than " + std::to_string(limits.max_header_line) +
                                   " bytes");
        }
        if (header.control)
        {
            return Malformed("a control character (or a bare CR or LF) in a header line");
        }
        if (!header.complete)
        {
            return ParsedRequest{};
        }
        at += header.text.size() + 2;
        if (header.text.empty())
        {
            break;
        }
        if (request.headers.size() >= limits.max_header_count)
        {
            return Refuse(400,
                          "more than " + std::to_string(limits.max_header_count) + " header lines");
        }
        auto colon = header.text.find(':');
        if (colon == std::string_view::npos || !IsToken(header.text.substr(0, colon)))
        {
            return Malformed("a header line is not NAME: VALUE");
        }
        request.headers.emplace(std::string(header.text.substr(0, colon)),
                                std::string(Trim(header.text.substr(colon + 1))));
    }

    ParsedRequest parsed;
    std::string connection = request.get_header_value("Connection");
    parsed.keep_alive =
        version == "HTTP/1.1" ? !HasToken(connection, "close") : HasToken(connection, "keep-alive");
    if (request.has_header("Transfer-Encoding"))
    {
        // no route takes a body long enough to need chunks
        return Malformed("Transfer-Encoding is not supported (send Content-Length)");
    }
    std::size_t body_length = 0;
    if (request.has_header("Content-Length"))
    {
        std::string text = request.get_header_value("Content-Length");
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), body_length);
        if (error != std::errc() || end != text.data() + text.size())
        {
            return Malformed("Content-Length is not a length in bytes");
        }
        if (request.get_header_value_count("Content-Length") != 1)
        {
            return Malformed("more than one Content-Length");
        }
        if (body_length > limits.max_body_bytes)
        {
            return Refuse(413, "request body larger than " + std::to_string(limits.max_body_bytes) +
                                   " bytes");
        }
    }
    if (input.size() - at < body_length)
    {
        ParsedRequest incomplete;
        incomplete.awaiting_body = true;
        return incomplete;
    }
    request.body.assign(input.substr(at, body_length));
    parsed.consumed = at + body_length;
    parsed.state = ParsedRequest::State::kComplete;

    request.method.assign(method);
    request.version.assign(version);
    DecodeTarget(target, request);
    return parsed;
}

void DecodeTarget(std::string_view target, httplib::Request &request)
{
    request.target.assign(target);
    auto query = target.find('?');
    request.path = httplib::detail::decode_url(std::string(target.substr(0, query)), false);
    if (query != std::string_view::npos)
    {
        ParseQuery(target.substr(query + 1), request.params);
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
