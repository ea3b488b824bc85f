// libFuzzer target for the HTTP server's request parser (client/http/server/http_codec.hpp): the
// input is what a client sends on one connection, read as the event loop reads it
// (EventLoop::ProcessInput): ParseRequest on the buffered input, a complete request's bytes
// consumed and the next one parsed (pipelining), waiting for more input when it is incomplete,
// and stopping at a refusal (answered, then the connection closed).
//
// The stream is parsed twice: whole, and arriving in pieces of pseudo-random sizes. Both must
// give the same requests and the same refusal: where a request ends cannot depend on how its
// bytes were split across reads. Small limits bring each refusal (414, 400, 413) within reach.
#include "fuzz_check.hpp"
#include "server/http_codec.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace
{

using permanode::http::ParsedRequest;
using permanode::http::ParseRequest;
using permanode::http::RequestLimits;

RequestLimits FuzzLimits()
{
    RequestLimits limits;
    limits.max_uri_bytes = 96;
    limits.max_header_line = 128;
    limits.max_header_count = 8;
    limits.max_body_bytes = 256;
    return limits;
}

const RequestLimits kLimits = FuzzLimits();

// What the server reads of a complete request.
struct Parsed
{
    httplib::Request request;
    std::size_t consumed;
    bool keep_alive;
};

// What parsing a connection's stream came to: its complete requests, then a refusal or the
// wait for more input.
struct Outcome
{
    std::vector<Parsed> requests;
    int refused = 0; // the status of the refusal, 0 when the stream waits for more
};

// The checks on one result of ParseRequest over `buffer`.
void CheckResult(const ParsedRequest &parsed, const httplib::Request &request,
                 std::string_view buffer)
{
    switch (parsed.state)
    {
        case ParsedRequest::State::kComplete:
            FUZZ_CHECK(parsed.consumed > 0 && parsed.consumed <= buffer.size());
            FUZZ_CHECK(!request.method.empty() && !request.target.empty() &&
                       request.target[0] == '/');
            FUZZ_CHECK(request.version == "HTTP/1.1" || request.version == "HTTP/1.0");
            FUZZ_CHECK(request.headers.size() <= kLimits.max_header_count);
            FUZZ_CHECK(request.target.size() <= kLimits.max_uri_bytes);
            FUZZ_CHECK(request.body.size() <= kLimits.max_body_bytes);
            break;
        case ParsedRequest::State::kRefused:
            FUZZ_CHECK(parsed.status == 400 || parsed.status == 413 || parsed.status == 414);
            FUZZ_CHECK(!parsed.keep_alive);
            FUZZ_CHECK(!parsed.message.empty());
            break;
        case ParsedRequest::State::kIncomplete:
            FUZZ_CHECK(parsed.consumed == 0);
            break;
    }
}

// Parses what is buffered, as the event loop does after each read; false once refused.
bool ParseBuffered(std::string &buffer, Outcome &outcome)
{
    while (!buffer.empty())
    {
        httplib::Request request;
        ParsedRequest parsed = ParseRequest(buffer, kLimits, request);
        CheckResult(parsed, request, buffer);
        if (parsed.state == ParsedRequest::State::kIncomplete)
            return true;
        if (parsed.state == ParsedRequest::State::kRefused)
        {
            outcome.refused = parsed.status;
            return false;
        }
        outcome.requests.push_back({std::move(request), parsed.consumed, parsed.keep_alive});
        buffer.erase(0, parsed.consumed);
    }
    return true;
}

// The stream read in pieces of 1 to 64 bytes (sizes drawn from a generator seeded by `seed`).
Outcome ParseInPieces(std::string_view stream, unsigned seed)
{
    std::minstd_rand random(seed);
    Outcome outcome;
    std::string buffer;
    std::size_t at = 0;
    while (at < stream.size())
    {
        std::size_t piece = 1 + random() % 64;
        buffer.append(stream.substr(at, piece));
        at += piece;
        if (!ParseBuffered(buffer, outcome))
            break;
    }
    return outcome;
}

bool SameRequest(const Parsed &a, const Parsed &b)
{
    return a.consumed == b.consumed && a.keep_alive == b.keep_alive &&
           a.request.method == b.request.method && a.request.target == b.request.target &&
           a.request.version == b.request.version && a.request.path == b.request.path &&
           a.request.params == b.request.params && a.request.headers == b.request.headers &&
           a.request.body == b.request.body;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string_view stream(reinterpret_cast<const char *>(data), size);
    Outcome whole;
    std::string buffer(stream);
    ParseBuffered(buffer, whole);

    Outcome pieces = ParseInPieces(stream, static_cast<unsigned>(size) + 1);
    FUZZ_CHECK(pieces.refused == whole.refused);
    FUZZ_CHECK(pieces.requests.size() == whole.requests.size());
    for (std::size_t i = 0; i < whole.requests.size(); i++)
        FUZZ_CHECK(SameRequest(pieces.requests[i], whole.requests[i]));
    return 0;
}
