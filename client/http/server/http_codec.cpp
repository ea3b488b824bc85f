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
    if (line_end == std::string_view::npos)
    {
        return input.size() > limits.max_uri_bytes + 32 ? Refuse(414) : ParsedRequest{};
    }
    std::string_view line = input.substr(0, line_end);
    auto first_space = line.find(' ');
    auto last_space = line.rfind(' ');
    if (first_space == std::string_view::npos || last_space == first_space)
    {
        return Refuse(400);
    }
    std::string_view method = line.substr(0, first_space);
    std::string_view target = line.substr(first_space + 1, last_space - first_space - 1);
    std::string_view version = line.substr(last_space + 1);
    if (target.size() > limits.max_uri_bytes)
    {
        return Refuse(414);
    }
    if (!IsToken(method) || target.empty() || target.front() != '/' ||
        (version != "HTTP/1.1" && version != "HTTP/1.0"))
    {
        return Refuse(400);
    }

    // Header lines, up to the empty line.
    request = httplib::Request();
    std::size_t at = line_end + 2;
    for (;;)
    {
        auto end = input.find("\r\n", at);
        if (end == std::string_view::npos)
        {
            return input.size() - at > limits.max_header_line ? Refuse(400) : ParsedRequest{};
        }
        if (end - at > limits.max_header_line || request.headers.size() >= limits.max_header_count)
        {
            return Refuse(400);
        }
        if (end == at)
        {
            at = end + 2;
            break;
        }
        std::string_view header = input.substr(at, end - at);
        auto colon = header.find(':');
        if (colon == std::string_view::npos || !IsToken(header.substr(0, colon)))
        {
            return Refuse(400);
        }
        request.headers.emplace(std::string(header.substr(0, colon)),
                                std::string(Trim(header.substr(colon + 1))));
        at = end + 2;
    }

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
    auto query = target.find('?');
    request.path = httplib::detail::decode_url(std::string(target.substr(0, query)), false);
    if (query != std::string_view::npos)
    {
        httplib::detail::parse_query_text(std::string(target.substr(query + 1)), request.params);
    }
    return parsed;
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
