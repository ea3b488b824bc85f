// permanode client library: typed access to a permanode database over libpqxx.
//
// Every call runs prepared statements (prepared once per connection) in a read-only transaction;
// IDs are bound as text in their canonical form, so the database's types check them. Lists page
// by keyset cursors (permanode/cursor.hpp), newest first unless a call says otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "permanode/cursor.hpp"
#include "permanode/ledger_types.hpp"
#include "permanode/query.hpp"

namespace permanode::client
{

// A database error, with the SQLSTATE the server reported ("" when it did not report one;
// "08006" when the connection failed or broke).
class Error : public std::runtime_error
{
  public:
    Error(const std::string &message, std::string sqlstate)
        : std::runtime_error(message), sqlstate_(std::move(sqlstate))
    {
    }
    const std::string &sqlstate() const { return sqlstate_; }

  private:
    std::string sqlstate_;
};

// Versions of the two extensions as installed in the connected database.
struct BuildInfo
{
    std::string extension_version;
    std::string fdw_version;
    std::string rocksdb_version;
    int pg_major = 0;
};

// One connection to a permanode database. Not thread-safe: use one per thread. After an error
// with SQLSTATE class 08 (connection) discard the client: its session settings are gone.
// Each call runs the query of the same name in permanode/queries.hpp, in autocommit mode (one
// round trip per query).
class Client
{
  public:
    explicit Client(const std::string &dsn);
    ~Client();
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    BuildInfo GetBuildInfo();
    // Whether the connection is still usable (false after it broke).
    bool IsOpen() const;

    // --- blocks ---
    std::optional<BlockRow> GetBlock(const std::string &block_id);
    // The block that carries a transaction and was included in the ledger.
    std::optional<BlockRow> GetTransactionIncludedBlock(const std::string &transaction_id);
    // Children (blocks naming block_id as a parent), newest first.
    Page<std::string> GetBlockChildren(const std::string &block_id, int page_size,
                                       const std::optional<Cursor> &after);
    // Blocks with a tagged-data tag (0x-hex), newest first.
    Page<std::string> GetBlocksByTag(const std::string &tag, int page_size,
                                     const std::optional<Cursor> &after);
    // Blocks a milestone references, in white-flag order (the cursor's id is the white-flag
    // index of the last block).
    Page<std::string> GetMilestoneBlocks(std::int32_t milestone_index, int page_size,
                                         const std::optional<Cursor> &after);
    // The same with each block's payload kind, in white-flag order (kOldest) or its reverse.
    Page<MilestoneBlock> GetMilestoneBlocksWithKind(std::int32_t milestone_index, SortOrder sort,
                                                    int page_size,
                                                    const std::optional<Cursor> &after);

    // --- outputs ---
    std::optional<OutputRow> GetOutput(const std::string &output_id);
    // Outputs an address holds (address unlock condition), spent or not, newest first.
    Page<std::string> GetAddressOutputs(const std::string &address, int page_size,
                                        const std::optional<Cursor> &after);
    // Indexer query: the unspent set, or every output ever created with include_spent.
    OutputIdPage QueryOutputs(OutputKind kind, const OutputFilter &filter, bool include_spent,
                              int page_size, const std::optional<Cursor> &after);
    // The current (unspent) output of an alias, NFT (chain ID) or foundry.
    std::optional<std::string> GetChainOutput(OutputKind kind, const std::string &id,
                                              std::optional<std::int32_t> as_of = std::nullopt);

    // --- milestones ---
    std::optional<MilestoneRow> GetMilestoneByIndex(std::int32_t milestone_index);
    std::optional<MilestoneRow> GetMilestoneById(const std::string &milestone_id);
    // The milestones held, by index (the cursor's id is the last one's milestone ID).
    Page<MilestoneListItem> GetMilestones(const MilestoneFilter &filter, int page_size,
                                          const std::optional<Cursor> &after);
    // The newest milestones, newest first.
    std::vector<MilestoneRow> GetLatestMilestones(int count);
    // nullopt when the milestone was not ingested.
    std::optional<UtxoChanges> GetUtxoChanges(std::int32_t milestone_index);
    // The newest ingested milestone (0 when none).
    std::int32_t GetLedgerIndex();

    // --- following a node: each node `permanode sync` follows, judged (queries::SyncHealth) ---
    std::vector<SyncFollowRow> GetSyncHealth(int max_lag, int max_silence_seconds);

    // --- explorer and analytics ---
    Balance GetBalance(const std::string &address);
    // The balance and the outputs held at the end of a past milestone (its era's outputs).
    Balance GetBalanceAt(const std::string &address, std::int32_t milestone_index);
    Page<HeldOutput> GetOutputsAt(const std::string &address,
                                  std::optional<std::int32_t> milestone_index, int page_size,
                                  const std::optional<Cursor> &after = std::nullopt);
    Page<LedgerUpdate> GetLedgerUpdatesByAddress(const std::string &address, int page_size,
                                                 const std::optional<Cursor> &after);
    Page<LedgerUpdate> GetLedgerUpdatesByMilestone(std::int32_t milestone_index, int page_size,
                                                   const std::optional<Cursor> &after);
    // Now, or at the end of milestone `as_of` (its era's outputs).
    RichestAddresses GetRichestAddresses(std::optional<std::int32_t> as_of, int top);
    TokenDistribution GetTokenDistribution(std::optional<std::int32_t> as_of);
    std::optional<MilestoneAnalytics> GetMilestoneAnalytics(std::int32_t milestone_index);
    // Days from..to (YYYY-MM-DD, inclusive): rolled-up days, and days not rolled up yet
    // computed from metrics_cache.
    std::vector<DailyAnalytics> GetDailyAnalytics(const std::string &from_date,
                                                  const std::string &to_date);

    // --- Chrysalis (protocol 1); GetBlock, GetOutput, ... serve its rows too ---
    std::optional<EraMilestones> GetEra(std::int16_t protocol_version);
    Page<std::string> GetChrysalisMessagesByIndex(const std::string &index, int page_size,
                                                  const std::optional<Cursor> &after);
    ChrysalisBalance GetChrysalisBalance(const std::string &address);
    ChrysalisOutputIds GetChrysalisAddressOutputs(const std::string &address,
                                                  std::optional<std::int16_t> output_type,
                                                  bool include_spent, int max_results);
    std::vector<ReceiptRow> GetReceipts(std::optional<std::int64_t> migrated_at);
    std::optional<ReceiptRow> GetLatestReceipt();

    // Runs a query (permanode/queries.hpp) on this connection.
    template <typename T> T Run(const Query<T> &query)
    {
        auto result = Execute(*query.statement, query.params);
        return query.read(*result);
    }

    // The underlying connection, for calls the typed API does not cover.
    pqxx::connection &Connection() { return *connection_; }

  private:
    std::unique_ptr<Result> Execute(const Statement &statement, const Params &params);

    std::unique_ptr<pqxx::connection> connection_;
};

} // namespace permanode::client
