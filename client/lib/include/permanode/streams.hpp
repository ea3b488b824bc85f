// permanode record streams (seed 004): robustmq's StorageAdapter on a permanode database, one
// method per adapter operation, each the SQL function of the same name in schema `streams`.
//
// Offsets per shard start at 0 and are contiguous; a batch gets consecutive offsets, returned in
// input order. Errors are client::Error with the server's SQLSTATE (42704: no such shard, 42710:
// the shard exists).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "permanode/client.hpp"

namespace permanode::client
{

struct ShardInfo
{
    std::string namespace_name;
    std::string shard_name;
    std::int32_t replica_num = 1;
    // Retention in seconds (records older expire with streams.expire()); nullopt: kept.
    std::optional<std::int64_t> retention_seconds;
    // Read back only: the first retained offset and the next offset written.
    std::uint64_t first_offset = 0;
    std::uint64_t next_offset = 0;
};

struct Header
{
    std::string name;
    std::string value;
};

struct Record
{
    std::optional<std::uint64_t> offset; // set on records read
    std::optional<std::string> key;
    std::string data; // bytes
    std::vector<Header> headers;
    std::vector<std::string> tags;
    // Microseconds since the Unix epoch; nullopt on write: the time of writing.
    std::optional<std::int64_t> timestamp_us;
};

struct ReadConfig
{
    std::uint64_t max_record_num = 100;
    // Cumulative data bytes of the records returned; nullopt: no cap.
    std::optional<std::uint64_t> max_size;
};

struct ShardOffset
{
    std::string namespace_name;
    std::string shard_name;
    std::uint64_t offset = 0;
};

class StreamStore
{
  public:
    explicit StreamStore(const std::string &dsn);
    ~StreamStore();
    StreamStore(const StreamStore &) = delete;
    StreamStore &operator=(const StreamStore &) = delete;

    void CreateShard(const ShardInfo &shard);
    // An empty namespace lists every shard; an empty shard name the namespace's.
    std::vector<ShardInfo> ListShard(const std::string &namespace_name,
                                     const std::string &shard_name);
    void DeleteShard(const std::string &namespace_name, const std::string &shard_name);
    std::uint64_t Write(const std::string &namespace_name, const std::string &shard_name,
                        const Record &record);
    std::vector<std::uint64_t> BatchWrite(const std::string &namespace_name,
                                          const std::string &shard_name,
                                          const std::vector<Record> &records);
    std::vector<Record> ReadByOffset(const std::string &namespace_name,
                                     const std::string &shard_name, std::uint64_t offset,
                                     const ReadConfig &config);
    std::vector<Record> ReadByTag(const std::string &namespace_name, const std::string &shard_name,
                                  std::uint64_t offset, const std::string &tag,
                                  const ReadConfig &config);
    std::vector<Record> ReadByKey(const std::string &namespace_name, const std::string &shard_name,
                                  std::uint64_t offset, const std::string &key,
                                  const ReadConfig &config);
    // The smallest offset whose timestamp is at or after timestamp_us; nullopt when none is.
    std::optional<ShardOffset> GetOffsetByTimestamp(const std::string &namespace_name,
                                                    const std::string &shard_name,
                                                    std::int64_t timestamp_us);
    std::vector<ShardOffset> GetOffsetByGroup(const std::string &group_name);
    // The last consumed offset of each shard (by name) of a namespace, overwriting.
    void CommitOffset(const std::string &group_name, const std::string &namespace_name,
                      const std::map<std::string, std::uint64_t> &offsets);
    void Close();

  private:
    std::unique_ptr<pqxx::connection> conn_;
};

} // namespace permanode::client
