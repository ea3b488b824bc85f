// permanode client library: connection and typed calls.
#include "permanode/client.hpp"

#include <pqxx/pqxx>

namespace permanode::client
{
namespace
{

// Runs fn and converts libpqxx errors into client::Error, keeping the SQLSTATE.
template <typename Fn> auto Translate(Fn &&fn) -> decltype(fn())
{
    try
    {
        return fn();
    }
    catch (const pqxx::sql_error &e)
    {
        throw Error(e.what(), e.sqlstate());
    }
    catch (const pqxx::broken_connection &e)
    {
        throw Error(e.what(), "08006");
    }
    catch (const pqxx::failure &e)
    {
        throw Error(e.what(), "");
    }
}

} // namespace

Client::Client(const std::string &dsn)
{
    Translate([&] { connection_ = std::make_unique<pqxx::connection>(dsn); });
}

Client::~Client() = default;

BuildInfo Client::GetBuildInfo()
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*connection_);
            auto row = tx.exec1("SELECT b->>'version', f->>'version', f->>'rocksdb_library', "
                                "(b->>'pg_major')::int "
                                "FROM permanode.build_info() b, permanode.fdw_build_info() f");
            BuildInfo info;
            info.extension_version = row[0].as<std::string>();
            info.fdw_version = row[1].as<std::string>();
            info.rocksdb_version = row[2].as<std::string>();
            info.pg_major = row[3].as<int>();
            return info;
        });
}

} // namespace permanode::client
