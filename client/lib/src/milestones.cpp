// Milestones: by index and ID, the newest ones, UTXO changes, the ledger index.
#include "internal.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

const char *const kMilestoneColumns =
    "milestone_index, milestone_id::text, message_id::text, timestamp, payload";

MilestoneRow MilestoneOf(const pqxx::row &row)
{
    MilestoneRow milestone;
    milestone.milestone_index = row[0].as<std::int32_t>();
    milestone.milestone_id = row[1].as<std::string>();
    milestone.block_id = row[2].as<std::string>();
    milestone.timestamp = row[3].as<std::int64_t>();
    milestone.payload = Bytes(row[4]);
    return milestone;
}

} // namespace

namespace internal
{

void PrepareMilestoneStatements(pqxx::connection &connection)
{
    Prepare(connection, "milestone_by_index",
            std::string("SELECT ") + kMilestoneColumns +
                " FROM permanode.milestones "
                "WHERE milestone_index = $1 LIMIT 1");
    Prepare(connection, "milestone_by_id",
            std::string("SELECT ") + kMilestoneColumns +
                " FROM permanode.milestones "
                "WHERE milestone_id = $1 LIMIT 1");
    Prepare(connection, "latest_milestones",
            std::string("SELECT ") + kMilestoneColumns +
                " FROM permanode.milestones "
                "ORDER BY milestone_index DESC LIMIT $1");
    // 'm' marks that the milestone was ingested; 'c' created and 's' spent outputs.
    std::string sql = "SELECT 'm', NULL FROM permanode.sync WHERE milestone_index = $1";
    for (const char *table : {"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs"})
    {
        sql += std::string(" UNION ALL SELECT 'c', output_id::text FROM permanode.") + table +
               " WHERE milestone_index = $1";
    }
    sql += " UNION ALL SELECT 's', output_id::text FROM permanode.spent_outputs "
           "WHERE milestone_index = $1 ORDER BY 1, 2";
    Prepare(connection, "utxo_changes", sql);
    Prepare(connection, "ledger_index",
            "SELECT coalesce(max(milestone_index), 0) FROM permanode.sync");
}

} // namespace internal

std::optional<MilestoneRow> Client::GetMilestoneByIndex(std::int32_t milestone_index)
{
    return Translate(
        [&]() -> std::optional<MilestoneRow>
        {
            Params params;
            params.Add(std::to_string(milestone_index));
            auto result = Exec(*connection_, "milestone_by_index", params);
            if (result.empty())
            {
                return std::nullopt;
            }
            return MilestoneOf(result[0]);
        });
}

std::optional<MilestoneRow> Client::GetMilestoneById(const std::string &milestone_id)
{
    return Translate(
        [&]() -> std::optional<MilestoneRow>
        {
            Params params;
            params.Add(milestone_id);
            auto result = Exec(*connection_, "milestone_by_id", params);
            if (result.empty())
            {
                return std::nullopt;
            }
            return MilestoneOf(result[0]);
        });
}

std::vector<MilestoneRow> Client::GetLatestMilestones(int count)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(std::to_string(count));
            std::vector<MilestoneRow> milestones;
            for (const auto &row : Exec(*connection_, "latest_milestones", params))
            {
                milestones.push_back(MilestoneOf(row));
            }
            return milestones;
        });
}

std::optional<UtxoChanges> Client::GetUtxoChanges(std::int32_t milestone_index)
{
    return Translate(
        [&]() -> std::optional<UtxoChanges>
        {
            Params params;
            params.Add(std::to_string(milestone_index));
            auto result = Exec(*connection_, "utxo_changes", params);
            UtxoChanges changes;
            changes.milestone_index = milestone_index;
            bool ingested = false;
            for (const auto &row : result)
            {
                auto kind = row[0].as<std::string>();
                if (kind == "m")
                {
                    ingested = true;
                }
                else if (kind == "c")
                {
                    changes.created_outputs.push_back(row[1].as<std::string>());
                }
                else
                {
                    changes.consumed_outputs.push_back(row[1].as<std::string>());
                }
            }
            if (!ingested)
            {
                return std::nullopt;
            }
            return changes;
        });
}

std::int32_t Client::GetLedgerIndex()
{
    return Translate([&]
                     { return Exec(*connection_, "ledger_index", {})[0][0].as<std::int32_t>(); });
}

} // namespace permanode::client
