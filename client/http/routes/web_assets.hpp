// The explorer's static files (http/web and Chart.js), built into the binary by
// embed_web.cmake so that the pages need no CDN and no files beside the program.
#pragma once

#include <cstddef>
#include <vector>

namespace permanode::http
{

struct WebAsset
{
    const char *path;       // the URL path it is served at: "/", "/web/app.js"
    const char *media_type; // Content-Type
    const unsigned char *data;
    std::size_t size;
};

// Every embedded file (generated web_assets.cpp).
const std::vector<WebAsset> &WebAssets();

} // namespace permanode::http
