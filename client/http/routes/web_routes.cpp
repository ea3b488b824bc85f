// The explorer's pages: GET / (index.html) and GET /web/{file} (its script, style and Chart.js),
// from the files built into the binary. The pages are one document whose views are picked by
// the URL's fragment (#/block/0x...), so every view is served by GET /.
#include <string>

#include <httplib.h>

#include "server/json_errors.hpp"
#include "server/router.hpp"
#include "routes/web_assets.hpp"

namespace permanode::http
{
namespace
{

void SendAsset(httplib::Response &response, const std::string &path)
{
    for (const auto &asset : WebAssets())
    {
        if (path == asset.path)
        {
            response.status = 200;
            response.set_content(reinterpret_cast<const char *>(asset.data), asset.size,
                                 asset.media_type);
            // The files change only with the binary; a reload after an upgrade revalidates.
            response.set_header("Cache-Control", "no-cache");
            return;
        }
    }
    throw NotFound("file " + path);
}

} // namespace

void RegisterWebRoutes(Router &router)
{
    RouteInfo page("/", "web", "The explorer's pages (HTML)");
    page.media_type = "text/html";
    // The pages hold no ledger data (their views read the API, which asks for a token), so a
    // browser loads them without one and can then ask its user for it.
    page.open = true;
    router.Get(page,
               [](const httplib::Request &, httplib::Response &response, Db &,
                  const PathParams &) -> Task<>
               {
                   SendAsset(response, "/");
                   co_return;
               });
    RouteInfo file("/web/{file}", "web",
                   "The pages' script, style sheet and charting library (Chart.js, with its "
                   "license at /web/chart.js.LICENSE.txt)");
    file.media_type = "text/javascript";
    file.open = true;
    router.Get(file,
               [](const httplib::Request &, httplib::Response &response, Db &,
                  const PathParams &path) -> Task<>
               {
                   SendAsset(response, "/web/" + path[0]);
                   co_return;
               });
}

} // namespace permanode::http
