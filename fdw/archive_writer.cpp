/*
 * archive_writer.cpp
 *	  Heap rows to sorted SST files to a sealed-ready RocksDB database.
 */
extern "C"
{
#include "postgres.h"

#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/memutils.h"
}

#include <filesystem>

#include <fmt/format.h>
#include <rocksdb/sst_file_writer.h>

#include "archive_reader.hpp"
#include "archive_writer.hpp"
#include "engine/stored_with.hpp"
#include "heap_reader.hpp"

namespace permanode::fdw
{

namespace
{

/* Whether a row has an entry in an index family: not when a column the family's index holds
 * only non-NULL values of (a partial index WHERE column IS NOT NULL) is NULL in the row. */
bool HasEntry(const ManifestFamily &family, const bool *nulls)
{
    for (const auto &k : family.key)
        if (k.not_null && nulls[k.column])
            return false;
    return true;
}

} // namespace

ArchiveWriter::ArchiveWriter(std::string dir, const Manifest &m, RowCodec &codec)
    : dir_(std::move(dir)), manifest_(m), codec_(codec), staging_(dir_ + "/sst")
{
    std::filesystem::create_directories(staging_);
    own_files_ = FileReservation(1); /* a spilled run or the dictionary's SST being written */
    /* like a CREATE INDEX per family: maintenance_work_mem each */
    size_t budget = static_cast<size_t>(maintenance_work_mem) * 1024;
    for (size_t f = 0; f <= m.indexes.size(); f++)
    {
        const std::string &cf = f == 0 ? m.rows.cf : m.indexes[f - 1].cf;
        sorters_.push_back(std::make_unique<EntrySorter>(
            staging_ + "/" + cf + ".sst", staging_ + "/" + cf + ".run", budget, f == 0,
            f == 0 ? kRowsBlockSize : kIndexBlockSize,
            f == 0 ? DictionaryColumnsRecorder(DictionaryColumnsOf(m)) : nullptr));
    }
    if (HasDictionary(m))
    {
        /* a share of one sort's memory; values beyond it are stored inline */
        dictionary_ = std::make_unique<ValueDictionary>(std::min<size_t>(budget / 4, 64 << 20));
        codec_.SetDictionary(dictionary_.get());
    }
}

uint64 ArchiveWriter::AddRelation(Oid relid)
{
    uint64 added = 0;
    HeapCursor *cursor = pg::CallPg([&] { return OpenHeapCursor(relid, codec_.desc()); });
    int pindex = manifest_.partition_column_index;
    KeyKind pkind = manifest_.columns[pindex].kind;
    while (pg::CallPg([&] { return HeapCursorNext(cursor); }))
    {
        Datum *values = HeapCursorValues(cursor);
        bool *nulls = HeapCursorNulls(cursor);
        /* PostgreSQL never checks a foreign partition's bounds: we do, on every row. */
        int64 pvalue = 0;
        if (!nulls[pindex])
            pvalue = pkind == KeyKind::kInt16   ? DatumGetInt16(values[pindex])
                     : pkind == KeyKind::kInt32 ? DatumGetInt32(values[pindex])
                                                : DatumGetInt64(values[pindex]);
        if (nulls[pindex] || pvalue < manifest_.range_from || pvalue >= manifest_.range_to)
            throw pg::PgError(ERRCODE_CHECK_VIOLATION, "a row lies outside the archived range",
                              fmt::format("Column {} is {}, the range is [{}, {}).",
                                          manifest_.partition_column,
                                          nulls[pindex] ? "NULL" : std::to_string(pvalue),
                                          manifest_.range_from, manifest_.range_to));
        codec_.EncodeKey(-1, values, nulls, key_);
        pg::CallPg([&] { codec_.EncodeValue(values, nulls, value_); });
        sorters_[0]->Add(key_, value_);
        for (size_t i = 0; i + 1 < sorters_.size(); i++)
        {
            if (!HasEntry(manifest_.indexes[i], nulls))
                continue;
            codec_.EncodeKey(static_cast<int>(i), values, nulls, index_key_);
            codec_.EncodeInclude(static_cast<int>(i), values, nulls, include_);
            sorters_[i + 1]->Add(index_key_, include_);
        }
        checksum_ += RowHash(key_, value_);
        rows_++;
        added++;
    }
    pg::CallPg([&] { CloseHeapCursor(cursor); });
    return added;
}

void ArchiveWriter::SortAndWrite()
{
    /*
     * Every family sorts and writes in its own thread, as many at once as their files fit in
     * the budget; this one waits, polling interrupts. A family may hold a quarter of the
     * budget: more runs merge in passes.
     */
    size_t max_files = FileCapacity() / 4;
    std::vector<FileReservation> running(sorters_.size());
    size_t started = 0;
    for (size_t oldest = 0; oldest < sorters_.size(); oldest++)
    {
        while (started < sorters_.size())
        {
            size_t files = sorters_[started]->FilesNeeded(max_files);
            if (!FilesFit(files) && started > oldest)
                break; /* wait for a running one: the first always runs, alone if need be */
            running[started] = FileReservation(files);
            sorters_[started++]->Start(max_files);
        }
        while (!sorters_[oldest]->Wait(100))
            CheckInterrupts();
        running[oldest] = FileReservation();
    }
}

void ArchiveWriter::Finish(Manifest *m)
{
    SortAndWrite();
    if (sorters_[0]->duplicate_key())
        throw pg::PgError(ERRCODE_UNIQUE_VIOLATION,
                          "two rows of the archived partitions have the same row key",
                          "The row key (" + manifest_.rows.name +
                              ") must be unique across the archived partitions.");
    std::vector<std::pair<std::string, std::string>> families;
    for (size_t f = 0; f < sorters_.size(); f++)
    {
        ManifestFamily &family = f == 0 ? m->rows : m->indexes[f - 1];
        bool has_file = sorters_[f]->Finish();
        family.entries = sorters_[f]->entries();
        families.emplace_back(family.cf, has_file ? sorters_[f]->path() : std::string());
    }
    sorters_.clear(); /* frees their memory and spilled runs */
    if (dictionary_)
        families.emplace_back(kDictionaryFamily, WriteDictionary(m));
    std::vector<std::string> files = BuildArchiveDb(dir_ + "/" + kDbSubdir, families);
    /* readers open these files directly */
    for (size_t f = 0; f < files.size(); f++)
    {
        if (f == 0)
            m->rows.file = files[f];
        else if (f <= m->indexes.size())
            m->indexes[f - 1].file = files[f];
        else
            m->dictionary_file = files[f];
    }
    std::filesystem::remove_all(staging_);
}

std::string ArchiveWriter::WriteDictionary(Manifest *m)
{
    m->dictionary_entries = dictionary_->entries();
    m->dictionary_checksum = 0;
    if (dictionary_->entries() == 0)
        return std::string();
    std::string path = staging_ + "/" + kDictionaryFamily + ".sst";
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), ArchiveDbOptions());
    CheckStatus(writer.Open(path), "could not write " + path);
    rocksdb::Status status;
    dictionary_->ForEachEntry(
        [&](std::string_view key, std::string_view value)
        {
            if (status.ok())
                status = writer.Put(rocksdb::Slice(key.data(), key.size()),
                                    rocksdb::Slice(value.data(), value.size()));
            m->dictionary_checksum += RowHash(key, value);
        });
    CheckStatus(status, "could not write " + path);
    CheckStatus(writer.Finish(), "could not write " + path);
    return path;
}

} // namespace permanode::fdw
