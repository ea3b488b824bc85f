/*
 * split_keys.cpp
 *	  Split keys recorded in SST properties (see split_keys.hpp). The property holds the keys
 *	  back to back, each preceded by its length as 4 little-endian bytes.
 */
#include "engine/split_keys.hpp"

#include <algorithm>
#include <cstdint>

namespace permanode::fdw
{

namespace
{

constexpr char kProperty[] = "permanode.split_keys";

class SplitKeyCollector : public rocksdb::TablePropertiesCollector
{
  public:
    rocksdb::Status AddUserKey(const rocksdb::Slice &key, const rocksdb::Slice &value,
                               rocksdb::EntryType, rocksdb::SequenceNumber, uint64_t) override
    {
        bytes_ += key.size() + value.size();
        if (bytes_ >= kSplitKeyBytes)
        {
            /* this key starts the next chunk */
            uint32_t len = static_cast<uint32_t>(key.size());
            for (int i = 0; i < 4; i++)
                keys_.push_back(static_cast<char>(len >> (8 * i)));
            keys_.append(key.data(), key.size());
            bytes_ = 0;
        }
        return rocksdb::Status::OK();
    }
    rocksdb::Status Finish(rocksdb::UserCollectedProperties *properties) override
    {
        (*properties)[kProperty] = keys_;
        return rocksdb::Status::OK();
    }
    rocksdb::UserCollectedProperties GetReadableProperties() const override { return {}; }
    const char *Name() const override { return "PermanodeSplitKeys"; }

  private:
    uint64_t bytes_ = 0;
    std::string keys_;
};

class Factory : public rocksdb::TablePropertiesCollectorFactory
{
  public:
    rocksdb::TablePropertiesCollector *
    CreateTablePropertiesCollector(rocksdb::TablePropertiesCollectorFactory::Context) override
    {
        return new SplitKeyCollector();
    }
    const char *Name() const override { return "PermanodeSplitKeys"; }
};

} // namespace

std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> SplitKeyCollectorFactory()
{
    return std::make_shared<Factory>();
}

std::vector<std::string> SplitKeys(const rocksdb::TableProperties *properties,
                                   const std::string &lower, const std::string &upper)
{
    std::vector<std::string> keys;
    if (properties == nullptr)
        return keys;
    auto found = properties->user_collected_properties.find(kProperty);
    if (found == properties->user_collected_properties.end())
        return keys; /* only an optimization: scan in one chunk */
    const std::string &data = found->second;
    size_t pos = 0;
    while (pos + 4 <= data.size())
    {
        uint32_t len = 0;
        for (int i = 0; i < 4; i++)
            len |= static_cast<uint32_t>(static_cast<unsigned char>(data[pos + i])) << (8 * i);
        pos += 4;
        if (len > data.size() - pos)
            break; /* malformed: ignore the rest, the chunks still cover the range */
        std::string key = data.substr(pos, len);
        pos += len;
        if ((lower.empty() || key > lower) && (upper.empty() || key < upper))
            keys.push_back(std::move(key));
    }
    /* recorded in key order; sorted anyway, since the chunks rely on it */
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

} // namespace permanode::fdw
