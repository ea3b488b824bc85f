// Binary COPY over libpq: pqxx streams only the text format.
#include "bench_copy.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace permanode::bench
{
namespace
{

using Connection = std::unique_ptr<PGconn, decltype(&PQfinish)>;

Connection Connect(const std::string &dsn)
{
    Connection conn(PQconnectdb(dsn.c_str()), &PQfinish);
    if (PQstatus(conn.get()) != CONNECTION_OK)
        throw std::runtime_error("bench: cannot connect: " +
                                 std::string(PQerrorMessage(conn.get())));
    return conn;
}

// Runs `sql`, which must leave the connection in `expected`; throws with the server's message.
void Expect(PGconn *conn, PGresult *result, ExecStatusType expected)
{
    bool ok = PQresultStatus(result) == expected;
    std::string message = ok ? "" : PQresultErrorMessage(result);
    PQclear(result);
    if (!ok)
        throw std::runtime_error("bench: COPY failed: " + message + PQerrorMessage(conn));
}

} // namespace

std::string CopyOut(const std::string &dsn, const std::string &query)
{
    Connection conn = Connect(dsn);
    Expect(conn.get(),
           PQexec(conn.get(), ("COPY (" + query + ") TO STDOUT (FORMAT binary)").c_str()),
           PGRES_COPY_OUT);
    std::string data;
    char *buffer = nullptr;
    int length = 0;
    while ((length = PQgetCopyData(conn.get(), &buffer, 0)) > 0)
    {
        data.append(buffer, static_cast<std::size_t>(length));
        PQfreemem(buffer);
    }
    Expect(conn.get(), PQgetResult(conn.get()), PGRES_COMMAND_OK);
    return data;
}

void CopyIn(const std::string &dsn, const std::string &table, const std::string &data)
{
    Connection conn = Connect(dsn);
    Expect(conn.get(),
           PQexec(conn.get(), ("COPY " + table + " FROM STDIN (FORMAT binary)").c_str()),
           PGRES_COPY_IN);
    constexpr std::size_t kMessage = 1 << 20;
    for (std::size_t at = 0; at < data.size(); at += kMessage)
        PQputCopyData(conn.get(), data.data() + at,
                      static_cast<int>(std::min(kMessage, data.size() - at)));
    PQputCopyEnd(conn.get(), nullptr);
    Expect(conn.get(), PQgetResult(conn.get()), PGRES_COMMAND_OK);
}

bool CopyIsEmpty(const std::string &data)
{
    return data.size() <= 21; // 19-byte header + 2-byte trailer
}

} // namespace permanode::bench
