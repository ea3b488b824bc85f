// Binary COPY over libpq: pqxx streams only the text format.
#include "bench_copy.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cstdint>
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

static void CopyInOn(PGconn *conn, const std::string &table, const std::string &data)
{
    Expect(conn, PQexec(conn, ("COPY " + table + " FROM STDIN (FORMAT binary)").c_str()),
           PGRES_COPY_IN);
    constexpr std::size_t kMessage = 1 << 20;
    for (std::size_t at = 0; at < data.size(); at += kMessage)
        PQputCopyData(conn, data.data() + at,
                      static_cast<int>(std::min(kMessage, data.size() - at)));
    PQputCopyEnd(conn, nullptr);
    Expect(conn, PQgetResult(conn), PGRES_COMMAND_OK);
}

void CopyIn(const std::string &dsn, const std::string &table, const std::string &data)
{
    Connection conn = Connect(dsn);
    CopyInOn(conn.get(), table, data);
}

CopySession::CopySession(const std::string &dsn) : conn_(Connect(dsn).release()) {}

CopySession::~CopySession()
{
    PQfinish(conn_);
}

void CopySession::Exec(const std::string &sql)
{
    Expect(conn_, PQexec(conn_, sql.c_str()), PGRES_COMMAND_OK);
}

void CopySession::CopyIn(const std::string &table, const std::string &data)
{
    CopyInOn(conn_, table, data);
}

std::vector<std::string> SplitCopy(const std::string &data, std::size_t parts)
{
    // Binary COPY: an 11-byte signature, a 32-bit flags field and a 32-bit extension length (and
    // the extension), then per row a 16-bit field count and per field a 32-bit length (-1: NULL)
    // and its bytes, then a 16-bit -1. Integers are big-endian.
    auto be32 = [&](std::size_t at)
    {
        const auto *p = reinterpret_cast<const unsigned char *>(data.data() + at);
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(p[0]) << 24 |
                                         static_cast<std::uint32_t>(p[1]) << 16 |
                                         static_cast<std::uint32_t>(p[2]) << 8 | p[3]);
    };
    auto be16 = [&](std::size_t at)
    {
        const auto *p = reinterpret_cast<const unsigned char *>(data.data() + at);
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0]) << 8 | p[1]);
    };
    std::size_t header = 11 + 4 + 4 + static_cast<std::size_t>(be32(15));
    std::vector<std::size_t> starts; // of each row
    std::size_t at = header;
    while (at + 2 <= data.size() && be16(at) != -1)
    {
        starts.push_back(at);
        int fields = be16(at);
        at += 2;
        for (int f = 0; f < fields; f++)
        {
            std::int32_t length = be32(at);
            at += 4 + (length > 0 ? static_cast<std::size_t>(length) : 0);
        }
    }
    starts.push_back(at); // the trailer
    std::size_t rows = starts.size() - 1;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < parts; i++)
    {
        std::size_t from = rows * i / parts, to = rows * (i + 1) / parts;
        std::string part = data.substr(0, header);
        part.append(data, starts[from], starts[to] - starts[from]);
        part.append("\xff\xff", 2);
        out.push_back(std::move(part));
    }
    return out;
}

bool CopyIsEmpty(const std::string &data)
{
    return data.size() <= 21; // 19-byte header + 2-byte trailer
}

} // namespace permanode::bench
