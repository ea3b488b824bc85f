// One address across every era: its outputs of Chrysalis and Stardust newest first, with where
// each was spent and where migrated funds came from in the legacy era; and, from a legacy
// address, where its funds went by migration.
#include <httplib.h>

#include "routes/legacy_request.hpp"
#include "routes/render.hpp"
#include "server/json_errors.hpp"
#include "server/json_text.hpp"
#include "server/params.hpp"
#include "server/router.hpp"

namespace permanode::http
{
namespace
{

// fromMilestone/toMilestone: the span a history is read within.
client::MilestoneSpan SpanParams(const httplib::Request &request)
{
    client::MilestoneSpan span;
    for (auto [name, bound] : {std::pair{"fromMilestone", &span.from}, {"toMilestone", &span.to}})
    {
        if (auto text = QueryText(request, name))
            *bound = MilestoneIndexParam(*text, name);
    }
    if (span.from && span.to && *span.from > *span.to)
        throw BadParameter("toMilestone", "must not be below fromMilestone");
    return span;
}

// The rows an export reads at a time: the server holds one such piece per export.
constexpr int kExportPageSize = 1000;

// ?format=csv or jsonl: the whole history, streamed page by page (chunked), the first page read
// before the answer starts so that an error is still a JSON one.
Task<> Export(const std::string &address, const std::string &format,
              const client::MilestoneSpan &span, httplib::Response &response, Db &db,
              BodyStream &stream)
{
    const bool csv = format == "csv";
    auto page = co_await db.Run(
        client::queries::AddressHistory(address, kExportPageSize, std::nullopt, span));
    response.status = 200;
    httplib::Response head;
    head.status = 200;
    head.set_header("Content-Type", csv ? "text/csv; charset=utf-8" : "application/x-ndjson");
    head.set_header("Content-Disposition",
                    "attachment; filename=\"history-" + address + "." + format + "\"");
    stream.Start(head);
    std::string piece = csv ? client::queries::HistoryCsvHeader() + "\n" : std::string();
    for (;;)
    {
        for (const auto &entry : page.items)
            piece += (csv ? client::queries::HistoryCsvLine(entry)
                          : client::queries::HistoryJsonLine(entry)) +
                     "\n";
        if (!co_await stream.Write(std::move(piece)))
            co_return; // the client went away
        piece.clear();
        if (!page.next)
            break;
        page = co_await db.Run(
            client::queries::AddressHistory(address, kExportPageSize, page.next, span));
    }
    stream.End();
}

Task<> History(const httplib::Request &request, httplib::Response &response, Db &db,
               const PathParams &path, BodyStream &stream)
{
    auto address = AnyEraAddressParam(path[0], "address");
    auto span = SpanParams(request);
    std::string format = QueryText(request, "format").value_or("json");
    if (format == "csv" || format == "jsonl")
    {
        co_await Export(address, format, span, response, db, stream);
        co_return;
    }
    if (format != "json")
        throw BadParameter("format", "expected json, csv or jsonl");
    int page_size = PageSize(request);
    auto cursor = CursorParam(request, CursorKey::kOutputId);
    auto page = co_await db.Run(client::queries::AddressHistory(address, page_size, cursor, span));
    nlohmann::json body = {{"address", path[0]}, {"addressHex", address}, {"pageSize", page_size}};
    if (page.next)
        body["cursor"] = client::EncodeCursor(*page.next);
    // The items are the export's JSON lines as they are (not parsed again), spliced in last.
    std::string text = JsonText(body);
    text.pop_back();
    text += ",\"items\":[";
    for (std::size_t i = 0; i < page.items.size(); ++i)
        text += (i ? "," : "") + client::queries::HistoryJsonLine(page.items[i]);
    text += "]}";
    response.status = 200;
    response.set_content(text, "application/json");
}

Task<> Migrations(const httplib::Request &, httplib::Response &response, Db &db,
                  const PathParams &path)
{
    auto address = iri::LegacyAddressParam(path[0], "address");
    nlohmann::json items = nlohmann::json::array();
    for (const auto &m : co_await db.Run(client::queries::MigrationsOf(address)))
    {
        items.push_back({{"bundle", m.bundle},
                         {"tailTransactionHash", m.tail_transaction_hash},
                         {"outputId", m.output_id},
                         {"addressHex", m.ed25519_address},
                         {"amount", std::to_string(m.amount)},
                         {"milestoneIndex", m.milestone_index},
                         {"milestoneTimestamp", m.milestone_timestamp}});
    }
    SendJson(response, {{"address", address}, {"migrations", items}});
}

} // namespace

void RegisterHistoryRoutes(Router &router)
{
    std::vector<QueryParam> history_params = kPagingParams;
    history_params.push_back({"fromMilestone", "integer", "the oldest milestone to include"});
    history_params.push_back({"toMilestone", "integer", "the newest milestone to include"});
    history_params.push_back(
        {"format", "string",
         "json (a page, the default), or csv or jsonl: the whole history as a download, streamed "
         "(chunked), its pages ignored"});
    router.GetStreamed(
        {"/api/explorer/v2/history/{address}", "explorer",
         "An address's outputs of every era (Chrysalis and Stardust; bech32 of either, or "
         "the hex of its hash), newest first: milestone, time, era, amount, where each was "
         "spent, and for funds migrated from the legacy network the legacy bundle and "
         "addresses they came from; or all of it as CSV or JSON lines",
         history_params},
        History);
    router.Get({"/api/explorer/v2/legacy/addresses/{address}/migrations", "explorer",
                "Where a legacy address's funds went by migration (TIP-17 receipts): each bundle "
                "it spent from that a receipt names, and the Ed25519 address and output credited"},
               Migrations);
}

} // namespace permanode::http
