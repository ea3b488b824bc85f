// Issue 23's figures: the legacy era on its own tables.
//
// A generated legacy ledger of >= 1M transactions (PERMANODE_BENCH_SCALE scales it) in twelve
// pieces, one a month of 2019 (each piece its own seed, snapshot and Coordinator, generated two
// at a time), imported with `permanode import-dmp`, every lookup kept. Against:
//   - import: the same rows COPYed into unpartitioned tables with the same indexes (every table
//     import writes: the five seed 003 tables, locator, hints, tag hints, bundle state), plus
//     hashing every transaction with the bitsliced Curl-P-81 on one core, as import must;
//   - lookups: unpartitioned copies with one index in each lookup's order: a first page (100) of
//     an address's value moves newest first (legacy.edges), a bundle's transactions in index
//     order (legacy.bundles), a transaction by hash (legacy.transactions, through the locator).
// The .dmp pieces are kept in PERMANODE_BENCH_CACHE (default /tmp/permanode-legacy-bench) and
// reused; PERMANODE_BENCH_REUSE=1 also reuses the imported database.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "bench_common.hpp"
#include "bench_copy.hpp"
#include "bench_query.hpp"
#include "codec/legacy/curl.hpp"
#include "codec/legacy/trinary.hpp"

using namespace permanode::bench;
namespace fs = std::filesystem;
namespace legacy = permanode::codec::legacy;

namespace
{

constexpr int kPieces = 12;
constexpr std::int64_t kFirstPiece = 1546300800; // 2019-01-01T00:00:00Z
constexpr std::int64_t kPieceStep = 31 * 86400;  // one piece a month
// The tables import writes and the indexes each has (besides the partitions' unique keys).
struct Table
{
    const char *name;
    const char *unique_key;
    std::vector<const char *> indexes;
};
const std::vector<Table> kTables = {
    {"transactions", "hash, month_id", {}},
    {"bundles", "bundle_hash, month_id, current_index, transaction_hash", {}},
    {"edges",
     "transaction_hash, month_id, edge",
     {"(address, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE address IS NOT NULL",
      "(approvee, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE approvee IS NOT "
      "NULL"}},
    {"tags",
     "transaction_hash, month_id",
     {"(tag, month_id DESC, issued_at DESC, transaction_hash DESC)",
      "(iac4, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac4 IS NOT NULL",
      "(iac6, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac6 IS NOT NULL",
      "(iac8, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac8 IS NOT NULL"}},
    {"zero_value",
     "transaction_hash, month_id",
     {"(address, month_id DESC, issued_at DESC, transaction_hash DESC)"}},
    {"transaction_locator", "hash", {}},
    {"hints", "key, kind, month_id", {}},
    {"tag_hints", "tag, month_id", {}},
    {"bundle_state", "bundle_hash, last_index", {"(bundle_hash) WHERE NOT complete"}},
};

struct Piece
{
    fs::path dmp, snapshot;
    std::string coordinator;
};

std::string Run(const std::string &command)
{
    if (std::system(command.c_str()) != 0)
        throw std::runtime_error("failed: " + command);
    return command;
}

std::string ReadFile(const fs::path &path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Generates the pieces not in the cache yet, two at a time.
std::vector<Piece> Pieces(int milestones_per_piece)
{
    const char *env = std::getenv("PERMANODE_BENCH_CACHE");
    fs::path cache = env && *env ? env : "/tmp/permanode-legacy-bench";
    fs::create_directories(cache);
    std::vector<Piece> pieces;
    std::vector<std::string> missing;
    for (int k = 0; k < kPieces; k++)
    {
        std::string stem = fmt::format("piece-{}-{}", k, milestones_per_piece);
        Piece p{cache / (stem + ".dmp"), cache / (stem + ".snapshot"), {}};
        fs::path coordinator = cache / (stem + ".coordinator");
        if (!fs::exists(coordinator))
            missing.push_back(fmt::format(
                "('{0}' generate --protocol legacy --seed {1} --milestones {2} --start-index {3} "
                "--start-timestamp {4} -o '{5}.partial' --snapshot '{6}' 2> '{7}.log' && "
                "mv '{5}.partial' '{5}' && grep -o '[A-Z9]\\{{81\\}}' '{7}.log' > '{7}')",
                PERMANODE_CLI_PATH, 100 + k, milestones_per_piece, 1 + k * milestones_per_piece,
                kFirstPiece + k * kPieceStep, p.dmp.string(), p.snapshot.string(),
                coordinator.string()));
        pieces.push_back(p);
    }
    for (std::size_t i = 0; i < missing.size(); i += 2)
    {
        std::string both =
            missing[i] + " & " + (i + 1 < missing.size() ? missing[i + 1] : "true") + " & wait";
        fmt::print(stderr, "legacy_ledger_bench: generating pieces ({} left)\n",
                   missing.size() - i);
        Run("bash -c \"" + both + "\"");
    }
    for (int k = 0; k < kPieces; k++)
    {
        std::string text =
            ReadFile(cache / fmt::format("piece-{}-{}.coordinator", k, milestones_per_piece));
        pieces[k].coordinator = text.substr(0, legacy::kHashTrytes);
        if (pieces[k].coordinator.size() != legacy::kHashTrytes)
            throw std::runtime_error("no Coordinator for piece " + std::to_string(k));
    }
    return pieces;
}

// Seconds to hash every transaction of the pieces with the bitsliced Curl-P-81 on this core
// (their trits decoded before the clock starts); returns the number of transactions too.
double HashSeconds(const std::vector<Piece> &pieces, std::size_t *count)
{
    double seconds = 0;
    *count = 0;
    for (const Piece &p : pieces)
    {
        std::ifstream in(p.dmp);
        std::vector<legacy::Trits> trits;
        for (std::string line; std::getline(in, line);)
            trits.push_back(legacy::TrytesToTrits(std::string_view(line).substr(
                legacy::kHashTrytes + 1, legacy::kTransactionTrytes)));
        std::vector<const legacy::Trit *> inputs;
        for (const auto &t : trits)
            inputs.push_back(t.data());
        auto start = std::chrono::steady_clock::now();
        auto hashes = legacy::CurlHashMany(inputs, legacy::kTransactionTrits);
        seconds += SecondsSince(start);
        *count += hashes.size();
    }
    return seconds;
}

} // namespace

int main()
{
    std::string dsn = BenchDsn();
    double scale = BenchScale();
    // ~39 transactions a milestone: 2,300 milestones a piece make ~90k, twelve ~1.08M.
    int per_piece = std::max(50, static_cast<int>(2300 * scale));
    std::vector<Piece> pieces = Pieces(per_piece);
    std::string db = dsn + " dbname=bench_legacy_ledger";

    double import_seconds = 0;
    if (!std::getenv("PERMANODE_BENCH_REUSE"))
    {
        {
            pqxx::connection admin(dsn);
            pqxx::nontransaction tx(admin);
            tx.exec0("DROP DATABASE IF EXISTS bench_legacy_ledger");
            tx.exec0("CREATE DATABASE bench_legacy_ledger");
        }
        {
            pqxx::connection conn(db);
            pqxx::nontransaction tx(conn);
            tx.exec0("CREATE EXTENSION permanode CASCADE");
            tx.exec("SELECT permanode.init('iota')");
        }
        auto start = std::chrono::steady_clock::now();
        for (const Piece &p : pieces)
            Run(fmt::format("'{}' import-dmp --dsn '{}' '{}' --snapshot '{}' --coordinator {} "
                            "2>/dev/null",
                            PERMANODE_CLI_PATH, db, p.dmp.string(), p.snapshot.string(),
                            p.coordinator));
        import_seconds = SecondsSince(start);
    }
    pqxx::connection conn(db);
    std::size_t transactions = 0;
    double hash_seconds = HashSeconds(pieces, &transactions);
    {
        pqxx::nontransaction tx(conn);
        std::size_t stored =
            tx.exec1("SELECT count(*) FROM legacy.transactions")[0].as<std::size_t>();
        if (stored != transactions)
            throw std::runtime_error(
                fmt::format("{} transactions stored, {} in the files", stored, transactions));
    }

    // The same rows into unpartitioned tables with the same indexes, by COPY.
    std::vector<std::pair<std::string, std::string>> data;
    for (const Table &t : kTables)
        data.emplace_back(t.name, CopyOut(db, fmt::format("SELECT * FROM legacy.{}", t.name)));
    CopySession session(db);
    session.Exec("SET maintenance_work_mem = '1GB'");
    for (const Table &t : kTables)
    {
        session.Exec(fmt::format("DROP TABLE IF EXISTS flat_{0}; CREATE TABLE flat_{0} (LIKE "
                                 "legacy.{0} INCLUDING DEFAULTS); CREATE UNIQUE INDEX ON flat_{0} "
                                 "({1})",
                                 t.name, t.unique_key));
        for (const char *index : t.indexes)
            session.Exec(fmt::format("CREATE INDEX ON flat_{} {}", t.name, index));
    }
    auto start = std::chrono::steady_clock::now();
    for (const auto &[name, rows] : data)
        session.CopyIn("flat_" + name, rows);
    double copy_seconds = SecondsSince(start);
    session.Exec("VACUUM ANALYZE");
    data.clear();

    if (import_seconds > 0)
    {
        double rate = transactions / import_seconds;
        double floor = transactions / (copy_seconds + hash_seconds);
        PrintBaseline("legacy: indexed COPY of the rows import-dmp writes + Curl-P-81, tx/s",
                      floor);
        PrintRatio(
            fmt::format("legacy: import-dmp of {} generated transactions, tx/s", transactions),
            rate, floor, ">=0.5");
    }

    // Lookups: keys sampled from the flat copies.
    std::vector<std::string> addresses = SampleKeys(
        conn, "SELECT address::text FROM flat_edges TABLESAMPLE SYSTEM (5) WHERE address IS NOT "
              "NULL LIMIT 300");
    std::vector<std::string> bundles = SampleKeys(
        conn, "SELECT bundle_hash::text FROM flat_bundles TABLESAMPLE SYSTEM (5) LIMIT 300");
    std::vector<std::string> hashes = SampleKeys(
        conn, "SELECT hash::text FROM flat_transactions TABLESAMPLE SYSTEM (5) LIMIT 300");
    // Each lookup on the unpartitioned copy (flat_TABLE) and on the legacy table; returns ours.
    auto compare = [&](const std::string &what, const std::string &ours, const std::string &sql,
                       const std::vector<std::string> &keys, const std::string &target)
    {
        std::string flat_sql = sql, ours_sql = sql;
        flat_sql.replace(sql.find("TABLE"), 5, "flat_" + ours);
        ours_sql.replace(sql.find("TABLE"), 5, "legacy." + ours);
        double flat = TimePrepared(conn, flat_sql, keys);
        double mine = TimePrepared(conn, ours_sql, keys);
        PrintBaseline("legacy: " + what + ", unpartitioned, us", flat);
        PrintRatio("legacy: " + what + ", " + ours + " by month, us", mine, flat, target);
        return mine;
    };
    compare("an address's value moves, first page (100)", "edges",
            "SELECT transaction_hash, value, issued_at FROM TABLE WHERE address = "
            "$1::permanode.trytes81 ORDER BY month_id DESC, issued_at DESC, transaction_hash DESC "
            "LIMIT 100",
            addresses, "<=2");
    compare("a bundle's transactions", "bundles",
            "SELECT transaction_hash, value, address FROM TABLE WHERE bundle_hash = "
            "$1::permanode.trytes81 ORDER BY month_id, current_index, transaction_hash",
            bundles, "<=2");
    const std::string point =
        "SELECT t5b1, milestone_index FROM legacy.transactions WHERE hash = $1::permanode.trytes81";
    double point_ours =
        compare("a transaction by hash (12 months)", "transactions",
                "SELECT t5b1, milestone_index FROM TABLE WHERE hash = $1::permanode.trytes81",
                hashes, "report");
    // The same lookups with ten times the months: 108 more (empty) months of every table.
    {
        pqxx::nontransaction tx(conn);
        tx.exec("SELECT count(legacy.create_partition(t.table_name, m)) FROM legacy.tables t, "
                "generate_series(legacy.month_id(2010, 1), legacy.month_id(2018, 12)) m");
    }
    double point_120 = TimePrepared(conn, point, hashes);
    PrintRatio("legacy: a transaction by hash, 120 months against 12, us", point_120, point_ours,
               "<=1.2");
    return 0;
}
