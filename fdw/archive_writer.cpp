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

#include "archive_reader.hpp"
#include "archive_writer.hpp"
#include "heap_reader.hpp"

namespace permanode::fdw
{

namespace
{

/* A palloc'd bytea holding a then b. (pg) */
Datum MakeBytea(const std::string &a, const std::string &b)
{
    size_t len = a.size() + b.size();
    struct varlena *v = (struct varlena *)palloc(VARHDRSZ + len);
    SET_VARSIZE(v, VARHDRSZ + len);
    memcpy(VARDATA(v), a.data(), a.size());
    memcpy(VARDATA(v) + a.size(), b.data(), b.size());
    return PointerGetDatum(v);
}

} // namespace

ArchiveWriter::ArchiveWriter(std::string dir, const Manifest &m, RowCodec &codec)
    : dir_(std::move(dir)), manifest_(m), codec_(codec)
{
    index_keys_.resize(m.indexes.size());
    pg::CallPg(
        [&]
        {
            for (size_t i = 0; i <= m.indexes.size(); i++)
                sorts_.push_back(tuplesort_begin_datum(BYTEAOID, ByteaLessOperator, InvalidOid,
                                                       false, maintenance_work_mem, nullptr,
                                                       TUPLESORT_NONE));
        });
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
        for (size_t i = 0; i < index_keys_.size(); i++)
        {
            codec_.EncodeKey(static_cast<int>(i), values, nulls, index_keys_[i]);
            codec_.EncodeInclude(static_cast<int>(i), values, nulls, include_);
            index_keys_[i] += include_; /* the key is self-delimiting: entry = key + value */
        }
        pg::CallPg(
            [&]
            {
                codec_.EncodeValue(values, nulls, value_);
                tuplesort_putdatum(sorts_[0], MakeBytea(key_, value_), false);
                for (size_t i = 0; i < index_keys_.size(); i++)
                    tuplesort_putdatum(sorts_[i + 1], MakeBytea(index_keys_[i], empty_), false);
            });
        checksum_ += RowHash(key_, value_);
        rows_++;
        added++;
    }
    pg::CallPg([&] { CloseHeapCursor(cursor); });
    return added;
}

void ArchiveWriter::Finish(Manifest *m)
{
    namespace fs = std::filesystem;
    std::string staging = dir_ + "/sst";
    fs::create_directories(staging);
    std::vector<std::pair<std::string, std::string>> families;
    MemoryContext drain = pg::CallPg(
        []
        {
            return AllocSetContextCreate(CurrentMemoryContext, "permanode_fdw drain",
                                         ALLOCSET_DEFAULT_SIZES);
        });
    std::string previous;
    for (size_t f = 0; f < sorts_.size(); f++)
    {
        ManifestFamily &family = f == 0 ? m->rows : m->indexes[f - 1];
        pg::CallPg([&] { tuplesort_performsort(sorts_[f]); });
        SstSink sink(staging + "/" + family.cf + ".sst");
        previous.clear();
        for (;;)
        {
            Datum datum;
            bool isnull;
            bool more = pg::CallPg(
                [&]
                {
                    CHECK_FOR_INTERRUPTS();
                    MemoryContextReset(drain);
                    MemoryContext old = MemoryContextSwitchTo(drain);
                    bool got = tuplesort_getdatum(sorts_[f], true, &datum, &isnull, nullptr);
                    MemoryContextSwitchTo(old);
                    return got;
                });
            if (!more)
                break;
            std::string_view blob(VARDATA_ANY(DatumGetPointer(datum)),
                                  VARSIZE_ANY_EXHDR(DatumGetPointer(datum)));
            size_t key_length = codec_.KeyLength(static_cast<int>(f) - 1, blob);
            std::string_view key = blob.substr(0, key_length);
            std::string_view value = blob.substr(key_length);
            if (f == 0)
            {
                if (key == previous)
                    throw pg::PgError(ERRCODE_UNIQUE_VIOLATION,
                                      "two rows of the archived partitions have the same row key",
                                      "The row key (" + manifest_.rows.name +
                                          ") must be unique across the archived partitions.");
                previous.assign(key);
            }
            sink.Put(key, value);
        }
        family.entries = sink.entries();
        bool has_file = sink.Finish();
        pg::CallPg([&] { tuplesort_end(sorts_[f]); });
        sorts_[f] = nullptr;
        families.emplace_back(family.cf, has_file ? sink.path() : std::string());
    }
    pg::CallPg([&] { MemoryContextDelete(drain); });
    BuildArchiveDb(dir_ + "/" + kDbSubdir, families);
    fs::remove_all(staging);
}

} // namespace permanode::fdw
