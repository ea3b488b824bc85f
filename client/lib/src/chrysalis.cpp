// Chrysalis (protocol 1): the era's milestones, an address's SigLocked outputs and balance,
// receipts. Messages, outputs and milestones by ID are the era-blind queries of blocks.cpp,
// outputs.cpp and milestones.cpp, whose rows say their protocol version.
#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
using namespace internal;

namespace
{

// The newest Chrysalis milestone: the ledger index of the era's answers.
const char *const kChrysalisLedgerIndex =
    "(SELECT coalesce(max(milestone_index), 0) FROM permanode.milestone_protocols "
    "WHERE protocol_version = 1)";

// Chrysalis milestones that carry a receipt (permanode.receipts, written by ingest), with the
// receipt's migratedAt and the milestone's payload.
std::string ReceiptsSql(const std::string &filter_and_order)
{
    return "SELECT r.milestone_index, r.migrated_at, m.milestone_id::text, m.payload "
           "FROM permanode.receipts r JOIN permanode.milestones m "
           "ON m.milestone_index = r.milestone_index " +
           filter_and_order;
}

ReceiptRow ReceiptOf(const Row &row)
{
    ReceiptRow receipt;
    receipt.milestone_index = row[0].as<std::int32_t>();
    receipt.migrated_at = row[1].as<std::int64_t>();
    receipt.milestone_id = row[2].as<std::string>();
    receipt.payload = row[3].Bytes();
    return receipt;
}

// Spent outputs of one output type an address held: rows with is_used in the spending range,
// read in the lookup's order (its index leads with address, output_type, is_used).
std::string SpentOfType(int output_type)
{
    std::string type = std::to_string(output_type);
    return "SELECT output_id, ms_range_id, ms_timestamp, milestone_index FROM "
           "permanode.legacy_outputs_by_address WHERE address = $1 AND output_type = " +
           type + " AND is_used AND ($2::smallint IS NULL OR $2 = " + type + ")";
}

// A balance row: total, dust allowance, dust outputs, ledger index.
ChrysalisBalance ChrysalisBalanceRow(const Result &result)
{
    Row row(result, 0);
    ChrysalisBalance balance;
    balance.balance = row[0].as<std::int64_t>();
    balance.dust_allowance = row[1].as<std::int64_t>();
    balance.dust_outputs = row[2].as<std::int32_t>();
    balance.ledger_index = row[3].as<std::int32_t>();
    return balance;
}

// The balance of address $1 at the end of Chrysalis milestone `at` (SQL): total, dust allowance,
// dust outputs (TIP-15: a SigLockedSingleOutput below 1 Mi), and `at` as the ledger index. From
// the outputs held then (outputs_at), not the unspent set: once a Stardust genesis carries the
// era's last unspent outputs on under their IDs, the unspent set holds them as Stardust outputs.
std::string BalanceSql(const std::string &at)
{
    return "SELECT coalesce(sum(amount), 0)::bigint, coalesce(sum(amount) FILTER (WHERE "
           "output_type = 1), 0)::bigint, (count(*) FILTER (WHERE output_type = 0 AND amount < "
           "1000000))::int, " +
           at + " FROM permanode.outputs_at($1, " + at + ") WHERE output_kind = 'legacy'";
}

// The Chrysalis outputs address $1 held at the end of milestone `at` (SQL), of output type $2
// when not NULL, newest first, at most $4 (as BalanceSql, from outputs_at).
std::string HeldOutputsSql(const std::string &at)
{
    return "SELECT output_id, ms_timestamp FROM permanode.outputs_at($1, " + at +
           ") WHERE output_kind = 'legacy' AND ($2::smallint IS NULL OR output_type = $2) "
           "ORDER BY ms_timestamp DESC, output_id LIMIT $4";
}

} // namespace

namespace queries
{

Query<std::optional<EraMilestones>> EraOf(std::int16_t protocol_version)
{
    static const auto statement = MakeStatement(
        "era_milestones",
        "SELECT e.lo, e.hi, extract(epoch FROM m.ms_timestamp)::bigint, m.message_id::text, "
        "current_setting('permanode.bech32_hrp', true) FROM (SELECT min(milestone_index) AS lo, "
        "max(milestone_index) AS hi FROM permanode.milestone_protocols WHERE protocol_version = "
        "$1) e LEFT JOIN LATERAL (SELECT ms_timestamp, message_id FROM permanode.messages "
        "WHERE milestone_index = e.hi AND white_flag_index IS NOT NULL ORDER BY "
        "white_flag_index DESC LIMIT 1) m ON true");
    Query<std::optional<EraMilestones>> query;
    query.statement = statement;
    query.params.Add(std::to_string(protocol_version));
    query.read = [protocol_version](const Result &result) -> std::optional<EraMilestones>
    {
        Row row(result, 0);
        if (row[0].is_null())
        {
            return std::nullopt;
        }
        EraMilestones era;
        era.protocol_version = protocol_version;
        era.first_index = row[0].as<std::int32_t>();
        era.last_index = row[1].as<std::int32_t>();
        era.last_timestamp = row[2].optional<std::int64_t>().value_or(0);
        era.last_message_id = row[3].optional<std::string>();
        era.bech32_hrp = row[4].optional<std::string>().value_or("");
        return era;
    };
    return query;
}

Query<ChrysalisBalance> ChrysalisBalanceAt(const std::string &address, std::int32_t milestone_index)
{
    static const auto statement = MakeStatement("chrysalis_balance_at", BalanceSql("$2::int"));
    Query<ChrysalisBalance> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.Add(std::to_string(milestone_index));
    query.read = ChrysalisBalanceRow;
    return query;
}

Query<ChrysalisOutputIds> ChrysalisAddressOutputsAt(const std::string &address,
                                                    std::optional<std::int16_t> output_type,
                                                    std::int32_t milestone_index, int max_results)
{
    static const auto statement =
        MakeStatement("chrysalis_address_outputs_at",
                      "SELECT output_id::text FROM (" + HeldOutputsSql("$3::int") +
                          ") o ORDER BY ms_timestamp DESC, output_id");
    Query<ChrysalisOutputIds> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.AddInt(output_type);
    query.params.Add(std::to_string(milestone_index));
    query.params.Add(std::to_string(max_results));
    query.read = [milestone_index](const Result &result)
    {
        ChrysalisOutputIds ids;
        ids.ledger_index = milestone_index;
        for (int i = 0; i < result.Rows(); i++)
        {
            ids.items.push_back(Row(result, i)[0].as<std::string>());
        }
        return ids;
    };
    return query;
}

Query<ChrysalisBalance> ChrysalisBalanceOf(const std::string &address)
{
    static const auto statement =
        MakeStatement("chrysalis_balance", BalanceSql(kChrysalisLedgerIndex));
    Query<ChrysalisBalance> query;
    query.statement = statement;
    query.params.Add(address);
    query.read = ChrysalisBalanceRow;
    return query;
}

Query<ChrysalisOutputIds> ChrysalisAddressOutputs(const std::string &address,
                                                  std::optional<std::int16_t> output_type,
                                                  bool include_spent, int max_results)
{
    // Kinds: 'l' the ledger index, 'u' unspent outputs newest first, 's' spent ones newest
    // first (by the spending milestone); each list stops at max_results.
    static const auto statement = MakeStatement(
        "chrysalis_address_outputs",
        std::string("SELECT 'l', ") + kChrysalisLedgerIndex +
            "::text, 0 UNION ALL SELECT 'u', output_id::text, row_number() OVER (ORDER BY "
            "ms_timestamp DESC, output_id) FROM (" +
            HeldOutputsSql(kChrysalisLedgerIndex) +
            ") u UNION ALL SELECT 's', output_id::text, row_number() OVER "
            "(ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id "
            "DESC) FROM (SELECT * FROM (" +
            SpentOfType(0) + " UNION ALL " + SpentOfType(1) +
            ") t WHERE $3 ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, "
            "output_id DESC LIMIT $4) s ORDER BY 1, 3");
    Query<ChrysalisOutputIds> query;
    query.statement = statement;
    query.params.Add(address);
    query.params.AddInt(output_type);
    query.params.Add(std::optional<bool>(include_spent));
    query.params.Add(std::to_string(max_results));
    query.read = [max_results](const Result &result)
    {
        ChrysalisOutputIds ids;
        std::vector<std::string> spent;
        for (int i = 0; i < result.Rows(); i++)
        {
            Row row(result, i);
            auto kind = row[0].text();
            if (kind == "l")
            {
                ids.ledger_index = row[1].as<std::int32_t>();
            }
            else if (kind == "u")
            {
                ids.items.push_back(row[1].as<std::string>());
            }
            else
            {
                spent.push_back(row[1].as<std::string>());
            }
        }
        // The unspent outputs first; the spent ones fill what is left of max_results.
        for (auto &id : spent)
        {
            if (static_cast<int>(ids.items.size()) == max_results)
            {
                break;
            }
            ids.items.push_back(std::move(id));
        }
        return ids;
    };
    return query;
}

Query<std::vector<ReceiptRow>> Receipts(std::optional<std::int64_t> migrated_at)
{
    static const auto statement =
        MakeStatement("receipts", ReceiptsSql("WHERE ($1::bigint IS NULL OR r.migrated_at = $1) "
                                              "ORDER BY r.migrated_at, r.milestone_index"));
    Query<std::vector<ReceiptRow>> query;
    query.statement = statement;
    query.params.AddInt(migrated_at);
    query.read = [](const Result &result)
    {
        std::vector<ReceiptRow> receipts;
        for (int i = 0; i < result.Rows(); i++)
        {
            receipts.push_back(ReceiptOf(Row(result, i)));
        }
        return receipts;
    };
    return query;
}

Query<std::optional<ReceiptRow>> LatestReceipt()
{
    static const auto statement =
        MakeStatement("latest_receipt", ReceiptsSql("ORDER BY r.milestone_index DESC LIMIT 1"));
    Query<std::optional<ReceiptRow>> query;
    query.statement = statement;
    query.read = [](const Result &result) { return FirstRow(result, ReceiptOf); };
    return query;
}

} // namespace queries

std::optional<EraMilestones> Client::GetEra(std::int16_t protocol_version)
{
    return Run(queries::EraOf(protocol_version));
}

ChrysalisBalance Client::GetChrysalisBalance(const std::string &address)
{
    return Run(queries::ChrysalisBalanceOf(address));
}

ChrysalisOutputIds Client::GetChrysalisAddressOutputs(const std::string &address,
                                                      std::optional<std::int16_t> output_type,
                                                      bool include_spent, int max_results)
{
    return Run(queries::ChrysalisAddressOutputs(address, output_type, include_spent, max_results));
}

std::vector<ReceiptRow> Client::GetReceipts(std::optional<std::int64_t> migrated_at)
{
    return Run(queries::Receipts(migrated_at));
}

std::optional<ReceiptRow> Client::GetLatestReceipt()
{
    return Run(queries::LatestReceipt());
}

} // namespace permanode::client
