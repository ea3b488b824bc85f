// The client library against a real cluster.
#include "permanode/client.hpp"

#include <pqxx/pqxx>

#include "test_env.hpp"

using permanode::client::Client;
using permanode::client::Error;
using permanode::test::TestDsn;

TEST(ClientTest, BuildInfoMatchesInstalledExtensions)
{
    Client client(TestDsn());
    auto info = client.GetBuildInfo();
    EXPECT_EQ(info.extension_version, PERMANODE_EXPECTED_VERSION);
    EXPECT_EQ(info.fdw_version, info.extension_version);
    EXPECT_EQ(info.pg_major, 15);
    EXPECT_EQ(info.rocksdb_version.rfind("7.", 0), 0u) << info.rocksdb_version;
}

TEST(ClientTest, ErrorsCarryTheSqlstate)
{
    Client client(TestDsn());
    try
    {
        pqxx::nontransaction tx(client.Connection());
        tx.exec("SELECT permanode.no_such_function()");
        FAIL() << "the call should have failed";
    }
    catch (const pqxx::sql_error &e)
    {
        EXPECT_EQ(e.sqlstate(), "42883");
    }
}

TEST(ClientTest, ConnectionFailureIsAnError)
{
    EXPECT_THROW(Client("host=127.0.0.1 port=1 connect_timeout=2"), Error);
}
