// ParseRequest's limits and request line, as http_request_fuzz found them wanting: a request
// line refused the same whether it arrived whole or in part, and exactly max_header_count
// headers taken.
#include <string>

#include <gtest/gtest.h>

#include "server/http_codec.hpp"

namespace permanode::http
{
namespace
{

RequestLimits SmallLimits()
{
    RequestLimits limits;
    limits.max_uri_bytes = 96;
    limits.max_header_line = 128;
    limits.max_header_count = 8;
    return limits;
}

ParsedRequest Parse(const std::string &input)
{
    httplib::Request request;
    return ParseRequest(input, SmallLimits(), request);
}

TEST(HttpCodecTest, TakesExactlyMaxHeaderCountHeaders)
{
    std::string headers;
    for (int i = 0; i < 8; i++)
        headers += "X-" + std::to_string(i) + ": v\r\n";
    EXPECT_EQ(Parse("GET / HTTP/1.1\r\n" + headers + "\r\n").state,
              ParsedRequest::State::kComplete);
    ParsedRequest nine = Parse("GET / HTTP/1.1\r\n" + headers + "X-8: v\r\n\r\n");
    EXPECT_EQ(nine.state, ParsedRequest::State::kRefused);
    EXPECT_EQ(nine.status, 400);
}

TEST(HttpCodecTest, LongLineWithBadVersionIs400WholeOrInPart)
{
    std::string line = "GET /api/core/v2/info HTTP" + std::string(120, '\x97') + "/1.1";
    ParsedRequest whole = Parse(line + "\r\n\r\n");
    ParsedRequest part = Parse(line.substr(0, 140));
    EXPECT_EQ(whole.status, 400);
    EXPECT_EQ(part.state, ParsedRequest::State::kRefused);
    EXPECT_EQ(part.status, 400);
}

TEST(HttpCodecTest, LongTargetIs414BeforeItEnds)
{
    std::string target = "/" + std::string(200, 'a');
    EXPECT_EQ(Parse("GET " + target + " HTTP/1.1\r\n\r\n").status, 414);
    EXPECT_EQ(Parse("GET " + target.substr(0, 100)).status, 414);
    EXPECT_EQ(Parse("GET " + target.substr(0, 90)).state, ParsedRequest::State::kIncomplete);
}

TEST(HttpCodecTest, TargetWithSpaceOrControlIsRefused)
{
    EXPECT_EQ(Parse("GET /a b HTTP/1.1\r\n\r\n").status, 400);
    EXPECT_EQ(Parse("GET /a\tb HTTP/1.1\r\n\r\n").status, 400);
    EXPECT_EQ(Parse("GET a HTTP/1.1\r\n\r\n").status, 400);
}

TEST(HttpCodecTest, LineEndingInCarriageReturnWaits)
{
    // A header line of exactly max_header_line bytes whose CR has come but not its LF.
    std::string header = "X: " + std::string(125, 'v');
    ParsedRequest parsed = Parse("GET / HTTP/1.1\r\n" + header + "\r");
    EXPECT_EQ(parsed.state, ParsedRequest::State::kIncomplete);
    EXPECT_EQ(Parse("GET / HTTP/1.1\r\n" + header + "\r\n\r\n").state,
              ParsedRequest::State::kComplete);
    EXPECT_EQ(Parse("GET / HTTP/1.1\r").state, ParsedRequest::State::kIncomplete);
}

} // namespace
} // namespace permanode::http
