// Milestones: by index and ID, the newest ones, UTXO changes, the ledger index.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// The era comes from milestone_protocols; milestones ingested before it existed are Stardust.
const char *const kMilestoneColumns =
    "milestone_index, milestone_id::text, message_id::text, timestamp, payload, "
    "coalesce((SELECT p.protocol_version FROM permanode.milestone_protocols p "
    "WHERE p.milestone_index = m.milestone_index), 2)";

MilestoneRow MilestoneOf(const Row &row)
{
    MilestoneRow milestone;
    milestone.milestone_index = row[0].as<std::int32_t>();
    milestone.milestone_id = row[1].as<std::string>();
    milestone.block_id = row[2].as<std::string>();
    milestone.timestamp = row[3].as<std::int64_t>();
    milestone.payload = row[4].Bytes();
    milestone.protocol_version = row[5].as<std::int16_t>();
    return milestone;
}

std::optional<MilestoneRow> FirstMilestone(const Result &result)
{
    return FirstRow(result, MilestoneOf);
}

std::shared_ptr<const Statement> MilestoneBy(const char *name, const char *condition)
{
    return MakeStatement(name, std::string("SELECT ") + kMilestoneColumns +
                                   " FROM permanode.milestones m WHERE " + condition + " LIMIT 1");
}

std::string UtxoChangesSql()
{
    // 'm' marks that the milestone was ingested (with its protocol version); 'c' created and
    // 's' spent outputs.
    std::string sql = "SELECT 'm', coalesce((SELECT protocol_version::text FROM "
                      "permanode.milestone_protocols WHERE milestone_index = $1), '2') "
                      "FROM permanode.sync WHERE milestone_index = $1";
    for (const char *table : {"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs"})
    {
        sql += std::string(" UNION ALL SELECT 'c', output_id::text FROM permanode.") + table +
               " WHERE milestone_index = $1";
    }
    sql += " UNION ALL SELECT 'c', output_id::text FROM permanode.legacy_outputs "
           "WHERE milestone_index = $1 AND NOT is_used";
    return sql + " UNION ALL SELECT 's', output_id::text FROM permanode.spent_outputs "
                 "WHERE milestone_index = $1 ORDER BY 1, 2";
}

// The milestones by index, newest or oldest first: the ledger's keyset (ms_range_id and the
// time grow with the index), ordered as the partitions' (milestone_index, message_id) index is,
// with the cursor's range and index as plain bounds too, which prune the partitions passed and
// start the index scan at the cursor. $1-$2 the time bounds, $3-$6 the cursor, $7 the limit.
std::string MilestonesSql(SortOrder order)
{
    bool newest = order == SortOrder::kNewest;
    const std::string bound = newest ? " <= " : " >= ";
    const std::string direction = newest ? " DESC" : " ASC";
    return "SELECT m.milestone_id::text, m.ms_range_id, m.timestamp * 1000000, "
           "m.milestone_index, m.message_id::text, m.timestamp FROM permanode.milestones m "
           "WHERE ($1::bigint IS NULL OR m.timestamp >= $1) AND ($2::bigint IS NULL OR "
           "m.timestamp <= $2) AND ($3::int IS NULL OR (m.ms_range_id" +
           bound + "$3 AND m.milestone_index" + bound + "$5)) AND " +
           KeysetCondition(3, "m.ms_range_id", "to_timestamp(m.timestamp)", "m.milestone_index",
                           "m.message_id", "permanode.block_id", order) +
           " ORDER BY m.milestone_index" + direction + ", m.message_id" + direction + " LIMIT $7";
}

MilestoneListItem MilestoneListItemOf(const Row &row)
{
    MilestoneListItem item;
    item.milestone_id = row[0].as<std::string>();
    item.milestone_index = row[3].as<std::int32_t>();
    item.timestamp = row[5].as<std::int64_t>();
    return item;
}

} // namespace

namespace queries
{

Query<std::optional<MilestoneRow>> MilestoneByIndex(std::int32_t milestone_index)
{
    static const auto statement = MilestoneBy("milestone_by_index", "milestone_index = $1");
    Query<std::optional<MilestoneRow>> query;
    query.statement = statement;
    query.params.Add(std::to_string(milestone_index));
    query.read = FirstMilestone;
    return query;
}

Query<std::optional<MilestoneRow>> MilestoneById(const std::string &milestone_id)
{
    static const auto statement = MilestoneBy("milestone_by_id", "milestone_id = $1");
    Query<std::optional<MilestoneRow>> query;
    query.statement = statement;
    query.params.Add(milestone_id);
    query.read = FirstMilestone;
    return query;
}

Query<Page<MilestoneListItem>> Milestones(const MilestoneFilter &filter, int page_size,
                                          const std::optional<Cursor> &after)
{
    static const auto newest = MakeStatement("milestones", MilestonesSql(SortOrder::kNewest));
    static const auto oldest =
        MakeStatement("milestones_oldest", MilestonesSql(SortOrder::kOldest));
    Query<Page<MilestoneListItem>> query;
    query.statement = filter.sort == SortOrder::kNewest ? newest : oldest;
    query.params.AddInt(filter.start_timestamp);
    query.params.AddInt(filter.end_timestamp);
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.read = [page_size](const Result &result)
    {
        return MakePage<MilestoneListItem>(result, page_size, MilestoneListItemOf,
                                           [](const Row &row) { return CursorOf(row, 1, 4); });
    };
    return query;
}

Query<std::vector<MilestoneRow>> LatestMilestones(int count)
{
    static const auto statement = MakeStatement(
        "latest_milestones", std::string("SELECT ") + kMilestoneColumns +
                                 " FROM permanode.milestones m ORDER BY milestone_index DESC "
                                 "LIMIT $1");
    Query<std::vector<MilestoneRow>> query;
    query.statement = statement;
    query.params.Add(std::to_string(count));
    query.read = [](const Result &result)
    {
        std::vector<MilestoneRow> milestones;
        for (int i = 0; i < result.Rows(); i++)
        {
            milestones.push_back(MilestoneOf(Row(result, i)));
        }
        return milestones;
    };
    return query;
}

Query<std::optional<UtxoChanges>> UtxoChangesAt(std::int32_t milestone_index)
{
    static const auto statement = MakeStatement("utxo_changes", UtxoChangesSql());
    Query<std::optional<UtxoChanges>> query;
    query.statement = statement;
    query.params.Add(std::to_string(milestone_index));
    query.read = [milestone_index](const Result &result) -> std::optional<UtxoChanges>
    {
        UtxoChanges changes;
        changes.milestone_index = milestone_index;
        bool ingested = false;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            auto kind = row[0].text();
            if (kind == "m")
            {
                ingested = true;
                changes.protocol_version = row[1].as<std::int16_t>();
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
    };
    return query;
}

Query<std::int32_t> LedgerIndex()
{
    static const auto statement =
        MakeStatement("ledger_index", "SELECT coalesce(max(milestone_index), 0) FROM "
                                      "permanode.milestone_protocols");
    Query<std::int32_t> query;
    query.statement = statement;
    query.read = [](const Result &result) { return Row(result, 0)[0].as<std::int32_t>(); };
    return query;
}

Query<std::pair<std::int32_t, std::int32_t>> HeldMilestones()
{
    static const auto statement = MakeStatement(
        "held_milestones", "SELECT coalesce(min(milestone_index), 0), "
                           "coalesce(max(milestone_index), 0) FROM permanode.milestone_protocols");
    Query<std::pair<std::int32_t, std::int32_t>> query;
    query.statement = statement;
    query.read = [](const Result &result)
    {
        Row row(result, 0);
        return std::make_pair(row[0].as<std::int32_t>(), row[1].as<std::int32_t>());
    };
    return query;
}

} // namespace queries

std::optional<MilestoneRow> Client::GetMilestoneByIndex(std::int32_t milestone_index)
{
    return Run(queries::MilestoneByIndex(milestone_index));
}

std::optional<MilestoneRow> Client::GetMilestoneById(const std::string &milestone_id)
{
    return Run(queries::MilestoneById(milestone_id));
}

Page<MilestoneListItem> Client::GetMilestones(const MilestoneFilter &filter, int page_size,
                                              const std::optional<Cursor> &after)
{
    return Run(queries::Milestones(filter, page_size, after));
}

std::vector<MilestoneRow> Client::GetLatestMilestones(int count)
{
    return Run(queries::LatestMilestones(count));
}

std::optional<UtxoChanges> Client::GetUtxoChanges(std::int32_t milestone_index)
{
    return Run(queries::UtxoChangesAt(milestone_index));
}

std::int32_t Client::GetLedgerIndex()
{
    return Run(queries::LedgerIndex());
}

} // namespace permanode::client
