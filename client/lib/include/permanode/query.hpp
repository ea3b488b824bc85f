// The library's calls as data: a Query names a statement, binds its parameters and says how to
// read its result. Client runs queries over libpqxx, one at a time; the HTTP server runs the very
// same queries over libpq's pipeline mode, many in flight on one connection. Either way the
// result is read through Result, which hides where the rows came from.
#pragma once

#include <charconv>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "permanode/cursor.hpp"

namespace permanode::client
{

// How a statement is planned. Sessions run with plan_cache_mode = auto.
//   kCustom:  planned for each call's values: sent as an unnamed statement, which PostgreSQL
//             always plans for the values at hand. Needed wherever the partition hints must see
//             the key as a constant or `($n IS NULL OR ...)` filters must fold away.
//   kGeneric: a named prepared statement that PostgreSQL may plan once; for point lookups whose
//             generic plan still keys the Permanode Range Scan on the parameter.
enum class Plan
{
    kCustom,
    kGeneric,
};

struct Statement
{
    std::string name; // unique per SQL text; names the prepared statement of kGeneric
    std::string sql;
    Plan plan = Plan::kCustom;
    // Planned with bitmap scans off, for a statement whose rows come in a GiST index's distance
    // order (KNN) that stops after a page: the planner costs a GiST box probe at a fixed 0.1% of
    // the rows, so it would fetch every match by bitmap and sort them instead.
    bool index_order = false;
};

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
    void Add(const std::optional<Cursor> &cursor);
    const std::vector<const char *> &Pointers() const { return pointers_; }

  private:
    std::deque<std::string> values_; // stable addresses for pointers_
    std::vector<const char *> pointers_;
};

// A statement's result rows, in text form.
class Result
{
  public:
    virtual ~Result() = default;
    virtual int Rows() const = 0;
    virtual bool IsNull(int row, int column) const = 0;
    virtual std::string_view Text(int row, int column) const = 0;
};

// One value of a result. as<T>() reads text, integers, doubles and booleans, and throws Error
// (SQLSTATE 22P02) when the value does not parse; Bytes() decodes bytea's hex form.
class Field
{
  public:
    Field(const Result &result, int row, int column) : result_(result), row_(row), column_(column)
    {
    }
    bool is_null() const { return result_.IsNull(row_, column_); }
    std::string_view text() const { return result_.Text(row_, column_); }
    template <typename T> T as() const;
    template <typename T> std::optional<T> optional() const
    {
        if (is_null())
        {
            return std::nullopt;
        }
        return as<T>();
    }
    std::string Bytes() const;

  private:
    [[noreturn]] void Unreadable(const char *type) const;
    const Result &result_;
    int row_;
    int column_;
};

class Row
{
  public:
    Row(const Result &result, int row) : result_(result), row_(row) {}
    Field operator[](int column) const { return Field(result_, row_, column); }

  private:
    const Result &result_;
    int row_;
};

template <> inline std::string Field::as<std::string>() const
{
    return std::string(text());
}
template <> bool Field::as<bool>() const;
template <> double Field::as<double>() const;
template <typename T> T Field::as() const
{
    static_assert(std::is_integral_v<T>, "Field::as reads text, integers, double and bool");
    auto value = text();
    T out{};
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (error != std::errc() || end != value.data() + value.size())
    {
        Unreadable("an integer");
    }
    return out;
}

// A call of the library: the statement, its parameters, and how its result reads.
template <typename T> struct Query
{
    std::shared_ptr<const Statement> statement;
    Params params;
    std::function<T(const Result &)> read;
};

} // namespace permanode::client
