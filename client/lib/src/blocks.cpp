// Blocks: by ID, by transaction, children, by tag, a milestone's cone.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

const char *const kBlockColumns =
    "message_id::text, message, coalesce(variant, ''), milestone_index, inclusion_state, "
    "conflict_reason, white_flag_index, coalesce(is_solid, false), should_promote, "
    "should_reattach, version";

BlockRow BlockOf(const Row &row)
{
    BlockRow block;
    block.block_id = row[0].as<std::string>();
    block.raw = row[1].Bytes();
    block.variant = row[2].as<std::string>();
    block.milestone_index = row[3].optional<std::int32_t>();
    block.inclusion_state = row[4].optional<std::int16_t>();
    block.conflict_reason = row[5].optional<std::int16_t>();
    block.white_flag_index = row[6].optional<std::int32_t>();
    block.is_solid = row[7].as<bool>();
    block.should_promote = row[8].optional<bool>();
    block.should_reattach = row[9].optional<bool>();
    block.protocol_version = row[10].as<std::int16_t>();
    return block;
}

// A newest-first list of block IDs with a key in $1 (the view or table, and its key column).
std::shared_ptr<const Statement> BlockList(const char *name, const std::string &from_where)
{
    return MakeStatement(name,
                         "SELECT message_id::text, ms_range_id, " + Micros("ms_timestamp") +
                             ", milestone_index FROM " + from_where + " AND " +
                             KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index",
                                             "message_id", "permanode.block_id") +
                             " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, "
                             "message_id DESC LIMIT $6");
}

Query<Page<std::string>> ListQuery(std::shared_ptr<const Statement> statement,
                                   const std::string &key, int page_size,
                                   const std::optional<Cursor> &after)
{
    Query<Page<std::string>> query;
    query.statement = std::move(statement);
    query.params.Add(key);
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.read = [page_size](const Result &result) { return IdPage(result, page_size); };
    return query;
}

MilestoneBlock MilestoneBlockOf(const Row &row)
{
    MilestoneBlock block;
    block.block_id = row[0].as<std::string>();
    block.white_flag_index = row[1].as<std::int32_t>();
    block.protocol_version = row[2].as<std::int16_t>();
    block.variant = row[3].as<std::string>();
    return block;
}

// The white-flag index a milestone's blocks continue after; Error (22023) when the cursor is not
// one of that list.
std::optional<std::int32_t> WhiteFlagIndexAfter(const std::optional<Cursor> &after)
{
    if (!after)
    {
        return std::nullopt;
    }
    try
    {
        std::size_t used = 0;
        int position = std::stoi(after->id, &used);
        if (used != after->id.size())
        {
            throw std::invalid_argument("trailing characters");
        }
        return position;
    }
    catch (const std::exception &)
    {
        throw Error("invalid cursor for a milestone's blocks", "22023");
    }
}

} // namespace

namespace queries
{

Query<std::optional<BlockRow>> Block(const std::string &block_id)
{
    // A block referenced by a milestone sorts before its pending copy, if both exist.
    // A point lookup: its generic plan keys the Permanode Range Scan on $1 as well.
    static const auto statement = MakeStatement(
        "block",
        std::string("SELECT ") + kBlockColumns +
            " FROM permanode.messages WHERE message_id = $1 ORDER BY ms_range_id LIMIT 1",
        Plan::kGeneric);
    Query<std::optional<BlockRow>> query;
    query.statement = statement;
    query.params.Add(block_id);
    query.read = [](const Result &result) { return FirstRow(result, BlockOf); };
    return query;
}

Query<std::optional<std::string>> TransactionBlockId(const std::string &transaction_id)
{
    static const auto statement =
        MakeStatement("transaction_block", "SELECT message_id::text FROM permanode.transactions "
                                           "WHERE transaction_id = $1 AND inclusion_state = 1 "
                                           "LIMIT 1");
    Query<std::optional<std::string>> query;
    query.statement = statement;
    query.params.Add(transaction_id);
    query.read = FirstText;
    return query;
}

Query<Page<std::string>> BlockChildren(const std::string &block_id, int page_size,
                                       const std::optional<Cursor> &after)
{
    static const auto statement =
        BlockList("block_children", "permanode.parents_by_ms WHERE parent_id = $1");
    return ListQuery(statement, block_id, page_size, after);
}

Query<Page<std::string>> BlocksByTag(const std::string &tag, int page_size,
                                     const std::optional<Cursor> &after)
{
    static const auto statement =
        BlockList("blocks_by_tag", "permanode.tags WHERE tag = $1 AND milestone_index IS NOT "
                                   "NULL AND ms_timestamp IS NOT NULL");
    return ListQuery(statement, tag, page_size, after);
}

Query<Page<std::string>> ChrysalisMessagesByIndex(const std::string &index, int page_size,
                                                  const std::optional<Cursor> &after)
{
    // The eras of a network do not overlap: the Chrysalis milestones' span picks its messages.
    static const auto statement = BlockList(
        "chrysalis_messages_by_index",
        "permanode.tags WHERE tag = $1 AND ms_timestamp IS NOT NULL AND milestone_index BETWEEN "
        "(SELECT min(milestone_index) FROM permanode.milestone_protocols WHERE protocol_version "
        "= 1) AND (SELECT max(milestone_index) FROM permanode.milestone_protocols WHERE "
        "protocol_version = 1)");
    return ListQuery(statement, index, page_size, after);
}

Query<Page<MilestoneBlock>> MilestoneBlocksWithKind(std::int32_t milestone_index, SortOrder sort,
                                                    int page_size,
                                                    const std::optional<Cursor> &after)
{
    // $1 the milestone, $2 the cursor's white-flag index (NULL: from the first), $3 the limit.
    auto sql = [](const char *after_op, const char *direction)
    {
        return std::string("SELECT message_id::text, white_flag_index, version, "
                           "coalesce(variant, '') FROM permanode.messages WHERE milestone_index "
                           "= $1 AND white_flag_index IS NOT NULL AND ($2::int IS NULL OR "
                           "white_flag_index ") +
               after_op + " $2) ORDER BY white_flag_index " + direction + " LIMIT $3";
    };
    static const auto oldest = MakeStatement("milestone_blocks", sql(">", "ASC"));
    static const auto newest = MakeStatement("milestone_blocks_newest", sql("<", "DESC"));
    Query<Page<MilestoneBlock>> query;
    query.statement = sort == SortOrder::kOldest ? oldest : newest;
    query.params.AddInt(std::optional<std::int32_t>(milestone_index));
    query.params.AddInt(WhiteFlagIndexAfter(after));
    query.params.Add(std::to_string(page_size + 1));
    query.read = [milestone_index, page_size](const Result &result)
    {
        return MakePage<MilestoneBlock>(result, page_size, MilestoneBlockOf,
                                        [milestone_index](const Row &row)
                                        {
                                            Cursor cursor;
                                            cursor.milestone_index = milestone_index;
                                            cursor.id = row[1].as<std::string>();
                                            return cursor;
                                        });
    };
    return query;
}

Query<Page<std::string>> MilestoneBlocks(std::int32_t milestone_index, int page_size,
                                         const std::optional<Cursor> &after)
{
    auto blocks = MilestoneBlocksWithKind(milestone_index, SortOrder::kOldest, page_size, after);
    Query<Page<std::string>> query;
    query.statement = std::move(blocks.statement);
    query.params = std::move(blocks.params); // moved: its pointers stay valid
    query.read = [read = std::move(blocks.read)](const Result &result)
    {
        auto page = read(result);
        Page<std::string> ids;
        for (auto &block : page.items)
        {
            ids.items.push_back(std::move(block.block_id));
        }
        ids.next = std::move(page.next);
        return ids;
    };
    return query;
}

} // namespace queries

std::optional<BlockRow> Client::GetBlock(const std::string &block_id)
{
    return Run(queries::Block(block_id));
}

std::optional<BlockRow> Client::GetTransactionIncludedBlock(const std::string &transaction_id)
{
    auto block_id = Run(queries::TransactionBlockId(transaction_id));
    if (!block_id)
    {
        return std::nullopt;
    }
    return GetBlock(*block_id);
}

Page<std::string> Client::GetBlockChildren(const std::string &block_id, int page_size,
                                           const std::optional<Cursor> &after)
{
    return Run(queries::BlockChildren(block_id, page_size, after));
}

Page<std::string> Client::GetBlocksByTag(const std::string &tag, int page_size,
                                         const std::optional<Cursor> &after)
{
    return Run(queries::BlocksByTag(tag, page_size, after));
}

Page<std::string> Client::GetChrysalisMessagesByIndex(const std::string &index, int page_size,
                                                      const std::optional<Cursor> &after)
{
    return Run(queries::ChrysalisMessagesByIndex(index, page_size, after));
}

Page<MilestoneBlock> Client::GetMilestoneBlocksWithKind(std::int32_t milestone_index,
                                                        SortOrder sort, int page_size,
                                                        const std::optional<Cursor> &after)
{
    return Run(queries::MilestoneBlocksWithKind(milestone_index, sort, page_size, after));
}

Page<std::string> Client::GetMilestoneBlocks(std::int32_t milestone_index, int page_size,
                                             const std::optional<Cursor> &after)
{
    return Run(queries::MilestoneBlocks(milestone_index, page_size, after));
}

} // namespace permanode::client
