// HTTP/1.x on the wire for the event loop: requests parsed from a connection's input buffer into
// httplib::Request (what the handlers read), and httplib::Response written out as one buffer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <httplib.h>

namespace permanode::http
{

// Limits on what a request may send before it is refused.
struct RequestLimits
{
    std::size_t max_uri_bytes = 8192;   // 414 beyond
    std::size_t max_header_line = 8192; // 400 beyond (as httplib answers)
    std::size_t max_header_count = 100; // 400 beyond
    std::size_t max_body_bytes = 65536; // 413 beyond
};

struct ParsedRequest
{
    enum class State
    {
        kIncomplete, // wait for more input
        kComplete,   // `request` is filled; `consumed` bytes of input belong to it
        kRefused,    // answer `status` with `message` and close the connection
    };
    State state = State::kIncomplete;
    std::size_t consumed = 0;
    int status = 0;
    std::string message;        // why it was refused: what was malformed, or the limit it broke
    bool keep_alive = true;     // the client lets the connection stay open after the response
    bool awaiting_body = false; // incomplete: the head is whole, its body is still on its way
};

// Parses the request at the front of `input`. The head is refused as soon as what has come of it
// is malformed (a control character, a bare CR or LF, a line past its limit), not only once it
// is whole: a client that will never finish it is answered at once.
ParsedRequest ParseRequest(std::string_view input, const RequestLimits &limits,
                           httplib::Request &request);

// The request's target, its URL-decoded path and its query parameters, from the target of a
// request line (what ParseRequest does with it; the parameter fuzzer starts there).
void DecodeTarget(std::string_view target, httplib::Request &request);

// Appends the response (status line, headers, and the body unless `head`) to `out`.
void WriteResponse(const httplib::Response &response, bool keep_alive, bool head,
                   int keep_alive_seconds, std::string &out);
// Appends the status line and headers of a response whose body follows in chunks.
void WriteChunkedHead(const httplib::Response &response, bool keep_alive, int keep_alive_seconds,
                      std::string &out);
// Appends one chunk of a chunked body; an empty `data` is the last chunk, which ends the body.
void WriteChunk(std::string_view data, std::string &out);

} // namespace permanode::http
