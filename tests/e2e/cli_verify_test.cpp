// `permanode verify` end to end: generated Stardust and Chrysalis ledgers (whose milestones
// carry the real Merkle roots) verify clean; a stored row changed is reported with its table,
// range and key, hot and once archived, and the command exits 6; bad options exit 2.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "run_cli.hpp"
#include "test_database.hpp"
#include "test_env.hpp"

using permanode::test::RunCli;
using permanode::test::TestDsn;

namespace
{

class CliVerifyTest : public ::testing::Test
{
  protected:
    // A fresh database with `milestones` generated milestones of `protocol`, 20 per range.
    void Load(const std::string &protocol, int milestones)
    {
        database_ = permanode::test::FreshTestDatabase("verify_");
        dsn_ = TestDsn() + " dbname=" + database_;
        {
            pqxx::connection db(dsn_);
            pqxx::nontransaction tx(db);
            tx.exec0("SET client_min_messages = warning");
            tx.exec0("CREATE EXTENSION permanode CASCADE");
            tx.exec1(fmt::format("SELECT permanode.init('{}')",
                                 protocol == "chrysalis" ? "iota" : "shimmer"));
            tx.exec("SELECT permanode.set_chunk_size(table_name, 20) FROM permanode.ledger_tables");
        }
        auto result = RunCli(fmt::format("generate --protocol {} --milestones {} --tx-share 0.4 "
                                         "--seed 9 | '{}' ingest - --dsn '{}'",
                                         protocol, milestones, PERMANODE_CLI_PATH, dsn_));
        ASSERT_EQ(result.exit_code, 0) << result.output;
    }
    permanode::test::CliResult Verify(const std::string &args = "")
    {
        return RunCli("verify --dsn '" + dsn_ + "' " + args);
    }

    std::string database_, dsn_;
};

} // namespace

TEST_F(CliVerifyTest, GeneratedLedgersVerifyClean)
{
    for (const char *protocol : {"stardust", "chrysalis"})
    {
        SCOPED_TRACE(protocol);
        Load(protocol, 70);
        auto result = Verify();
        EXPECT_EQ(result.exit_code, 0) << result.output;
        EXPECT_NE(result.output.find("verified 4 ranges"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("every row is what its bytes say"), std::string::npos)
            << result.output;
    }
}

TEST_F(CliVerifyTest, ChangedRowsAreReportedHotAndArchived)
{
    Load("stardust", 70);
    pqxx::connection db(dsn_);
    pqxx::nontransaction tx(db);
    auto victim = tx.exec1("SELECT output_id::text, ms_range_id FROM permanode.basic_outputs "
                           "WHERE milestone_index BETWEEN 21 AND 39 ORDER BY output_id LIMIT 1");
    const std::string id = victim[0].c_str();
    const int range = victim[1].as<int>();
    tx.exec0("UPDATE permanode.basic_outputs SET data = data || '\\x00'::bytea "
             "WHERE output_id = " +
             tx.quote(id));
    auto tag = tx.exec1("SELECT message_id::text FROM permanode.tags WHERE milestone_index "
                        "BETWEEN 21 AND 39 ORDER BY message_id LIMIT 1")[0]
                   .as<std::string>();
    tx.exec0("DELETE FROM permanode.tags WHERE message_id = " + tx.quote(tag));
    const std::string output_line =
        fmt::format("basic_outputs range {} {}: stored bytes differ", range, id);
    const std::string tag_line =
        fmt::format("tags range {} {}: derived from the stored blocks", range, tag);

    auto hot = Verify();
    EXPECT_EQ(hot.exit_code, 6) << hot.output;
    EXPECT_NE(hot.output.find(output_line), std::string::npos) << hot.output;
    EXPECT_NE(hot.output.find(tag_line), std::string::npos) << hot.output;
    EXPECT_NE(hot.output.find("2 mismatches"), std::string::npos) << hot.output;

    // One range asked for: only its mismatches.
    auto other = Verify(fmt::format("--from-range {} --to-range {}", range + 1, range + 2));
    EXPECT_EQ(other.exit_code, 0) << other.output;

    tx.exec1(fmt::format("SELECT count(*) FROM permanode.archive({}, {})", range, range + 1));
    EXPECT_EQ(tx.exec1(fmt::format("SELECT tier FROM permanode.status WHERE table_name = "
                                   "'basic_outputs' AND from_range = {}",
                                   range))[0]
                  .as<std::string>(),
              "cold");
    auto cold = Verify();
    EXPECT_EQ(cold.exit_code, 6) << cold.output;
    EXPECT_NE(cold.output.find(output_line), std::string::npos) << cold.output;
    EXPECT_NE(cold.output.find(tag_line), std::string::npos) << cold.output;
}

TEST_F(CliVerifyTest, BadOptionsExitTwo)
{
    auto result = RunCli("verify --from-range -3");
    EXPECT_EQ(result.exit_code, 2) << result.output;
}
