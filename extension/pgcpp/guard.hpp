/*
 * guard.hpp
 *	  The boundary between C++ and PostgreSQL, shared by both extensions.
 *
 *	  PostgreSQL reports errors with longjmp, which must never cross a live C++ frame, and a
 *	  C++ exception must never unwind into PostgreSQL's C frames. So:
 *	  - every exported function body runs inside Guarded(), which catches every exception and
 *	    calls ereport() only after the catch block has destroyed the C++ objects;
 *	  - C++ code that calls into PostgreSQL does so through CallPg(), which turns an ereport
 *	    into a PgError exception that keeps the SQLSTATE.
 */
#ifndef PERMANODE_PGCPP_GUARD_HPP
#define PERMANODE_PGCPP_GUARD_HPP

extern "C"
{
#include "postgres.h"
}

#include <exception>
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <utility>

namespace permanode::pg
{

/*
 * An error that carries a SQLSTATE (as made by MAKE_SQLSTATE) and optional detail, hint and
 * context (where it arose, as PostgreSQL's error context callbacks described it).
 */
class PgError : public std::runtime_error
{
  public:
    PgError(int sqlstate, const std::string &message, std::string detail = {},
            std::string hint = {}, std::string context = {})
        : std::runtime_error(message), sqlstate_(sqlstate), detail_(std::move(detail)),
          hint_(std::move(hint)), context_(std::move(context))
    {
    }
    int sqlstate() const { return sqlstate_; }
    const std::string &detail() const { return detail_; }
    const std::string &hint() const { return hint_; }
    const std::string &context() const { return context_; }

  private:
    int sqlstate_;
    std::string detail_;
    std::string hint_;
    std::string context_;
};

/*
 * Marks an SQL-callable entry point that runs no C++: plain C calls only, nothing that throws,
 * no C++ object alive when it ereports. Such a body may skip Guarded() (the btree comparators,
 * whose cost matters); tests/source/check-guards accepts either.
 */
#define PERMANODE_PURE_C ((void)0)

/* Runs body() and reports any exception as a PostgreSQL ERROR with fallback_sqlstate. */
template <typename Body> Datum Guarded(Body &&body, int fallback_sqlstate = ERRCODE_INTERNAL_ERROR)
{
    int sqlstate = fallback_sqlstate;
    char *message = nullptr;
    char *detail = nullptr;
    char *hint = nullptr;
    char *context = nullptr;
    try
    {
        return body();
    }
    catch (const PgError &e)
    {
        sqlstate = e.sqlstate();
        message = pstrdup(e.what());
        detail = e.detail().empty() ? nullptr : pstrdup(e.detail().c_str());
        hint = e.hint().empty() ? nullptr : pstrdup(e.hint().c_str());
        context = e.context().empty() ? nullptr : pstrdup(e.context().c_str());
    }
    catch (const std::bad_alloc &)
    {
        sqlstate = ERRCODE_OUT_OF_MEMORY;
        message = pstrdup("out of memory");
    }
    catch (const std::exception &e)
    {
        message = pstrdup(e.what());
    }
    catch (...)
    {
        message = pstrdup("unknown C++ exception");
    }
    ereport(ERROR, (errcode(sqlstate), errmsg("%s", message), detail ? errdetail("%s", detail) : 0,
                    hint ? errhint("%s", hint) : 0, context ? errcontext_msg("%s", context) : 0));
    pg_unreachable();
}

/*
 * Runs fn(), a call into PostgreSQL that may ereport, and rethrows its error as a PgError.
 * The result is kept outside PG_TRY: returning from inside PG_TRY would leave
 * PG_exception_stack pointing at a dead frame. A C++ exception thrown by fn() is caught inside
 * the block too, and rethrown once PostgreSQL's error stack is restored.
 */
template <typename Fn> auto CallPg(Fn &&fn) -> decltype(fn())
{
    using Result = decltype(fn());
    MemoryContext caller_context = CurrentMemoryContext;
    ErrorData *volatile edata = nullptr;
    std::exception_ptr cpp_error;
    std::optional<std::conditional_t<std::is_void_v<Result>, bool, Result>> result;
    PG_TRY();
    {
        try
        {
            if constexpr (std::is_void_v<Result>)
            {
                fn();
                result.emplace(true);
            }
            else
                result.emplace(fn());
        }
        catch (...)
        {
            cpp_error = std::current_exception();
        }
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(caller_context);
        edata = CopyErrorData();
        FlushErrorState();
    }
    PG_END_TRY();
    if (cpp_error)
        std::rethrow_exception(cpp_error);
    if (edata != nullptr)
    {
        PgError error(edata->sqlerrcode, edata->message ? edata->message : "",
                      edata->detail ? edata->detail : "", edata->hint ? edata->hint : "",
                      edata->context ? edata->context : "");
        FreeErrorData(edata);
        throw error;
    }
    if constexpr (!std::is_void_v<Result>)
        return std::move(*result);
}

/*
 * CallPg(fn, args...): calls fn(args...) the same way. The arguments, and whatever the caller
 * makes of the result (a std::string of a palloc'd name, say), live in the caller's frame,
 * outside the region an ereport can jump out of.
 */
template <typename Fn, typename Arg, typename... Args>
auto CallPg(Fn &&fn, Arg &&arg, Args &&...args)
    -> decltype(fn(std::forward<Arg>(arg), std::forward<Args>(args)...))
{
    return CallPg([&]() -> decltype(auto)
                  { return fn(std::forward<Arg>(arg), std::forward<Args>(args)...); });
}

} // namespace permanode::pg

#endif /* PERMANODE_PGCPP_GUARD_HPP */
