// permanode client library: the connection, its session settings and shared helpers.
#include "permanode/client.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "internal.hpp"

namespace permanode::client
{
namespace internal
{

namespace
{

// The SQL of the kCustom statements by name. Every connection prepares the same text, so
// entries are only ever added (never changed); node-based, so a found string stays put.
struct CustomStatements
{
    std::shared_mutex mutex;
    std::unordered_map<std::string, std::string> sql;
};

CustomStatements &Customs()
{
    static CustomStatements customs;
    return customs;
}

} // namespace

void Prepare(pqxx::connection &connection, const std::string &name, const std::string &sql,
             Plan plan)
{
    connection.prepare(name, sql);
    if (plan == Plan::kCustom)
    {
        auto &customs = Customs();
        std::unique_lock<std::shared_mutex> lock(customs.mutex);
        customs.sql.try_emplace(name, sql);
    }
}

pqxx::result Exec(pqxx::connection &connection, const std::string &statement, const Params &params)
{
    const std::string *custom = nullptr;
    {
        auto &customs = Customs();
        std::shared_lock<std::shared_mutex> lock(customs.mutex);
        auto it = customs.sql.find(statement);
        if (it != customs.sql.end())
        {
            custom = &it->second;
        }
    }
    pqxx::nontransaction tx(connection);
    auto values = pqxx::prepare::make_dynamic_params(params.Pointers());
    if (custom != nullptr)
    {
        return tx.exec_params(*custom, values);
    }
    return tx.exec_prepared(statement, values);
}

pqxx::result ExecSql(pqxx::connection &connection, const std::string &sql, const Params &params)
{
    pqxx::nontransaction tx(connection);
    return tx.exec_params(sql, pqxx::prepare::make_dynamic_params(params.Pointers()));
}

pqxx::result ExecNamed(pqxx::connection &connection, const std::string &name,
                       const std::string &sql, const Params &params)
{
    // libpqxx keeps the definition and prepares it on first use; the same definition again
    // is a no-op.
    connection.prepare(name, sql);
    pqxx::nontransaction tx(connection);
    return tx.exec_prepared(name, pqxx::prepare::make_dynamic_params(params.Pointers()));
}

std::string Bytes(const pqxx::field &field)
{
    return pqxx::binarystring(field).str();
}

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

std::string Micros(const std::string &column)
{
    return "(extract(epoch FROM " + column + ") * 1000000)::bigint";
}

std::string KeysetCondition(int n, const std::string &range, const std::string &timestamp,
                            const std::string &milestone_index, const std::string &id,
                            const std::string &id_cast)
{
    auto p = [n](int i) { return "$" + std::to_string(n + i); };
    return "(" + p(0) + "::int IS NULL OR (" + range + ", " + timestamp + ", " + milestone_index +
           ", " + id + ") < (" + p(0) + "::int, timestamptz 'epoch' + " + p(1) +
           "::bigint * interval '1 microsecond', " + p(2) + "::int, " + p(3) + "::" + id_cast +
           "))";
}

Cursor CursorOf(const pqxx::row &row, int first, int id_column)
{
    Cursor cursor;
    cursor.ms_range_id = row[first].as<std::int32_t>();
    cursor.ms_timestamp_us = row[first + 1].as<std::int64_t>();
    cursor.milestone_index = row[first + 2].as<std::int32_t>();
    cursor.id = row[id_column].as<std::string>();
    return cursor;
}

} // namespace internal

using internal::Translate;

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
            tx.exec("SELECT set_config('search_path', current_setting('search_path') || "
                    "', permanode', false)");
            internal::PrepareBlockStatements(*connection_);
            internal::PrepareOutputStatements(*connection_);
            internal::PrepareIndexerStatements(*connection_);
            internal::PrepareMilestoneStatements(*connection_);
            internal::PrepareExplorerStatements(*connection_);
        });
}

Client::~Client() = default;

bool Client::IsOpen() const
{
    return connection_ && connection_->is_open();
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
