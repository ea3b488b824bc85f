// Archiving onto a full filesystem (#21): a 1 MiB tmpfs as permanode_fdw.archive_root. The
// archive fails with SQLSTATE 53100 naming the problem, leaves no file behind, and the range
// stays hot and readable; once there is space, the same call archives it. Mounting needs root,
// which tests/run has in CI; elsewhere the test says why it cannot run.
#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "test_env.hpp"

namespace fs = std::filesystem;

namespace
{

constexpr const char *kDatabase = "fdw_disk_full";

class DiskFullTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        if (geteuid() != 0)
            GTEST_SKIP() << "mounting a tmpfs needs root (tests/run runs as root in CI)";
        root_ = fs::temp_directory_path() / fmt::format("permanode-disk-full-{}", getpid());
        fs::create_directories(root_);
        ASSERT_EQ(mount("tmpfs", root_.c_str(), "tmpfs", 0, "size=1m,mode=0777"), 0)
            << "mount: " << strerror(errno);
        mounted_ = true;
        pqxx::connection admin(permanode::test::TestDsn());
        pqxx::nontransaction tx(admin);
        tx.exec0(fmt::format("DROP DATABASE IF EXISTS {}", kDatabase));
        tx.exec0(fmt::format("CREATE DATABASE {}", kDatabase));
    }

    void TearDown() override
    {
        if (mounted_)
            umount2(root_.c_str(), MNT_DETACH);
        std::error_code ignored;
        fs::remove_all(root_, ignored);
        if (geteuid() == 0)
        {
            pqxx::connection admin(permanode::test::TestDsn());
            pqxx::nontransaction tx(admin);
            tx.exec0(fmt::format("DROP DATABASE IF EXISTS {} WITH (FORCE)", kDatabase));
        }
    }

    std::string Dsn() const { return permanode::test::TestDsn() + " dbname=" + kDatabase; }

    // Files and directories inside the archive root's per-database directory (root/<oid>/...).
    int ArchiveEntries() const
    {
        int entries = 0;
        for (auto it = fs::recursive_directory_iterator(root_);
             it != fs::recursive_directory_iterator(); ++it)
            entries += it.depth() >= 1;
        return entries;
    }

    fs::path root_;
    bool mounted_ = false;
};

TEST_F(DiskFullTest, ArchiveOntoAFullDiskFailsCleanlyAndSucceedsOnceThereIsSpace)
{
    pqxx::connection conn(Dsn());
    pqxx::nontransaction tx(conn);
    tx.exec0("SET client_min_messages = warning");
    tx.exec0("CREATE EXTENSION permanode_fdw");
    tx.exec0("CREATE TABLE t (id int NOT NULL, r int NOT NULL, v text) PARTITION BY RANGE (r)");
    tx.exec0("CREATE TABLE t_0 PARTITION OF t FOR VALUES FROM (0) TO (1)");
    tx.exec0("CREATE TABLE t_1 PARTITION OF t FOR VALUES FROM (1) TO (2)");
    tx.exec0("ALTER TABLE t_0 ADD PRIMARY KEY (id, r)");
    tx.exec0("ALTER TABLE t_1 ADD PRIMARY KEY (id, r)");
    // About 7 MB of rows: more than the 1 MiB tmpfs holds, compressed or not.
    tx.exec0("INSERT INTO t SELECT g, 0, md5(g::text) || md5((g * 7)::text) "
             "FROM generate_series(1, 100000) g");
    tx.exec0("INSERT INTO t SELECT g, 1, 'x' FROM generate_series(1, 10) g");
    tx.exec0(fmt::format("SET permanode_fdw.archive_root = {}", tx.quote(root_.string())));

    try
    {
        tx.exec("SELECT permanode.archive_partitions('t', 0, 1)");
        FAIL() << "archiving onto a full disk succeeded";
    }
    catch (const pqxx::sql_error &e)
    {
        EXPECT_EQ(e.sqlstate(), "53100") << e.what();
        EXPECT_NE(std::string(e.what()).find("no space left to write the archive of table \"t\""),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(ArchiveEntries(), 0); // not even an empty directory of the failed archive
    // Still hot, every row there.
    EXPECT_EQ(tx.exec1("SELECT relkind FROM pg_class WHERE relname = 't_0'")[0].as<std::string>(),
              "r");
    EXPECT_EQ(tx.exec1("SELECT count(*) FROM t WHERE r = 0")[0].as<int>(), 100000);
    EXPECT_EQ(tx.exec1("SELECT count(*) FROM permanode.archive_status")[0].as<int>(), 0);

    // Space again: the same call archives the range, and its rows read back from the archive.
    ASSERT_EQ(mount("tmpfs", root_.c_str(), "tmpfs", MS_REMOUNT, "size=64m,mode=0777"), 0)
        << "remount: " << strerror(errno);
    auto archived = tx.exec1("SELECT permanode.archive_partitions('t', 0, 1)::text");
    EXPECT_EQ(archived[0].as<std::string>(), "t_archive_0_1");
    EXPECT_EQ(
        tx.exec1("SELECT count(*) FROM t WHERE r = 0 AND tableoid = 't_archive_0_1'::regclass")[0]
            .as<int>(),
        100000);
    EXPECT_GT(ArchiveEntries(), 0);
    // Restored before the tmpfs goes away with the test.
    tx.exec("SELECT permanode.restore_partitions('t_archive_0_1')");
}

} // namespace
