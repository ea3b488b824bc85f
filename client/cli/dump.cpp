// Logical backups: pg_dump and pg_restore, plus the archives the dump's foreign tables name.
#include "dump.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pqxx/pqxx>

#include "embedded_cluster.hpp"
#include "process.hpp"

namespace fs = std::filesystem;

namespace permanode::cli
{

namespace
{

std::string ArchivesDirOf(const std::string &dump_dir, const std::string &archives_dir)
{
    return fs::absolute(archives_dir.empty() ? fs::path(dump_dir) / "permanode_archives"
                                             : fs::path(archives_dir))
        .string();
}

// Runs a PostgreSQL program; its output goes to log, shown when it fails.
void Run(const std::vector<std::string> &argv, const std::string &log)
{
    int rc = RunProgram(argv, {}, log);
    if (rc == 0)
        return;
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    throw EnvironmentError(fmt::format("{} failed (exit {}):\n{}",
                                       fs::path(argv[0]).filename().string(), rc, text.str()));
}

// The TOC of dump_dir without the indexes that already exist in the database: the partitions'
// indexes of the extension's partitioned indexes, which attaching a partition makes.
std::string FilteredList(pqxx::connection &conn, const std::string &dump_dir,
                         const std::string &work)
{
    std::string list = work + "/toc.list";
    Run({PgBinary("pg_restore"), "-l", "-f", list, dump_dir}, work + "/toc.log");
    std::set<std::string> existing;
    pqxx::read_transaction tx(conn);
    for (auto row : tx.exec("SELECT n.nspname || ' ' || c.relname FROM pg_class c "
                            "JOIN pg_namespace n ON n.oid = c.relnamespace "
                            "WHERE c.relkind IN ('i', 'I')"))
        existing.insert(row[0].c_str());
    std::ifstream in(list);
    std::string filtered = work + "/toc.filtered";
    std::ofstream out(filtered);
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream fields(line);
        std::vector<std::string> f;
        for (std::string w; fields >> w;)
            f.push_back(w);
        // "ID; CLASS OID INDEX SCHEMA NAME OWNER" and "ID; 0 0 INDEX ATTACH SCHEMA NAME OWNER"
        size_t at = f.size() > 4 && f[3] == "INDEX" ? (f[4] == "ATTACH" ? 5 : 4) : 0;
        bool made = at > 0 && f.size() > at + 1 && existing.count(f[at] + " " + f[at + 1]) > 0;
        out << (made ? ";" : "") << line << "\n";
    }
    return filtered;
}

} // namespace

void DumpDatabase(const std::string &dsn, const std::string &dump_dir, std::string archives_dir)
{
    archives_dir = ArchivesDirOf(dump_dir, archives_dir);
    std::string log =
        (fs::temp_directory_path() / fmt::format("permanode-dump-{}.log", getpid())).string();
    Run({PgBinary("pg_dump"), "-Fd", "-f", dump_dir, "-d", dsn}, log);
    fs::remove(log);
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    auto r = tx.exec_params1(
        "SELECT count(*), coalesce(sum(bytes), 0) FROM permanode.export_archives($1)",
        archives_dir);
    tx.commit();
    fmt::print("dumped into {}; {} archives ({} bytes) into {}\n", dump_dir, r[0].as<long>(),
               r[1].as<long>(), archives_dir);
}

void RestoreDump(const std::string &dsn, const std::string &dump_dir, std::string archives_dir)
{
    archives_dir = ArchivesDirOf(dump_dir, archives_dir);
    std::string work =
        (fs::temp_directory_path() / fmt::format("permanode-restore-{}", getpid())).string();
    fs::create_directories(work);
    Run({PgBinary("pg_restore"), "--section=pre-data", "--exit-on-error", "-d", dsn, dump_dir},
        work + "/pre-data.log");
    pqxx::connection conn(dsn);
    {
        pqxx::work tx(conn);
        tx.exec("SELECT permanode.prepare_restore()");
        tx.commit();
    }
    std::string list = FilteredList(conn, dump_dir, work);
    Run({PgBinary("pg_restore"), "--section=data", "--section=post-data", "--exit-on-error", "-L",
         list, "-d", dsn, dump_dir},
        work + "/data.log");
    pqxx::work tx(conn);
    auto r = tx.exec_params1("SELECT count(*), coalesce(sum(rows), 0) "
                             "FROM permanode.import_archives($1)",
                             archives_dir);
    tx.commit();
    fs::remove_all(work);
    fmt::print("restored {}; {} archives ({} rows) checked and in place\n", dump_dir,
               r[0].as<long>(), r[1].as<long>());
}

} // namespace permanode::cli
