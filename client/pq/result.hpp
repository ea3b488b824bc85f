// A statement's result rows as libpq returned them (owned, freed with the Result); read through
// client::Result, so the HTTP server's handlers read them as they read libpqxx's.
#pragma once

#include "permanode/query.hpp"

#include <string_view>

struct pg_result;

namespace permanode::pq
{

class Result : public client::Result
{
  public:
    explicit Result(pg_result *result) : result_(result) {}
    ~Result() override;
    Result(const Result &) = delete;
    Result &operator=(const Result &) = delete;

    int Rows() const override;
    bool IsNull(int row, int column) const override;
    // The value as sent: text, or the binary form when the statement asked for binary results.
    std::string_view Text(int row, int column) const override;

  private:
    // client::Error (XX000) for a row or column the result does not have.
    void Check(int row, int column) const;

    pg_result *result_;
};

} // namespace permanode::pq
