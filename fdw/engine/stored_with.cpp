/*
 * stored_with.cpp
 *	  The rows family's record of its dictionary columns (see stored_with.hpp).
 */
#include "engine/stored_with.hpp"

namespace permanode::fdw
{

namespace
{

constexpr const char *kProperty = "permanode.dictionary_columns";

/* Adds the one property when the file is finished; looks at no entry. */
class Recorder : public rocksdb::TablePropertiesCollector
{
  public:
    explicit Recorder(std::string columns) : columns_(std::move(columns)) {}
    rocksdb::Status AddUserKey(const rocksdb::Slice &, const rocksdb::Slice &, rocksdb::EntryType,
                               rocksdb::SequenceNumber, uint64_t) override
    {
        return rocksdb::Status::OK();
    }
    rocksdb::Status Finish(rocksdb::UserCollectedProperties *properties) override
    {
        (*properties)[kProperty] = columns_;
        return rocksdb::Status::OK();
    }
    rocksdb::UserCollectedProperties GetReadableProperties() const override { return {}; }
    const char *Name() const override { return "PermanodeDictionaryColumns"; }

  private:
    std::string columns_;
};

class RecorderFactory : public rocksdb::TablePropertiesCollectorFactory
{
  public:
    explicit RecorderFactory(std::string columns) : columns_(std::move(columns)) {}
    rocksdb::TablePropertiesCollector *
    CreateTablePropertiesCollector(rocksdb::TablePropertiesCollectorFactory::Context) override
    {
        return new Recorder(columns_);
    }
    const char *Name() const override { return "PermanodeDictionaryColumns"; }

  private:
    std::string columns_;
};

} // namespace

std::string DictionaryColumnsOf(const Manifest &m)
{
    std::string columns;
    for (size_t i = 0; i < m.columns.size(); i++)
        if (m.columns[i].dictionary)
            columns += (columns.empty() ? "" : ",") + std::to_string(i);
    return columns;
}

std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>
DictionaryColumnsRecorder(std::string columns)
{
    return std::make_shared<RecorderFactory>(std::move(columns));
}

std::optional<std::string> RecordedDictionaryColumns(const rocksdb::TableProperties &properties)
{
    auto found = properties.user_collected_properties.find(kProperty);
    if (found == properties.user_collected_properties.end())
        return std::nullopt;
    return found->second;
}

} // namespace permanode::fdw
