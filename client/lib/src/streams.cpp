// permanode client library: record streams (permanode/streams.hpp), each method one call of the
// SQL function of the same name in schema streams. Batches travel as one array per field.
#include "permanode/streams.hpp"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ctime>

#include "internal.hpp"

namespace permanode::client
{
namespace
{

using internal::Translate;

// An array literal of text elements, NULL where an element is missing.
std::string ArrayLiteral(const std::vector<std::optional<std::string>> &elements)
{
    std::string out = "{";
    for (std::size_t i = 0; i < elements.size(); ++i)
    {
        if (i > 0)
            out += ',';
        if (!elements[i])
        {
            out += "NULL";
            continue;
        }
        out += '"';
        for (char c : *elements[i])
        {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

// Microseconds since the epoch as a timestamptz literal, in UTC.
std::string TimestampLiteral(std::int64_t micros)
{
    std::int64_t seconds = micros / 1000000, fraction = micros % 1000000;
    if (fraction < 0)
    {
        fraction += 1000000;
        seconds -= 1;
    }
    std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<long long>(fraction));
    return text;
}

// The columns every read returns, in this order.
constexpr const char *kRecordColumns = "\"offset\", key, data, header::text, to_jsonb(tags)::text, "
                                       "(extract(epoch FROM ts) * 1000000)::bigint";

// robustmq's headers as stored: [{"name": ..., "value": ...}, ...].
std::vector<Header> HeadersOf(const std::string &text)
{
    std::vector<Header> headers;
    for (const nlohmann::json &h : nlohmann::json::parse(text))
        headers.push_back({h.value("name", ""), h.value("value", "")});
    return headers;
}

std::vector<Record> RecordsOf(const pqxx::result &rows)
{
    std::vector<Record> records;
    records.reserve(rows.size());
    for (const auto &row : rows)
    {
        Record r;
        r.offset = row[0].as<std::uint64_t>();
        if (!row[1].is_null())
            r.key = row[1].as<std::string>();
        pqxx::binarystring data(row[2]);
        r.data = data.str();
        if (!row[3].is_null())
            r.headers = HeadersOf(row[3].as<std::string>());
        r.tags = nlohmann::json::parse(row[4].as<std::string>()).get<std::vector<std::string>>();
        r.timestamp_us = row[5].as<std::int64_t>();
        records.push_back(std::move(r));
    }
    return records;
}

// The max_size parameter: '' when there is none (NULLIF makes it NULL).
std::string MaxSize(const ReadConfig &config)
{
    return config.max_size ? std::to_string(*config.max_size) : std::string();
}

} // namespace

StreamStore::StreamStore(const std::string &dsn)
{
    Translate([&] { conn_ = std::make_unique<pqxx::connection>(dsn); });
}

StreamStore::~StreamStore() = default;

void StreamStore::CreateShard(const ShardInfo &shard)
{
    Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::string retention;
            if (shard.retention_seconds)
                retention = std::to_string(*shard.retention_seconds) + " seconds";
            tx.exec_params("SELECT streams.create_shard($1, $2, $3, NULLIF($4, '')::interval)",
                           shard.namespace_name, shard.shard_name, shard.replica_num, retention);
        });
}

std::vector<ShardInfo> StreamStore::ListShard(const std::string &namespace_name,
                                              const std::string &shard_name)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<ShardInfo> shards;
            for (const auto &row : tx.exec_params(
                     "SELECT namespace, shard, replica_num, first_offset, next_offset, "
                     "extract(epoch FROM retention)::bigint FROM streams.list_shard($1, $2)",
                     namespace_name, shard_name))
            {
                ShardInfo s;
                s.namespace_name = row[0].as<std::string>();
                s.shard_name = row[1].as<std::string>();
                s.replica_num = row[2].as<std::int32_t>();
                s.first_offset = row[3].as<std::uint64_t>();
                s.next_offset = row[4].as<std::uint64_t>();
                if (!row[5].is_null())
                    s.retention_seconds = row[5].as<std::int64_t>();
                shards.push_back(std::move(s));
            }
            return shards;
        });
}

void StreamStore::DeleteShard(const std::string &namespace_name, const std::string &shard_name)
{
    Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            tx.exec_params("SELECT streams.delete_shard($1, $2)", namespace_name, shard_name);
        });
}

std::uint64_t StreamStore::Write(const std::string &namespace_name, const std::string &shard_name,
                                 const Record &record)
{
    return BatchWrite(namespace_name, shard_name, {record}).at(0);
}

std::vector<std::uint64_t> StreamStore::BatchWrite(const std::string &namespace_name,
                                                   const std::string &shard_name,
                                                   const std::vector<Record> &records)
{
    std::vector<std::optional<std::string>> keys, data, headers, tags, ts;
    for (const Record &r : records)
    {
        keys.push_back(r.key);
        data.push_back(
            conn_->esc_raw(reinterpret_cast<const unsigned char *>(r.data.data()), r.data.size()));
        if (r.headers.empty())
            headers.push_back(std::nullopt);
        else
        {
            nlohmann::json list = nlohmann::json::array();
            for (const Header &h : r.headers)
                list.push_back({{"name", h.name}, {"value", h.value}});
            headers.push_back(list.dump());
        }
        tags.push_back(nlohmann::json(r.tags).dump());
        ts.push_back(r.timestamp_us ? std::optional<std::string>(TimestampLiteral(*r.timestamp_us))
                                    : std::nullopt);
    }
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<std::uint64_t> offsets;
            offsets.reserve(records.size());
            for (const auto &row : tx.exec_params(
                     "SELECT o FROM streams.batch_write($1, $2, $3::text[], $4::bytea[], "
                     "$5::jsonb[], $6::jsonb[], $7::timestamptz[]) o",
                     namespace_name, shard_name, ArrayLiteral(keys), ArrayLiteral(data),
                     ArrayLiteral(headers), ArrayLiteral(tags), ArrayLiteral(ts)))
                offsets.push_back(row[0].as<std::uint64_t>());
            return offsets;
        });
}

namespace
{

// The records a read function of schema streams returns (`call`: its name and parameters).
template <typename... Args>
std::vector<Record> ReadRecords(pqxx::connection &conn, const std::string &call, Args &&...args)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(conn);
            return RecordsOf(
                tx.exec_params(std::string("SELECT ") + kRecordColumns + " FROM streams." + call,
                               std::forward<Args>(args)...));
        });
}

} // namespace

std::vector<Record> StreamStore::ReadByOffset(const std::string &namespace_name,
                                              const std::string &shard_name, std::uint64_t offset,
                                              const ReadConfig &config)
{
    return ReadRecords(*conn_, "read_by_offset($1, $2, $3, $4, NULLIF($5, '')::bigint)",
                       namespace_name, shard_name, offset, config.max_record_num, MaxSize(config));
}

std::vector<Record> StreamStore::ReadByTag(const std::string &namespace_name,
                                           const std::string &shard_name, std::uint64_t offset,
                                           const std::string &tag, const ReadConfig &config)
{
    return ReadRecords(*conn_, "read_by_tag($1, $2, $3, $4, $5, NULLIF($6, '')::bigint)",
                       namespace_name, shard_name, offset, tag, config.max_record_num,
                       MaxSize(config));
}

std::vector<Record> StreamStore::ReadByKey(const std::string &namespace_name,
                                           const std::string &shard_name, std::uint64_t offset,
                                           const std::string &key, const ReadConfig &config)
{
    return ReadRecords(*conn_, "read_by_key($1, $2, $3, $4, $5, NULLIF($6, '')::bigint)",
                       namespace_name, shard_name, offset, key, config.max_record_num,
                       MaxSize(config));
}

std::optional<ShardOffset> StreamStore::GetOffsetByTimestamp(const std::string &namespace_name,
                                                             const std::string &shard_name,
                                                             std::int64_t timestamp_us)
{
    return Translate(
        [&]() -> std::optional<ShardOffset>
        {
            pqxx::nontransaction tx(*conn_);
            auto row =
                tx.exec_params1("SELECT streams.get_offset_by_timestamp($1, $2, $3::timestamptz)",
                                namespace_name, shard_name, TimestampLiteral(timestamp_us));
            if (row[0].is_null())
                return std::nullopt;
            return ShardOffset{namespace_name, shard_name, row[0].as<std::uint64_t>()};
        });
}

std::vector<ShardOffset> StreamStore::GetOffsetByGroup(const std::string &group_name)
{
    return Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            std::vector<ShardOffset> offsets;
            for (const auto &row : tx.exec_params(
                     "SELECT namespace, shard, \"offset\" FROM streams.get_offset_by_group($1)",
                     group_name))
                offsets.push_back({row[0].as<std::string>(), row[1].as<std::string>(),
                                   row[2].as<std::uint64_t>()});
            return offsets;
        });
}

void StreamStore::CommitOffset(const std::string &group_name, const std::string &namespace_name,
                               const std::map<std::string, std::uint64_t> &offsets)
{
    const std::string json = nlohmann::json(offsets).dump(); // {"shard": offset, ...}
    Translate(
        [&]
        {
            pqxx::nontransaction tx(*conn_);
            tx.exec_params("SELECT streams.commit_offset($1, $2, $3::jsonb)", group_name,
                           namespace_name, json);
        });
}

void StreamStore::Close()
{
    conn_.reset(); // the connection closes with it
}

} // namespace permanode::client
