// A route's path template ("/api/core/v2/blocks/{blockId}") and matching request paths against
// it segment by segment. httplib 0.11 would try one std::regex per route, in turn, for every
// request; comparing segments costs a few string compares instead.
#pragma once

#include <string>
#include <vector>

namespace permanode::http
{

// The values of a route's {name} segments, in order.
using PathParams = std::vector<std::string>;

class PathTemplate
{
  public:
    // `path` starts with '/'; a {name} must be a whole segment (std::invalid_argument if not).
    explicit PathTemplate(const std::string &path);

    // Whether the (URL-decoded) request path matches: each literal segment equal, each {name}
    // one non-empty segment, whose values fill `params`. The same paths match as the
    // regex "literal([^/]+)literal" that httplib was given before.
    bool Match(const std::string &path, PathParams &params) const;

  private:
    struct Segment
    {
        std::string text; // the literal, or the parameter's name
        bool param;
    };
    std::vector<Segment> segments_;
};

} // namespace permanode::http
