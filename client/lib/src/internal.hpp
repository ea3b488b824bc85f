// Shared by the client library's sources: error translation, parameter lists, row helpers.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "permanode/client.hpp"

namespace permanode::client::internal
{

// The SQLSTATE of an error: libpqxx 6.4 leaves it empty for some of its exception classes
// (insufficient_privilege, for one), whose class then tells the code.
std::string SqlstateOf(const pqxx::sql_error &e);

// Runs fn and converts libpqxx errors into client::Error, keeping the SQLSTATE.
template <typename Fn> auto Translate(Fn &&fn) -> decltype(fn())
{
    try
    {
        return fn();
    }
    catch (const pqxx::sql_error &e)
    {
        throw Error(e.what(), SqlstateOf(e));
    }
    catch (const pqxx::deadlock_detected &e)
    {
        throw Error(e.what(), "40P01");
    }
    catch (const pqxx::transaction_rollback &e)
    {
        throw Error(e.what(), "40001"); // libpqxx 6.4 keeps no code for class 40
    }
    catch (const pqxx::broken_connection &e)
    {
        throw Error(e.what(), "08006");
    }
    catch (const pqxx::in_doubt_error &e)
    {
        throw Error(e.what(), "08007");
    }
    catch (const pqxx::failure &e)
    {
        throw Error(e.what(), "");
    }
}

// Statement parameters in text form; unset optionals are NULL.
class Params
{
  public:
    void Add(std::string value)
    {
        values_.push_back(std::move(value));
        pointers_.push_back(values_.back().c_str());
    }
    void AddNull() { pointers_.push_back(nullptr); }
    void Add(const std::optional<std::string> &value) { value ? Add(*value) : AddNull(); }
    template <typename Int> void AddInt(const std::optional<Int> &value)
    {
        value ? Add(std::to_string(*value)) : AddNull();
    }
    void Add(const std::optional<bool> &value)
    {
        value ? Add(std::string(*value ? "true" : "false")) : AddNull();
    }
    // The four fields of a keyset cursor, or four NULLs.
    void Add(const std::optional<Cursor> &cursor)
    {
        if (cursor)
        {
            Add(std::to_string(cursor->ms_range_id));
            Add(std::to_string(cursor->ms_timestamp_us));
            Add(std::to_string(cursor->milestone_index));
            Add(cursor->id);
        }
        else
        {
            for (int i = 0; i < 4; i++)
            {
                AddNull();
            }
        }
    }
    const std::vector<const char *> &Pointers() const { return pointers_; }

  private:
    std::deque<std::string> values_; // stable addresses for pointers_
    std::vector<const char *> pointers_;
};

// How a statement is planned. The session runs with plan_cache_mode = auto.
//   kCustom:  planned for each call's values (the default). Needed wherever the partition
//             hints must see the key as a constant or `($n IS NULL OR ...)` filters must fold
//             away: a generic plan of those scans far more than it returns. Exec sends these as
//             unnamed statements, which PostgreSQL always plans for the values at hand.
//   kGeneric: a named prepared statement that PostgreSQL may plan once; only for point lookups
//             whose generic plan still keys the Permanode Range Scan on the parameter (check
//             with EXPLAIN under plan_cache_mode = force_generic_plan).
enum class Plan
{
    kCustom,
    kGeneric,
};

// Prepares a statement on the connection (so its SQL is checked at connect time) and records
// how Exec runs it.
void Prepare(pqxx::connection &connection, const std::string &name, const std::string &sql,
             Plan plan = Plan::kCustom);

// Runs a statement from Prepare in autocommit mode (one round trip).
pqxx::result Exec(pqxx::connection &connection, const std::string &statement, const Params &params);

// Runs SQL built for this call as an unnamed statement (always a custom plan), in autocommit
// mode (one round trip).
pqxx::result ExecSql(pqxx::connection &connection, const std::string &sql, const Params &params);

// Runs SQL that is the same for every call with this name as a named prepared statement,
// preparing it on the connection's first use (plan_cache_mode auto may then settle on a generic
// plan), in autocommit mode.
pqxx::result ExecNamed(pqxx::connection &connection, const std::string &name,
                       const std::string &sql, const Params &params);

// Field helpers.
std::string Bytes(const pqxx::field &field); // bytea
template <typename T> std::optional<T> Optional(const pqxx::field &field)
{
    if (field.is_null())
    {
        return std::nullopt;
    }
    return field.as<T>();
}

// The keyset part of a newest-first list, with parameters $n..$n+3 the cursor fields, against
// the row's ms_range_id, ms_timestamp, milestone_index and id columns (id_cast: the ID's type).
std::string KeysetCondition(int n, const std::string &range, const std::string &timestamp,
                            const std::string &milestone_index, const std::string &id,
                            const std::string &id_cast);
// Reads the cursor of a row whose first columns are ms_range_id, ms_timestamp (µs),
// milestone_index, starting at column `first`, and id at column `id_column`.
Cursor CursorOf(const pqxx::row &row, int first, int id_column);

// Reads up to page_size rows into a page, using one extra row to tell whether more follow.
template <typename T, typename RowFn, typename CursorFn>
Page<T> MakePage(const pqxx::result &result, int page_size, RowFn row_fn, CursorFn cursor_fn)
{
    Page<T> page;
    for (const auto &row : result)
    {
        if (static_cast<int>(page.items.size()) == page_size)
        {
            page.next = cursor_fn(result[page_size - 1]);
            break;
        }
        page.items.push_back(row_fn(row));
    }
    return page;
}

// Statement definitions, one function per source file.
void PrepareBlockStatements(pqxx::connection &connection);
void PrepareOutputStatements(pqxx::connection &connection);
void PrepareIndexerStatements(pqxx::connection &connection);
void PrepareMilestoneStatements(pqxx::connection &connection);
void PrepareExplorerStatements(pqxx::connection &connection);

// The SQL expression of a timestamptz column in microseconds since the epoch.
std::string Micros(const std::string &column);

} // namespace permanode::client::internal
