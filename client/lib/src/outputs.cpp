// Outputs: by ID with their spent state, and an address's outputs over all history.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

std::string OutputSql()
{
    // Each branch names output_id = $1 itself, so the partition hints prune every table. A
    // Chrysalis output's creation is its legacy_outputs row with is_used = false. An output the
    // Stardust genesis carried on from Chrysalis has a row of each era: $2 (a protocol version,
    // or NULL for the newest) chooses, and its spend is the one of the chosen era.
    std::string created;
    for (const char *table : {"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs"})
    {
        created +=
            std::string(created.empty() ? "" : " UNION ALL ") +
            "SELECT output_id, data, message_id, milestone_index, ms_timestamp, 2 AS version "
            "FROM permanode." +
            table + " WHERE output_id = $1";
    }
    created += " UNION ALL SELECT output_id, data, message_id, milestone_index, ms_timestamp, 1 "
               "FROM permanode.legacy_outputs WHERE output_id = $1 AND NOT is_used";
    // The ledger index is the newest milestone of the output's era.
    return "SELECT o.output_id::text, o.data, o.message_id::text, o.milestone_index, "
           "extract(epoch FROM o.ms_timestamp)::bigint, s.milestone_index, "
           "extract(epoch FROM s.ms_timestamp)::bigint, s.transaction_id::text, "
           "CASE o.version WHEN 1 THEN (SELECT coalesce(max(milestone_index), 0) "
           "FROM permanode.milestone_protocols WHERE protocol_version = 1) "
           "ELSE (SELECT coalesce(max(milestone_index), 0) FROM permanode.milestone_protocols) "
           "END, o.version "
           "FROM (SELECT * FROM (" +
           created +
           ") c WHERE $2::smallint IS NULL OR c.version = $2 ORDER BY c.version DESC LIMIT 1) o "
           "LEFT JOIN LATERAL (SELECT x.milestone_index, x.ms_timestamp, x.transaction_id FROM "
           "permanode.spent_outputs x JOIN permanode.milestone_protocols p ON p.milestone_index "
           "= x.milestone_index AND p.protocol_version = o.version WHERE x.output_id = $1 LIMIT 1) "
           "s ON true";
}

// The Chrysalis outputs of one type an address received, one UNION ALL branch: the lookup's
// index leads with (address, output_type, is_used), so each type is read in the list's order.
std::string ChrysalisCreatedByAddress(int output_type)
{
    return "UNION ALL SELECT output_id, ms_range_id, ms_timestamp, milestone_index "
           "FROM permanode.legacy_outputs_by_address WHERE address = $1 AND output_type = " +
           std::to_string(output_type) + " AND NOT is_used ";
}

OutputRow OutputOf(const Row &row)
{
    OutputRow output;
    output.output_id = row[0].as<std::string>();
    output.raw = row[1].Bytes();
    output.block_id = row[2].is_null() ? "" : row[2].as<std::string>();
    output.milestone_index_booked = row[3].as<std::int32_t>();
    output.milestone_timestamp_booked = row[4].as<std::int64_t>();
    output.is_spent = !row[5].is_null();
    if (output.is_spent)
    {
        output.milestone_index_spent = row[5].as<std::int32_t>();
        output.milestone_timestamp_spent = row[6].as<std::int64_t>();
        output.transaction_id_spent = row[7].as<std::string>();
    }
    output.ledger_index = row[8].as<std::int32_t>();
    output.protocol_version = row[9].as<std::int16_t>();
    return output;
}

} // namespace

namespace queries
{

Query<std::optional<OutputRow>> Output(const std::string &output_id,
                                       std::optional<std::int16_t> era)
{
    static const auto statement = MakeStatement("output", OutputSql());
    Query<std::optional<OutputRow>> query;
    query.statement = statement;
    query.params.Add(output_id);
    query.params.AddInt(era);
    query.read = [](const Result &result) { return FirstRow(result, OutputOf); };
    return query;
}

Query<Page<std::string>> AddressOutputs(const std::string &address, int page_size,
                                        const std::optional<Cursor> &after)
{
    static const auto statement = MakeStatement(
        "address_outputs",
        "SELECT output_id::text, ms_range_id, " + Micros("ms_timestamp") +
            ", milestone_index FROM (SELECT output_id, ms_range_id, ms_timestamp, "
            "milestone_index FROM permanode.basic_outputs_by_address WHERE address = $1 "
            "UNION ALL SELECT output_id, ms_range_id, ms_timestamp, milestone_index "
            "FROM permanode.nft_outputs_by_address WHERE address = $1 " +
            ChrysalisCreatedByAddress(0) + ChrysalisCreatedByAddress(1) + ") o WHERE " +
            KeysetCondition(2, "ms_range_id", "ms_timestamp", "milestone_index", "output_id",
                            "permanode.output_id") +
            " ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id "
            "DESC LIMIT $6");
    Query<Page<std::string>> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.Add(after);
    query.params.Add(std::to_string(page_size + 1));
    query.read = [page_size](const Result &result) { return IdPage(result, page_size); };
    return query;
}

} // namespace queries

std::optional<OutputRow> Client::GetOutput(const std::string &output_id)
{
    return Run(queries::Output(output_id));
}

Page<std::string> Client::GetAddressOutputs(const std::string &address, int page_size,
                                            const std::optional<Cursor> &after)
{
    return Run(queries::AddressOutputs(address, page_size, after));
}

} // namespace permanode::client
