// Shared by the client library's sources: statement registration, SQL fragments, row helpers.
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "permanode/client.hpp"
#include "permanode/query.hpp"

namespace permanode::client::internal
{

// Rethrows a libpqxx error as client::Error, keeping the SQLSTATE; any other error as it is.
[[noreturn]] void ThrowTranslated(std::exception_ptr error);

// Runs fn, its libpqxx errors turned into client::Error.
template <typename Fn> auto Translate(Fn &&fn) -> decltype(fn())
{
    try
    {
        return fn();
    }
    catch (const Error &)
    {
        throw;
    }
    catch (...)
    {
        ThrowTranslated(std::current_exception());
    }
}

// A statement defined once per process (the library's fixed statements).
inline std::shared_ptr<const Statement> MakeStatement(std::string name, std::string sql,
                                                      Plan plan = Plan::kCustom,
                                                      bool index_order = false)
{
    return std::make_shared<const Statement>(
        Statement{std::move(name), std::move(sql), plan, index_order});
}

// The SQL expression of a timestamptz column in microseconds since the epoch.
std::string Micros(const std::string &column);

// The keyset part of a newest-first list (kOldest: oldest-first), with parameters $n..$n+3 the
// cursor fields, against the row's ms_range_id, ms_timestamp, milestone_index and id columns
// (id_cast: the ID's type).
std::string KeysetCondition(int n, const std::string &range, const std::string &timestamp,
                            const std::string &milestone_index, const std::string &id,
                            const std::string &id_cast, SortOrder order = SortOrder::kNewest);
// The retired outputs o of a key alive at milestone `at` and matching `where` (conditions on o,
// " AND ..."), newest first from the key's span index (docs/AS_OF.md), as a subquery of
// `columns`: the first `limit` by distance from span_newest(key, upto), and every output of the
// oldest milestone among them, which the distance does not order by ID. `point` is the key
// column's span_point on o, `key` the key's hash; `at`, `upto` and `key` are SQL expressions.
std::string RetiredNewestFirst(const std::string &columns, const std::string &where,
                               const std::string &point, const std::string &key,
                               const std::string &at, const std::string &upto,
                               const std::string &limit);
// Reads the cursor of a row whose first columns are ms_range_id, ms_timestamp (µs),
// milestone_index, starting at column `first`, and id at column `id_column`.
Cursor CursorOf(const Row &row, int first, int id_column);

// Reads up to page_size rows into a page, using one extra row to tell whether more follow.
template <typename T, typename RowFn, typename CursorFn>
Page<T> MakePage(const Result &result, int page_size, RowFn row_fn, CursorFn cursor_fn)
{
    Page<T> page;
    for (int i = 0; i < result.Rows(); i++)
    {
        if (static_cast<int>(page.items.size()) == page_size)
        {
            page.next = cursor_fn(Row(result, page_size - 1));
            break;
        }
        page.items.push_back(row_fn(Row(result, i)));
    }
    return page;
}

// A page of IDs (column 0) with the newest-first cursor in columns 1-3.
Page<std::string> IdPage(const Result &result, int page_size);

// The first row read with `row_fn`, or nullopt when there is no row.
template <typename RowFn>
auto FirstRow(const Result &result, RowFn row_fn) -> std::optional<decltype(row_fn(Row(result, 0)))>
{
    if (result.Rows() == 0)
    {
        return std::nullopt;
    }
    return row_fn(Row(result, 0));
}

// The first column of the first row, or nullopt when there is no row.
std::optional<std::string> FirstText(const Result &result);

// An array parameter in PostgreSQL's text form: {"a","b"}, each element quoted.
std::string ArrayLiteral(const std::vector<std::string> &elements);

} // namespace permanode::client::internal
