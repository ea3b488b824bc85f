/*
 * archive_reader.cpp
 *	  Cursor over a sealed archive, and the re-read that verifies an archive.
 */
extern "C"
{
#include "postgres.h"

#include "access/tupdesc.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
}

#include "archive_reader.hpp"
#include "engine/split_keys.hpp"

#include <atomic>
#include <thread>

#include <algorithm>

#include <fmt/format.h>

namespace permanode::fdw
{

namespace
{

/* A type's name without its schema, as format_type_be spells it. (pg) */
std::string UnqualifiedTypeName(const std::string &name)
{
    size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

/*
 * Type OIDs are the database's own: an archive made in another database (a restored dump) names
 * the types of the extension (address, block_id, ...) by other OIDs. A column whose recorded OID
 * is not the table's takes the table's type when both have the same name; any other difference
 * stays, for Bind to report. The handle is this backend's, and a backend serves one database.
 * (pg)
 */
template <typename Retyped>
void AdoptColumnTypes(Manifest *m, TupleDesc reldesc, std::vector<Retyped> *arrays)
{
    for (size_t j = 0; j < m->columns.size(); j++)
    {
        ManifestColumn &column = m->columns[j];
        for (int i = 0; i < reldesc->natts; i++)
        {
            Form_pg_attribute att = TupleDescAttr(reldesc, i);
            if (att->attisdropped || column.name != NameStr(att->attname))
                continue;
            if (column.type_oid != att->atttypid &&
                UnqualifiedTypeName(column.type_name) ==
                    UnqualifiedTypeName(format_type_be(att->atttypid)))
                column.type_oid = att->atttypid;
            /* an array value holds its element type's OID: arrays made elsewhere are relabeled
             * on read (the catalog is asked only for columns archived in another database) */
            if (column.archived_type_oid != 0 && column.archived_type_oid != att->atttypid)
            {
                Oid element = get_element_type(att->atttypid);
                if (element != InvalidOid)
                    arrays->push_back(Retyped{i, static_cast<int>(j), element});
            }
            break;
        }
    }
}

} // namespace

ArchiveCursor::ArchiveCursor(const std::string &dir) : dir_(dir), manifest_(ArchiveManifest(dir)) {}

ArchiveCursor::~ArchiveCursor()
{
    Close();
}

void ArchiveCursor::Bind(TupleDesc reldesc, List *needed)
{
    retyped_arrays_.clear();
    CheckColumnPositions(*manifest_, reldesc);
    AdoptColumnTypes(manifest_.get(), reldesc, &retyped_arrays_);
    const Manifest &m = *manifest_;
    codec_ = std::make_unique<RowCodec>(m);
    /* values are decoded only while the cursor is on a row, so while it holds the archive */
    if (HasDictionary(m))
        codec_->SetDictionaryFetch(
            [this](const std::string &key, std::string *value)
            {
                if (!dictionary_lookup_)
                    dictionary_lookup_ = std::make_unique<FamilyLookup>(handle_->dictionary, dir_);
                std::string_view found;
                if (!dictionary_lookup_->Find(key, &found))
                    return false;
                value->assign(found);
                return true;
            });
    attmap_.assign(reldesc->natts, -1);
    for (int i = 0; i < reldesc->natts; i++)
    {
        Form_pg_attribute att = TupleDescAttr(reldesc, i);
        if (att->attisdropped)
            continue;
        for (size_t j = 0; j < m.columns.size(); j++)
            if (m.columns[j].name == NameStr(att->attname))
            {
                if (m.columns[j].type_oid != att->atttypid)
                    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                                    errmsg("archived column \"%s\" has type %s, the table has %s",
                                           NameStr(att->attname), m.columns[j].type_name.c_str(),
                                           format_type_be(att->atttypid))));
                attmap_[i] = static_cast<int>(j);
            }
    }
    same_layout_ = attmap_.size() == m.columns.size();
    for (size_t i = 0; i < attmap_.size(); i++)
        same_layout_ = same_layout_ && attmap_[i] == static_cast<int>(i);
    needed_.assign(m.columns.size(), needed == NIL);
    ListCell *lc;
    foreach (lc, needed)
    {
        AttrNumber attnum = static_cast<AttrNumber>(lfirst_int(lc));
        if (attnum >= 1 && attnum <= reldesc->natts && attmap_[attnum - 1] >= 0)
            needed_[attmap_[attnum - 1]] = true;
    }
    deform_natts_ = 0;
    for (size_t j = 0; j < m.columns.size(); j++)
        if (needed_[j])
            deform_natts_ = static_cast<int>(j) + 1;
    archive_values_ = static_cast<Datum *>(palloc0(sizeof(Datum) * m.columns.size()));
    archive_nulls_ = static_cast<bool *>(palloc0(sizeof(bool) * m.columns.size()));
}

void ArchiveCursor::Start(int family, bool backward, std::string lower, std::string upper,
                          int64 prune_lo, int64 prune_hi, bool index_only)
{
    Close();
    handle_ = OpenArchive(dir_);
    if (family < 0 || static_cast<size_t>(family) > handle_->indexes.size())
        throw StatusError(rocksdb::Status::InvalidArgument("no such column family"),
                          "could not scan archive");
    family_ = family;
    backward_ = backward;
    index_only_ = index_only && family > 0;
    lower_ = std::move(lower);
    upper_ = std::move(upper);
    prune_lo_ = prune_lo;
    prune_hi_ = prune_hi;
    prune_active_ = prune_lo > manifest_->range_from || prune_hi < manifest_->range_to - 1;
    /* A full scan of the rows reads ahead in a helper thread (a short one is not worth it). */
    bool full_scan =
        family == 0 && lower_.empty() && upper_.empty() && manifest_->row_count >= kPrefetchMinRows;
    rocksdb::ReadOptions options;
    options.verify_checksums = true;
    if (full_scan)
    {
        /* every block is read once: keep them out of the cache (point lookups live there) and
         * read the files in large sequential requests */
        options.fill_cache = false;
        options.readahead_size = kFullScanReadahead;
    }
    if (!lower_.empty())
    {
        lower_slice_ = rocksdb::Slice(lower_);
        options.iterate_lower_bound = &lower_slice_;
    }
    if (!upper_.empty())
    {
        upper_slice_ = rocksdb::Slice(upper_);
        options.iterate_upper_bound = &upper_slice_;
    }
    const ArchiveFamily &read = family == 0 ? handle_->rows : handle_->indexes[family - 1];
    at_entry_ = true;
    if (full_scan)
    {
        prefetch_ = std::make_unique<Prefetcher>(read.path(), options, lower_, upper_,
                                                 SplitKeys(read.Properties().get(), lower_, upper_),
                                                 backward_, kFullScanThreads);
        return;
    }
    iter_.reset(read.NewIterator(options));
    if (backward_)
        iter_->SeekToLast();
    else
        iter_->SeekToFirst();
}

bool ArchiveCursor::Next()
{
    if (prefetch_)
        return NextPrefetched();
    if (!iter_)
        return false;
    for (;;)
    {
        if (!at_entry_)
        {
            if (backward_)
                iter_->Prev();
            else
                iter_->Next();
        }
        at_entry_ = false;
        if (!iter_->Valid())
        {
            CheckStatus(iter_->status(), "could not read archive " + dir_);
            Close();
            return false;
        }
        if ((++entries_read_ & 1023) == 0)
            CheckInterrupts();
        rocksdb::Slice key = iter_->key();
        std::string_view key_view(key.data(), key.size());
        if (family_ == 0)
            rowkey_view_ = key_view;
        else
        {
            codec_->layout().RowKeyFromIndexKey(family_ - 1, key_view, rowkey_);
            rowkey_view_ = rowkey_;
        }
        int64 partition_value;
        if (prune_active_ && codec_->layout().PartitionValue(rowkey_view_, &partition_value) &&
            (partition_value < prune_lo_ || partition_value > prune_hi_))
            continue;
        if (family_ == 0 || index_only_)
        {
            rocksdb::Slice value = iter_->value();
            value_view_ = std::string_view(value.data(), value.size());
            key_view_ = key_view;
        }
        else
        {
            if (!row_lookup_)
                row_lookup_ = std::make_unique<FamilyLookup>(handle_->rows, dir_);
            if (!row_lookup_->Find(rowkey_view_, &value_view_))
                throw StatusError(rocksdb::Status::Corruption("index entry without a row"),
                                  "could not read archive " + dir_);
        }
        rows_returned_++;
        return true;
    }
}

bool ArchiveCursor::NextPrefetched()
{
    for (;;)
    {
        std::string_view key, value;
        bool timed_out;
        if (!prefetch_->Next(&key, &value, 100, &timed_out))
        {
            if (timed_out)
            {
                CheckInterrupts();
                continue;
            }
            CheckStatus(prefetch_->status(), "could not read archive " + dir_);
            Close();
            return false;
        }
        if ((++entries_read_ & 1023) == 0)
            CheckInterrupts();
        int64 partition_value;
        if (prune_active_ && codec_->layout().PartitionValue(key, &partition_value) &&
            (partition_value < prune_lo_ || partition_value > prune_hi_))
            continue;
        rowkey_view_ = key;
        value_view_ = value;
        rows_returned_++;
        return true;
    }
}

void ArchiveCursor::Store(Datum *values, bool *isnull)
{
    StoreColumns(values, isnull);
    for (const auto &r : retyped_arrays_)
        if (!isnull[r.attribute])
        {
            ArrayType *array = DatumGetArrayTypePCopy(values[r.attribute]);
            /* kept, so that restore encodes the heap's arrays as archived (row checksum) */
            manifest_->columns[r.column].archived_element_oid = ARR_ELEMTYPE(array);
            ARR_ELEMTYPE(array) = r.element;
            values[r.attribute] = PointerGetDatum(array);
        }
}

void ArchiveCursor::StoreColumns(Datum *values, bool *isnull)
{
    size_t ncolumns = manifest_->columns.size();
    if (same_layout_ && !index_only_)
    {
        /* the relation's columns are the archive's: no mapping, no copy */
        codec_->DecodeRow(rowkey_view_, value_view_, values, isnull, &needed_, deform_natts_);
        return;
    }
    if (index_only_)
        codec_->DecodeIndexEntry(family_ - 1, key_view_, value_view_, archive_values_,
                                 archive_nulls_);
    else
        codec_->DecodeRow(rowkey_view_, value_view_, archive_values_, archive_nulls_, &needed_,
                          deform_natts_);
    for (size_t i = 0; i < attmap_.size(); i++)
    {
        int j = attmap_[i];
        if (j < 0 || static_cast<size_t>(j) >= ncolumns)
        {
            values[i] = (Datum)0;
            isnull[i] = true;
        }
        else
        {
            values[i] = archive_values_[j];
            isnull[i] = archive_nulls_[j];
        }
    }
}

void ArchiveCursor::Close()
{
    prefetch_.reset(); /* stops and joins the thread before the iterator goes */
    iter_.reset();
    row_lookup_.reset(); /* before the handle whose families they read */
    dictionary_lookup_.reset();
    handle_.reset(); /* the archive stays cached, and may be closed for another's files */
}

void CheckColumnPositions(const Manifest &m, TupleDesc reldesc)
{
    for (size_t j = 0; j < m.columns.size() && j < static_cast<size_t>(reldesc->natts); j++)
    {
        Form_pg_attribute att = TupleDescAttr(reldesc, static_cast<int>(j));
        if (!att->attisdropped && m.columns[j].name != NameStr(att->attname))
            throw ManifestError("the manifest names column " + std::to_string(j + 1) + " \"" +
                                m.columns[j].name + "\", the table \"" + NameStr(att->attname) +
                                "\"");
    }
}

void LoadDictionary(const ArchiveHandle &handle, ValueDictionary *dictionary)
{
    if (!HasDictionary(handle.manifest))
        return;
    rocksdb::ReadOptions options;
    options.verify_checksums = true;
    options.fill_cache = false;
    uint64 checksum = 0;
    std::unique_ptr<rocksdb::Iterator> it(handle.dictionary.NewIterator(options));
    for (it->SeekToFirst(); it->Valid(); it->Next())
    {
        std::string_view key(it->key().data(), it->key().size());
        std::string_view value(it->value().data(), it->value().size());
        int column = 0;
        uint32_t id = 0;
        if (!ParseDictionaryKey(key, &column, &id))
            throw StatusError(rocksdb::Status::Corruption("malformed dictionary key"),
                              "archive " + handle.dir + " failed verification");
        dictionary->Load(column, id, value);
        checksum += RowHash(key, value);
    }
    CheckStatus(it->status(), "could not read archive " + handle.dir);
    if (dictionary->entries() != handle.manifest.dictionary_entries ||
        checksum != handle.manifest.dictionary_checksum)
        throw StatusError(rocksdb::Status::Corruption("the dictionary does not match the manifest"),
                          "archive " + handle.dir + " failed verification");
}

HeapDigest DigestArchive(const std::string &dir, bool verify_blocks)
{
    std::shared_ptr<ArchiveHandle> handle = OpenArchive(dir);
    if (verify_blocks)
    {
        CheckStatus(handle->rows.VerifyChecksum(), "archive " + dir + " failed verification");
        for (const auto &index : handle->indexes)
            CheckStatus(index.VerifyChecksum(), "archive " + dir + " failed verification");
        CheckStatus(handle->dictionary.VerifyChecksum(), "archive " + dir + " failed verification");
    }
    HeapDigest digest;
    rocksdb::ReadOptions options;
    options.verify_checksums = true;
    options.fill_cache = false;
    /* Index families are counted in a helper thread (RocksDB only, every signal blocked) while
     * this one hashes the rows. */
    std::vector<uint64> index_entries(handle->indexes.size(), 0);
    uint64 dictionary_entries = 0;
    uint64 dictionary_checksum = 0;
    rocksdb::Status index_status;
    std::atomic<bool> stop{false}; /* set when this thread leaves early (error, cancel) */
    std::thread counter;
    {
        SignalBlocker blocker;
        counter = std::thread(
            [&]
            {
                for (size_t i = 0; i < handle->indexes.size() && index_status.ok(); i++)
                {
                    std::unique_ptr<rocksdb::Iterator> it(handle->indexes[i].NewIterator(options));
                    for (it->SeekToFirst(); it->Valid() && !stop; it->Next())
                        index_entries[i]++;
                    index_status = it->status();
                }
            });
    }
    struct Joiner /* joins the counter on every way out, exceptions included */
    {
        std::thread &thread;
        std::atomic<bool> &stop;
        ~Joiner()
        {
            stop = true;
            if (thread.joinable())
                thread.join();
        }
    } joiner{counter, stop};
    {
        std::unique_ptr<rocksdb::Iterator> it(handle->rows.NewIterator(options));
        for (it->SeekToFirst(); it->Valid(); it->Next())
        {
            if ((++digest.rows & 1023) == 0)
                CheckInterrupts();
            rocksdb::Slice k = it->key();
            rocksdb::Slice v = it->value();
            digest.checksum +=
                RowHash(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()));
        }
        CheckStatus(it->status(), "could not read archive " + dir);
    }
    counter.join();
    counter = std::thread(); /* joined: the Joiner must not join again */
    CheckStatus(index_status, "could not read archive " + dir);
    for (size_t i = 0; i < handle->indexes.size(); i++)
    {
        /* an entry per row, but in a partial index's family, which holds what the writer wrote */
        const ManifestFamily &family = handle->manifest.indexes[i];
        bool partial = std::any_of(family.key.begin(), family.key.end(),
                                   [](const ManifestKeyColumn &k) { return k.not_null; });
        uint64 expected = partial ? family.entries : digest.rows;
        if (index_entries[i] != expected || (partial && expected > digest.rows))
            throw StatusError(rocksdb::Status::Corruption("index family " + family.cf + " holds " +
                                                          std::to_string(index_entries[i]) +
                                                          " entries, not " +
                                                          std::to_string(expected) + " (" +
                                                          std::to_string(digest.rows) + " rows)"),
                              "archive " + dir + " failed verification");
    }
    if (HasDictionary(handle->manifest))
    {
        std::unique_ptr<rocksdb::Iterator> it(handle->dictionary.NewIterator(options));
        for (it->SeekToFirst(); it->Valid(); it->Next())
        {
            dictionary_entries++;
            dictionary_checksum +=
                RowHash(std::string_view(it->key().data(), it->key().size()),
                        std::string_view(it->value().data(), it->value().size()));
        }
        CheckStatus(it->status(), "could not read archive " + dir);
    }
    const Manifest &m = handle->manifest;
    if (dictionary_entries != m.dictionary_entries || dictionary_checksum != m.dictionary_checksum)
        throw StatusError(rocksdb::Status::Corruption(fmt::format(
                              "the dictionary holds {} entries (checksum {:x}), the manifest "
                              "records {} (checksum {:x})",
                              dictionary_entries, dictionary_checksum, m.dictionary_entries,
                              m.dictionary_checksum)),
                          "archive " + dir + " failed verification");
    return digest;
}

} // namespace permanode::fdw
