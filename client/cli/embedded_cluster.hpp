// The embedded default: a PostgreSQL cluster that the CLI creates and runs under a directory
// of the user's (by default .permanode/ in the working directory), with the extensions in it.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace permanode::cli
{

// The embedded cluster is missing or cannot be made, started or stopped (exit code 5).
class EnvironmentError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// The path of a PostgreSQL program (initdb, pg_dump, ...): $PERMANODE_PG_BINDIR, else the
// bindir of the PostgreSQL the CLI was built for.
std::string PgBinary(const std::string &name);

class EmbeddedCluster
{
  public:
    // The OS user the server runs as when the CLI runs as root (initdb refuses root).
    static constexpr const char *kServerUser = "permanode";
    static constexpr const char *kDatabase = "permanode";

    explicit EmbeddedCluster(std::filesystem::path root);

    // The directory from --dir, else $PERMANODE_HOME, else ./.permanode.
    static std::filesystem::path DefaultRoot();

    // Creates the cluster if needed, starts it, and creates the database with the extensions.
    // fast turns off fsync: for throwaway test clusters only.
    void Start(bool fast);
    void Stop();
    bool IsRunning() const;
    // Removes the cluster's files; the cluster must be stopped.
    void Destroy();

    int Port() const;
    std::string Dsn(const std::string &database = kDatabase) const;
    const std::filesystem::path &Root() const { return root_; }
    std::filesystem::path LogFile() const { return root_ / "log" / "postgresql.log"; }

  private:
    void InitDb();
    void EnsureDatabase();
    std::string RunAs() const;
    int ChoosePort() const;

    std::filesystem::path root_;
    std::filesystem::path data_;
};

// A command without --dsn uses the embedded cluster, not the server libpq's environment
// (PGHOST, PGPORT, PGDATABASE) names: when any of them is set, says so on stderr.
void NoteUnusedPgEnvironment(const EmbeddedCluster &cluster);

} // namespace permanode::cli
