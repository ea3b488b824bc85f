// Explorer and analytics: balances, ledger updates by address and milestone, analytics.
#include "internal.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// Ledger updates sort newest first, then by output ID and created/spent ('c'/'s'): that text
// key is the cursor's id.
const char *const kUpdateKey =
    "(output_id::text || CASE WHEN is_spent THEN 's' ELSE 'c' END) COLLATE \"C\"";

LedgerUpdate UpdateOf(const pqxx::row &row)
{
    LedgerUpdate update;
    update.output_id = row[0].as<std::string>();
    update.is_spent = row[1].as<bool>();
    update.milestone_index = row[2].as<std::int32_t>();
    update.milestone_timestamp = row[3].as<std::int64_t>();
    update.amount = row[4].is_null() ? 0 : row[4].as<std::int64_t>();
    return update;
}

Page<LedgerUpdate> UpdatePage(const pqxx::result &result, int page_size)
{
    return MakePage<LedgerUpdate>(result, page_size, UpdateOf,
                                  [](const pqxx::row &row) { return CursorOf(row, 5, 8); });
}

} // namespace

namespace internal
{

void PrepareExplorerStatements(pqxx::connection &connection)
{
    Prepare(connection, "balance",
            "SELECT coalesce(sum(amount), 0)::bigint, coalesce(sum(amount) FILTER (WHERE "
            "dust_return_address IS NULL AND timelock IS NULL AND expiration IS NULL), 0)::bigint, "
            "(SELECT coalesce(max(milestone_index), 0) FROM permanode.sync) "
            "FROM permanode.unspent_outputs WHERE address = $1");

    // Columns: output_id, is_spent, milestone_index, unix time, amount, then the sort key
    // (ms_range_id, µs, milestone_index) and its text id.
    std::string tail =
        std::string(") u WHERE ") +
        KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index", kUpdateKey, "text") +
        " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, " + kUpdateKey +
        " DESC LIMIT $6";
    std::string select = "SELECT output_id::text, is_spent, milestone_index, "
                         "extract(epoch FROM ms_timestamp)::bigint, amount, ms_range_id, " +
                         Micros("ms_timestamp") + ", milestone_index, " + kUpdateKey + " FROM (";
    std::string created_by_address =
        "SELECT output_id, ms_range_id, ms_timestamp, milestone_index, amount "
        "FROM permanode.basic_outputs_by_address WHERE address = $1 UNION ALL "
        "SELECT output_id, ms_range_id, ms_timestamp, milestone_index, amount "
        "FROM permanode.nft_outputs_by_address WHERE address = $1";
    Prepare(connection, "ledger_updates_by_address",
            select + "WITH created AS (" + created_by_address +
                ") SELECT output_id, false AS is_spent, ms_range_id, ms_timestamp, "
                "milestone_index, amount FROM created UNION ALL SELECT c.output_id, "
                "true, s.ms_range_id, s.ms_timestamp, s.milestone_index, c.amount "
                "FROM created c JOIN permanode.spent_outputs s "
                "ON s.output_id = c.output_id" +
                tail);

    std::string created_at;
    std::string all_created;
    for (const char *table : {"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs"})
    {
        std::string part = std::string("SELECT output_id, ms_range_id, ms_timestamp, "
                                       "milestone_index, amount FROM permanode.") +
                           table;
        created_at +=
            (created_at.empty() ? "" : " UNION ALL ") + part + " WHERE milestone_index = $1";
        all_created += (all_created.empty() ? "" : " UNION ALL ") + part;
    }
    Prepare(connection, "ledger_updates_by_milestone",
            select +
                "SELECT output_id, false AS is_spent, ms_range_id, ms_timestamp, "
                "milestone_index, amount FROM (" +
                created_at +
                ") c UNION ALL SELECT s.output_id, true, s.ms_range_id, s.ms_timestamp, "
                "s.milestone_index, (SELECT a.amount FROM (" +
                all_created +
                ") a WHERE a.output_id = s.output_id LIMIT 1) FROM permanode.spent_outputs s "
                "WHERE s.milestone_index = $1" +
                tail);

    Prepare(connection, "milestone_analytics",
            "SELECT milestone_index, message_count, transaction_count, "
            "transferred_tokens FROM permanode.ms_analytics "
            "WHERE milestone_index = $1 LIMIT 1");
    // Rolled-up days, and days metrics_cache holds that are not rolled up yet.
    Prepare(connection, "daily_analytics",
            "SELECT date::text, total_addresses, send_addresses, recv_addresses "
            "FROM permanode.daily_analytics WHERE date BETWEEN $1::date AND $2::date "
            "UNION ALL SELECT m.date::text, count(*) FILTER (WHERE m.metric = 'sent_or_received'), "
            "count(*) FILTER (WHERE m.metric = 'sent'), count(*) FILTER (WHERE m.metric = "
            "'received') FROM permanode.metrics_cache m WHERE m.date BETWEEN $1::date AND $2::date "
            "AND m.variant = 'address' AND NOT EXISTS (SELECT 1 FROM permanode.daily_analytics d "
            "WHERE d.date = m.date) GROUP BY m.date ORDER BY 1");
}

} // namespace internal

Balance Client::GetBalance(const std::string &address)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(address);
            auto row = Exec(*connection_, "balance", params)[0];
            Balance balance;
            balance.address = address;
            balance.total_balance = row[0].as<std::int64_t>();
            balance.sig_locked_balance = row[1].as<std::int64_t>();
            balance.ledger_index = row[2].as<std::int32_t>();
            return balance;
        });
}

Page<LedgerUpdate> Client::GetLedgerUpdatesByAddress(const std::string &address, int page_size,
                                                     const std::optional<Cursor> &after)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(address);
            params.Add(after);
            params.Add(std::to_string(page_size + 1));
            return UpdatePage(Exec(*connection_, "ledger_updates_by_address", params), page_size);
        });
}

Page<LedgerUpdate> Client::GetLedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                       const std::optional<Cursor> &after)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(std::to_string(milestone_index));
            params.Add(after);
            params.Add(std::to_string(page_size + 1));
            return UpdatePage(Exec(*connection_, "ledger_updates_by_milestone", params), page_size);
        });
}

std::optional<MilestoneAnalytics> Client::GetMilestoneAnalytics(std::int32_t milestone_index)
{
    return Translate(
        [&]() -> std::optional<MilestoneAnalytics>
        {
            Params params;
            params.Add(std::to_string(milestone_index));
            auto result = Exec(*connection_, "milestone_analytics", params);
            if (result.empty())
            {
                return std::nullopt;
            }
            MilestoneAnalytics analytics;
            analytics.milestone_index = result[0][0].as<std::int32_t>();
            analytics.block_count = result[0][1].as<std::int32_t>();
            analytics.transaction_count = result[0][2].as<std::int32_t>();
            analytics.transferred_tokens = result[0][3].as<std::int64_t>();
            return analytics;
        });
}

std::vector<DailyAnalytics> Client::GetDailyAnalytics(const std::string &from_date,
                                                      const std::string &to_date)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(from_date);
            params.Add(to_date);
            std::vector<DailyAnalytics> days;
            for (const auto &row : Exec(*connection_, "daily_analytics", params))
            {
                DailyAnalytics day;
                day.date = row[0].as<std::string>();
                day.total_addresses = row[1].as<std::int32_t>();
                day.send_addresses = row[2].as<std::int32_t>();
                day.recv_addresses = row[3].as<std::int32_t>();
                days.push_back(day);
            }
            return days;
        });
}

} // namespace permanode::client
