// The embedded default cluster.
#include "embedded_cluster.hpp"

#include "process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <pqxx/pqxx>

namespace fs = std::filesystem;

namespace permanode::cli
{

std::string PgBinary(const std::string &name)
{
    const char *bindir = std::getenv("PERMANODE_PG_BINDIR");
    return fs::path(bindir ? bindir : PERMANODE_PG_BINDIR) / name;
}

namespace
{

bool PortIsFree(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool free = bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    close(fd);
    return free;
}

// Settings appended to postgresql.conf once, at creation.
constexpr const char *kConfig = R"(
# --- permanode embedded cluster ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
shared_preload_libraries = 'permanode, permanode_fdw'
max_connections = 100
# queries and maintenance over many partitions lock each of them
max_locks_per_transaction = 256
work_mem = 32MB
maintenance_work_mem = 512MB
# an ingest writes ~4 kB of WAL per block; each checkpoint makes the next change of every index
# page a full-page image, so checkpoints a few GB apart cost a bulk ingest ~10% more
max_wal_size = 16GB
checkpoint_timeout = 15min
# full-page images of random btree pages fill the WAL of a bulk ingest; lz4 shrinks them cheaply
wal_compression = lz4
log_line_prefix = '%m [%p] %q%u@%d '
)";

// A quarter of the machine's memory, within [128MB, 8GB]: ingest keeps many btree indexes on
// random 32-byte keys, and once they outgrow shared buffers every insert pays for evictions.
std::string SharedBuffersSetting()
{
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    long long mb =
        pages > 0 && page_size > 0 ? static_cast<long long>(pages) * page_size / 4 >> 20 : 512;
    return fmt::format("shared_buffers = {}MB\n", std::clamp(mb, 128LL, 8192LL));
}

} // namespace

EmbeddedCluster::EmbeddedCluster(fs::path root)
    : root_(fs::absolute(std::move(root)).lexically_normal()), data_(root_ / "data")
{
}

fs::path EmbeddedCluster::DefaultRoot()
{
    if (const char *home = std::getenv("PERMANODE_HOME"); home && *home)
        return home;
    return fs::current_path() / ".permanode";
}

std::string EmbeddedCluster::RunAs() const
{
    return IsRoot() ? kServerUser : "";
}

int EmbeddedCluster::Port() const
{
    std::ifstream in(root_ / "port");
    int port = 0;
    if (!(in >> port))
        throw EnvironmentError(fmt::format(
            "no embedded cluster at {} (run `permanode cluster start`)", root_.string()));
    return port;
}

std::string EmbeddedCluster::Dsn(const std::string &database) const
{
    return fmt::format("host=127.0.0.1 port={} user=postgres dbname={}", Port(), database);
}

int EmbeddedCluster::ChoosePort() const
{
    std::ifstream in(root_ / "port");
    int previous = 0;
    if (in >> previous && PortIsFree(previous))
        return previous;
    for (int port = 54320; port < 54520; ++port)
        if (PortIsFree(port))
            return port;
    throw EnvironmentError("no free TCP port in 54320-54519 for the embedded cluster");
}

void EmbeddedCluster::InitDb()
{
    fs::create_directories(root_ / "log");
    if (IsRoot())
    {
        unsigned uid = 0, gid = 0;
        EnsureSystemUser(kServerUser, uid, gid);
        for (const fs::path &p : {root_, root_ / "log"})
            if (chown(p.c_str(), uid, gid) != 0)
                throw EnvironmentError("cannot chown " + p.string());
        if (RunProgram({"test", "-w", root_.string()}, kServerUser) != 0)
            throw EnvironmentError(fmt::format(
                "user {} cannot write {}: a parent directory is not searchable by other users; "
                "choose --dir under /tmp or another world-searchable place",
                kServerUser, root_.string()));
    }
    std::string log = (root_ / "log" / "initdb.log").string();
    int rc = RunProgram({PgBinary("initdb"), "-D", data_.string(), "-U", "postgres", "-A", "trust",
                         "-E", "UTF8", "--locale=C", "--no-instructions"},
                        RunAs(), log);
    if (rc != 0)
        throw EnvironmentError(fmt::format("initdb failed (exit {}); see {}", rc, log));
    std::ofstream conf(data_ / "postgresql.conf", std::ios::app);
    conf << kConfig << SharedBuffersSetting();
    if (!conf)
        throw EnvironmentError("cannot write " + (data_ / "postgresql.conf").string());
}

bool EmbeddedCluster::IsRunning() const
{
    if (!fs::exists(data_ / "PG_VERSION"))
        return false;
    return RunProgram({PgBinary("pg_ctl"), "status", "-D", data_.string()}, RunAs(), "/dev/null") ==
           0;
}

void EmbeddedCluster::Start(bool fast)
{
    if (!fs::exists(data_ / "PG_VERSION"))
        InitDb();
    if (!IsRunning())
    {
        int port = ChoosePort();
        {
            std::ofstream out(root_ / "port", std::ios::trunc);
            out << port << "\n";
        }
        // The modules the extensions need at start, also in clusters made by older versions
        // (permanode_fdw's WAL resource manager came in 0.4.0).
        std::string options =
            fmt::format("-p {} -c shared_preload_libraries=permanode,permanode_fdw", port);
        if (fast)
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
        // The server gets the soft open-files limit a packaged one gets from its service
        // manager, whatever this shell has, so that it meets what users' servers meet.
        int rc = WithSoftOpenFilesLimit(
            kServiceOpenFiles,
            [&]
            {
                return RunProgram({PgBinary("pg_ctl"), "start", "-w", "-t", "120", "-D",
                                   data_.string(), "-l", LogFile().string(), "-o", options},
                                  RunAs(), (root_ / "log" / "pg_ctl.log").string());
            });
        if (rc != 0)
            throw EnvironmentError(
                fmt::format("the server did not start (exit {}); see {}", rc, LogFile().string()));
    }
    EnsureDatabase();
}

void EmbeddedCluster::EnsureDatabase()
{
    {
        pqxx::connection admin(Dsn("postgres"));
        pqxx::nontransaction tx(admin);
        if (tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", kDatabase).empty())
            tx.exec0(fmt::format("CREATE DATABASE {}", tx.quote_name(kDatabase)));
    }
    pqxx::connection db(Dsn());
    pqxx::nontransaction tx(db);
    if (tx.exec("SELECT 1 FROM pg_extension WHERE extname = 'permanode'").empty())
    {
        // A new archive: the extensions, then the network (Shimmer unless `permanode init`
        // says otherwise) and the search path that makes our types' operators visible.
        tx.exec0("CREATE EXTENSION permanode CASCADE");
        tx.exec1("SELECT permanode.init('shimmer')");
    }
}

void EmbeddedCluster::Stop()
{
    if (!IsRunning())
        return;
    int rc = RunProgram(
        {PgBinary("pg_ctl"), "stop", "-w", "-t", "120", "-m", "fast", "-D", data_.string()},
        RunAs(), (root_ / "log" / "pg_ctl.log").string());
    if (rc != 0)
        throw EnvironmentError(fmt::format("pg_ctl stop failed (exit {})", rc));
}

void EmbeddedCluster::Destroy()
{
    if (IsRunning())
        throw std::runtime_error("the cluster is running; stop it first");
    fs::remove_all(root_);
}

void NoteUnusedPgEnvironment(const EmbeddedCluster &cluster)
{
    std::string set;
    for (const char *name : {"PGHOST", "PGPORT", "PGDATABASE"})
        if (std::getenv(name) != nullptr)
            set += (set.empty() ? "" : ", ") + std::string(name);
    if (!set.empty())
        fmt::print(stderr,
                   "permanode: no --dsn: using the embedded cluster in {} ({} not used; pass "
                   "--dsn to connect elsewhere)\n",
                   cluster.Root().string(), set);
}

} // namespace permanode::cli
