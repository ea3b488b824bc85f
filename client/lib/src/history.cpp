// One address across every era (permanode.address_history), its CSV and JSON lines, and a legacy
// address's migrations (legacy.migrations_of).
#include <nlohmann/json.hpp>

#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

std::optional<std::int32_t> OptionalInt(const Row &row, int column)
{
    return row[column].is_null() ? std::nullopt
                                 : std::optional<std::int32_t>(row[column].as<std::int32_t>());
}

std::optional<std::string> OptionalText(const Row &row, int column)
{
    return row[column].is_null() ? std::nullopt
                                 : std::optional<std::string>(row[column].as<std::string>());
}

std::vector<std::string> Words(const std::string &text)
{
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < text.size())
    {
        std::size_t end = text.find(' ', at);
        end = end == std::string::npos ? text.size() : end;
        if (end > at)
            words.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return words;
}

HistoryEntry EntryOf(const Row &row)
{
    HistoryEntry entry;
    entry.era = row[0].as<std::string>();
    entry.output_id = row[1].as<std::string>();
    entry.output_kind = row[2].as<std::string>();
    entry.milestone_index = row[3].as<std::int32_t>();
    entry.milestone_timestamp = row[4].as<std::int64_t>();
    entry.amount = row[5].as<std::int64_t>();
    entry.block_id = row[6].is_null() ? std::string() : row[6].as<std::string>();
    entry.spent_milestone_index = OptionalInt(row, 7);
    entry.carried_to_stardust_at = OptionalInt(row, 8);
    entry.migrated_tail = OptionalText(row, 9);
    entry.migrated_bundle = OptionalText(row, 10);
    if (!row[11].is_null())
        entry.migrated_from = Words(row[11].as<std::string>());
    return entry;
}

// A CSV field: quoted when it holds a separator, a quote or a line break (RFC 4180).
std::string CsvField(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

template <typename T> std::string Or(const std::optional<T> &value)
{
    if (!value)
        return "";
    if constexpr (std::is_same_v<T, std::string>)
        return *value;
    else
        return std::to_string(*value);
}

std::string Joined(const std::vector<std::string> &words)
{
    std::string text;
    for (const auto &w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

} // namespace

namespace queries
{

Query<Page<HistoryEntry>> AddressHistory(const std::string &address, int page_size,
                                         const std::optional<Cursor> &after,
                                         const MilestoneSpan &span)
{
    // $1 address, $2-$5 the cursor, $6 the rows (one more than the page), $7-$8 the span.
    static const auto statement = MakeStatement(
        "address_history",
        "SELECT h.era, h.output_id::text, h.output_kind, h.milestone_index, "
        "extract(epoch FROM h.ms_timestamp)::bigint, h.amount, h.message_id::text, "
        "h.spent_milestone_index, h.carried_to_stardust_at, h.migrated_tail::text, "
        "h.migrated_bundle::text, array_to_string(h.migrated_from::text[], ' '), h.ms_range_id, " +
            Micros("h.ms_timestamp") +
            ", h.milestone_index, h.output_id::text FROM permanode.address_history("
            "$1::permanode.address, $6::int, $2::int, timestamptz 'epoch' + $3::bigint * "
            "interval '1 microsecond', $4::int, $5::permanode.output_id, $7::int, $8::int) h",
        Plan::kGeneric);
    Query<Page<HistoryEntry>> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.params.AddInt(span.from);
    query.params.AddInt(span.to);
    query.read = [page_size](const Result &result)
    {
        return MakePage<HistoryEntry>(result, page_size, EntryOf,
                                      [](const Row &row) { return CursorOf(row, 12, 15); });
    };
    return query;
}

Query<std::vector<Migration>> MigrationsOf(const std::string &legacy_address)
{
    static const auto statement =
        MakeStatement("legacy_migrations_of",
                      "SELECT m.bundle::text, m.tail_transaction_hash::text, m.output_id::text, "
                      "'0x' || encode(permanode.address_send(m.ed25519_address), 'hex'), m.amount, "
                      "m.milestone_index, "
                      "extract(epoch FROM m.ms_timestamp)::bigint "
                      "FROM legacy.migrations_of($1::permanode.trytes81) m",
                      Plan::kGeneric);
    Query<std::vector<Migration>> query;
    query.statement = statement;
    query.params.Add(legacy_address);
    query.read = [](const Result &result)
    {
        std::vector<Migration> migrations;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            Migration m;
            m.bundle = row[0].as<std::string>();
            m.tail_transaction_hash = row[1].as<std::string>();
            m.output_id = row[2].as<std::string>();
            m.ed25519_address = row[3].as<std::string>();
            m.amount = row[4].as<std::int64_t>();
            m.milestone_index = row[5].as<std::int32_t>();
            m.milestone_timestamp = row[6].as<std::int64_t>();
            migrations.push_back(std::move(m));
        }
        return migrations;
    };
    return query;
}

std::string HistoryCsvHeader()
{
    return "era,output_id,output_kind,milestone_index,milestone_timestamp,amount,block_id,"
           "spent_milestone_index,carried_to_stardust_at,"
           "migrated_tail,migrated_bundle,migrated_from";
}

std::string HistoryCsvLine(const HistoryEntry &e)
{
    const std::vector<std::string> fields = {e.era,
                                             e.output_id,
                                             e.output_kind,
                                             std::to_string(e.milestone_index),
                                             std::to_string(e.milestone_timestamp),
                                             std::to_string(e.amount),
                                             e.block_id,
                                             Or(e.spent_milestone_index),
                                             Or(e.carried_to_stardust_at),
                                             Or(e.migrated_tail),
                                             Or(e.migrated_bundle),
                                             Joined(e.migrated_from)};
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i)
        line += (i ? "," : "") + CsvField(fields[i]);
    return line;
}

std::string HistoryJsonLine(const HistoryEntry &e)
{
    nlohmann::json item = {{"era", e.era},
                           {"outputId", e.output_id},
                           {"kind", e.output_kind},
                           {"milestoneIndex", e.milestone_index},
                           {"milestoneTimestamp", e.milestone_timestamp},
                           {"amount", std::to_string(e.amount)},
                           {"blockId", e.block_id},
                           {"spent", nullptr}};
    if (e.spent_milestone_index)
        item["spent"] = {{"milestoneIndex", *e.spent_milestone_index}};
    if (e.carried_to_stardust_at)
        item["carriedToStardustAt"] = *e.carried_to_stardust_at;
    if (e.migrated_tail)
    {
        nlohmann::json from = {{"tailTransactionHash", *e.migrated_tail},
                               {"bundle", e.migrated_bundle ? nlohmann::json(*e.migrated_bundle)
                                                            : nlohmann::json(nullptr)},
                               {"addresses", e.migrated_from}};
        item["migratedFrom"] = std::move(from);
    }
    return item.dump();
}

} // namespace queries

} // namespace permanode::client
