// Binary COPY between databases for the benchmarks: rows out into memory, and back in.
#pragma once

#include <string>
#include <vector>

struct pg_conn; // libpq's PGconn

namespace permanode::bench
{

// The rows of `query` in COPY's binary format.
std::string CopyOut(const std::string &dsn, const std::string &query);

// Loads rows in COPY's binary format into `table` (an already quoted name). Throws on error.
void CopyIn(const std::string &dsn, const std::string &table, const std::string &data);

// True when binary COPY data holds no row (header and trailer only).
bool CopyIsEmpty(const std::string &data);

// Splits binary COPY data into `parts` payloads of consecutive rows (as even as the row count
// allows), each a whole COPY payload with header and trailer.
std::vector<std::string> SplitCopy(const std::string &data, std::size_t parts);

// One connection for many statements and COPYs.
class CopySession
{
  public:
    explicit CopySession(const std::string &dsn);
    ~CopySession();
    CopySession(const CopySession &) = delete;
    CopySession &operator=(const CopySession &) = delete;
    void Exec(const std::string &sql);
    // Like CopyIn, on this connection.
    void CopyIn(const std::string &table, const std::string &data);

  private:
    ::pg_conn *conn_;
};

} // namespace permanode::bench
