// permanode client library: typed access to a permanode database over libpqxx.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <pqxx/connection>

namespace permanode::client
{

// A database error, with the SQLSTATE the server reported ("" when it did not report one).
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

// One connection to a permanode database. Not thread-safe: use one per thread.
class Client
{
  public:
    explicit Client(const std::string &dsn);
    ~Client();
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    BuildInfo GetBuildInfo();

    // The underlying connection, for calls the typed API does not cover yet.
    pqxx::connection &Connection() { return *connection_; }

  private:
    std::unique_ptr<pqxx::connection> connection_;
};

} // namespace permanode::client
