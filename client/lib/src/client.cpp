// permanode client library: the connection, its session settings, and running queries over
// libpqxx.
#include "permanode/client.hpp"

#include <pqxx/pqxx>

#include "internal.hpp"
#include "permanode/queries.hpp"

namespace permanode::client
{
namespace
{

// The SQLSTATE of an error: libpqxx 6.4 leaves it empty for some of its exception classes
// (insufficient_privilege, for one), whose class then tells the code.
std::string SqlstateOf(const pqxx::sql_error &e)
{
    if (!e.sqlstate().empty())
    {
        return e.sqlstate();
    }
    if (dynamic_cast<const pqxx::insufficient_privilege *>(&e))
    {
        return "42501";
    }
    if (dynamic_cast<const pqxx::data_exception *>(&e))
    {
        return "22000";
    }
    if (dynamic_cast<const pqxx::integrity_constraint_violation *>(&e))
    {
        return "23000";
    }
    if (dynamic_cast<const pqxx::disk_full *>(&e))
    {
        return "53100";
    }
    if (dynamic_cast<const pqxx::out_of_memory *>(&e))
    {
        return "53200";
    }
    if (dynamic_cast<const pqxx::insufficient_resources *>(&e))
    {
        return "53000";
    }
    if (dynamic_cast<const pqxx::feature_not_supported *>(&e))
    {
        return "0A000";
    }
    if (dynamic_cast<const pqxx::syntax_error *>(&e))
    {
        return "42601";
    }
    return "";
}

} // namespace

[[noreturn]] void internal::ThrowTranslated(std::exception_ptr error)
{
    try
    {
        std::rethrow_exception(error);
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

namespace
{

using internal::Translate;

// A libpqxx result read through Result.
class PqxxResult : public Result
{
  public:
    explicit PqxxResult(pqxx::result result) : result_(std::move(result)) {}
    int Rows() const override { return static_cast<int>(result_.size()); }
    bool IsNull(int row, int column) const override { return At(row, column).is_null(); }
    std::string_view Text(int row, int column) const override
    {
        auto field = At(row, column);
        return std::string_view(field.c_str(), field.size());
    }

  private:
    pqxx::field At(int row, int column) const
    {
        if (row < 0 || row >= Rows() || column < 0 || column >= static_cast<int>(result_.columns()))
        {
            throw Error("result has no row " + std::to_string(row + 1) + ", column " +
                            std::to_string(column + 1),
                        "XX000");
        }
        return result_[row][column];
    }
    pqxx::result result_;
};

} // namespace

const char *ToString(OutputKind kind)
{
    switch (kind)
    {
        case OutputKind::kBasic:
            return "basic";
        case OutputKind::kAlias:
            return "alias";
        case OutputKind::kFoundry:
            return "foundry";
        case OutputKind::kNft:
            return "nft";
    }
    return "basic";
}

namespace
{

// Statements as one simple query: one round trip.
std::string Joined(const std::vector<std::string> &statements)
{
    std::string sql;
    for (const auto &s : statements)
    {
        sql += s + ";";
    }
    return sql;
}

} // namespace

Client::Client(const std::string &dsn)
{
    Translate(
        [&]
        {
            connection_ = std::make_unique<pqxx::connection>(dsn);
            pqxx::nontransaction tx(*connection_);
            // Our types' operators live in schema permanode. plan_cache_mode stays at auto:
            // the Permanode Range Scan takes its key from a parameter too, so point lookups
            // (a block by ID) settle on a cheap generic plan, while statements with
            // `($n IS NULL OR ...)` filters keep custom plans, which fold those filters away
            // and cost far less than their generic plan.
            tx.exec(queries::SessionSetupSql());
        });
}

Client::~Client() = default;

bool Client::IsOpen() const
{
    return connection_ && connection_->is_open();
}

std::unique_ptr<Result> Client::Execute(const Statement &statement, const Params &params)
{
    return Translate(
        [&]
        {
            auto values = pqxx::prepare::make_dynamic_params(params.Pointers());
            pqxx::nontransaction tx(*connection_);
            auto run = [&]
            {
                if (statement.plan == Plan::kCustom)
                {
                    // An unnamed statement: always planned for the values at hand.
                    return std::make_unique<PqxxResult>(tx.exec_params(statement.sql, values));
                }
                // libpqxx keeps the definition and prepares it on first use; the same
                // definition again is a no-op.
                connection_->prepare(statement.name, statement.sql);
                return std::make_unique<PqxxResult>(tx.exec_prepared(statement.name, values));
            };
            if (!statement.index_order)
            {
                return run();
            }
            tx.exec(Joined(queries::IndexOrderOn()));
            std::unique_ptr<PqxxResult> result;
            try
            {
                result = run();
            }
            catch (...)
            {
                tx.exec(Joined(queries::IndexOrderOff()));
                throw;
            }
            tx.exec(Joined(queries::IndexOrderOff()));
            return result;
        });
}

const std::vector<std::string> &queries::IndexOrderOn()
{
    static const std::vector<std::string> on = {"SET enable_bitmapscan = off",
                                                "SET plan_cache_mode = force_generic_plan"};
    return on;
}

const std::vector<std::string> &queries::IndexOrderOff()
{
    static const std::vector<std::string> off = {"RESET enable_bitmapscan",
                                                 "RESET plan_cache_mode"};
    return off;
}

// JIT off: the library's statements are lookups and pages, which never repay a compile, and
// PostgreSQL compiles anew at each execution of a plan whose estimate passes jit_above_cost (a
// freshly started HTTP server spent 69% of its CPU in LLVM for its first minute).
const char *queries::SessionSetupSql()
{
    return "SELECT set_config('search_path', current_setting('search_path') || ', permanode', "
           "false), set_config('jit', 'off', false)";
}

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
