// Blocks: by ID, by transaction, children, by tag, a milestone's cone.
#include "internal.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

const char *const kBlockColumns =
    "message_id::text, message, coalesce(variant, ''), milestone_index, inclusion_state, "
    "conflict_reason, white_flag_index, coalesce(is_solid, false), should_promote, "
    "should_reattach";

BlockRow BlockOf(const pqxx::row &row)
{
    BlockRow block;
    block.block_id = row[0].as<std::string>();
    block.raw = Bytes(row[1]);
    block.variant = row[2].as<std::string>();
    block.milestone_index = Optional<std::int32_t>(row[3]);
    block.inclusion_state = Optional<std::int16_t>(row[4]);
    block.conflict_reason = Optional<std::int16_t>(row[5]);
    block.white_flag_index = Optional<std::int32_t>(row[6]);
    block.is_solid = row[7].as<bool>();
    block.should_promote = Optional<bool>(row[8]);
    block.should_reattach = Optional<bool>(row[9]);
    return block;
}

} // namespace

namespace internal
{

void PrepareBlockStatements(pqxx::connection &connection)
{
    // A block referenced by a milestone sorts before its pending copy, if both exist.
    // A point lookup: its generic plan keys the Permanode Range Scan on $1 as well.
    Prepare(connection, "block",
            std::string("SELECT ") + kBlockColumns +
                " FROM permanode.messages WHERE message_id = $1 ORDER BY ms_range_id LIMIT 1",
            Plan::kGeneric);
    Prepare(connection, "transaction_block",
            "SELECT message_id::text FROM permanode.transactions "
            "WHERE transaction_id = $1 AND inclusion_state = 1 LIMIT 1");
    Prepare(connection, "block_children",
            "SELECT message_id::text, ms_range_id, " + Micros("ms_timestamp") +
                ", milestone_index FROM permanode.parents_by_ms WHERE parent_id = $1 AND " +
                KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index", "message_id",
                                "permanode.block_id") +
                " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id "
                "DESC LIMIT $6");
    Prepare(connection, "blocks_by_tag",
            "SELECT message_id::text, ms_range_id, " + Micros("ms_timestamp") +
                ", milestone_index FROM permanode.tags WHERE tag = $1 AND milestone_index IS NOT "
                "NULL AND ms_timestamp IS NOT NULL AND " +
                KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index", "message_id",
                                "permanode.block_id") +
                " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id "
                "DESC LIMIT $6");
    Prepare(connection, "milestone_blocks",
            "SELECT message_id::text, white_flag_index FROM permanode.messages "
            "WHERE milestone_index = $1 AND white_flag_index IS NOT NULL "
            "AND ($2::int IS NULL OR white_flag_index > $2) "
            "ORDER BY white_flag_index LIMIT $3");
}

} // namespace internal

std::optional<BlockRow> Client::GetBlock(const std::string &block_id)
{
    return Translate(
        [&]() -> std::optional<BlockRow>
        {
            Params params;
            params.Add(block_id);
            auto result = Exec(*connection_, "block", params);
            if (result.empty())
            {
                return std::nullopt;
            }
            return BlockOf(result[0]);
        });
}

std::optional<BlockRow> Client::GetTransactionIncludedBlock(const std::string &transaction_id)
{
    auto block_id = Translate(
        [&]() -> std::optional<std::string>
        {
            Params params;
            params.Add(transaction_id);
            auto result = Exec(*connection_, "transaction_block", params);
            if (result.empty())
            {
                return std::nullopt;
            }
            return result[0][0].as<std::string>();
        });
    if (!block_id)
    {
        return std::nullopt;
    }
    return GetBlock(*block_id);
}

Page<std::string> Client::GetBlockChildren(const std::string &block_id, int page_size,
                                           const std::optional<Cursor> &after)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(block_id);
            params.Add(after);
            params.Add(std::to_string(page_size + 1));
            auto result = Exec(*connection_, "block_children", params);
            return MakePage<std::string>(
                result, page_size, [](const pqxx::row &row) { return row[0].as<std::string>(); },
                [](const pqxx::row &row) { return CursorOf(row, 1, 0); });
        });
}

Page<std::string> Client::GetBlocksByTag(const std::string &tag, int page_size,
                                         const std::optional<Cursor> &after)
{
    return Translate(
        [&]
        {
            Params params;
            params.Add(tag);
            params.Add(after);
            params.Add(std::to_string(page_size + 1));
            auto result = Exec(*connection_, "blocks_by_tag", params);
            return MakePage<std::string>(
                result, page_size, [](const pqxx::row &row) { return row[0].as<std::string>(); },
                [](const pqxx::row &row) { return CursorOf(row, 1, 0); });
        });
}

Page<std::string> Client::GetMilestoneBlocks(std::int32_t milestone_index, int page_size,
                                             const std::optional<Cursor> &after)
{
    std::optional<std::int32_t> after_position;
    if (after)
    {
        try
        {
            std::size_t used = 0;
            after_position = std::stoi(after->id, &used);
            if (used != after->id.size())
            {
                throw std::invalid_argument("trailing characters");
            }
        }
        catch (const std::exception &)
        {
            throw Error("invalid cursor for a milestone's blocks", "22023");
        }
    }
    return Translate(
        [&]
        {
            Params params;
            params.AddInt(std::optional<std::int32_t>(milestone_index));
            params.AddInt(after_position);
            params.Add(std::to_string(page_size + 1));
            auto result = Exec(*connection_, "milestone_blocks", params);
            return MakePage<std::string>(
                result, page_size, [](const pqxx::row &row) { return row[0].as<std::string>(); },
                [milestone_index](const pqxx::row &row)
                {
                    Cursor cursor;
                    cursor.milestone_index = milestone_index;
                    cursor.id = row[1].as<std::string>();
                    return cursor;
                });
        });
}

} // namespace permanode::client
