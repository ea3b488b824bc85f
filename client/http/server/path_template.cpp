// Path templates: parsing and matching.
#include "server/path_template.hpp"

#include <stdexcept>

namespace permanode::http
{

PathTemplate::PathTemplate(const std::string &path)
{
    if (path.empty() || path[0] != '/')
    {
        throw std::invalid_argument("route path must start with '/': " + path);
    }
    std::size_t begin = 1;
    for (;;)
    {
        std::size_t end = path.find('/', begin);
        std::string segment =
            path.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        bool param = segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
        if (param)
        {
            segment = segment.substr(1, segment.size() - 2);
        }
        if (segment.find_first_of("{}") != std::string::npos)
        {
            throw std::invalid_argument("route parameter must be a whole segment: " + path);
        }
        segments_.push_back({std::move(segment), param});
        if (end == std::string::npos)
        {
            break;
        }
        begin = end + 1;
    }
}

bool PathTemplate::Match(const std::string &path, PathParams &params) const
{
    params.clear();
    if (path.empty() || path[0] != '/')
    {
        return false;
    }
    std::size_t begin = 1;
    for (std::size_t i = 0; i < segments_.size(); i++)
    {
        std::size_t end = path.find('/', begin);
        bool last = i + 1 == segments_.size();
        // The last template segment must end the path; any other must be followed by '/'.
        if (last != (end == std::string::npos))
        {
            return false;
        }
        if (end == std::string::npos)
        {
            end = path.size();
        }
        const Segment &segment = segments_[i];
        if (segment.param)
        {
            if (end == begin)
            {
                return false;
            }
            params.emplace_back(path, begin, end - begin);
        }
        else if (path.compare(begin, end - begin, segment.text) != 0)
        {
            return false;
        }
        begin = end + 1;
    }
    return true;
}

} // namespace permanode::http
