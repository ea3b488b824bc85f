/*
 * row_codec.cpp
 *	  Rows as archive keys and values. The rows family maps the row key (the partition's primary
 *	  key, or first unique index) to a MinimalTuple of the other columns; every index family maps
 *	  its key columns plus the missing row key columns to nothing. Varlenas are stored detoasted
 *	  and uncompressed, so the bytes of a row are canonical: the same row always encodes the same,
 *	  which is what the archive's checksum relies on. Dictionary columns are stored in their
 *	  dictionary form (engine/value_dictionary.hpp), itself a function of the value and the
 *	  dictionary.
 */
extern "C"
{
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/uuid.h"
}

#include <algorithm>

#include "permanode_fdw.hpp"

namespace permanode::fdw
{

/* engine/stored_row.cpp parses tuples without PostgreSQL's headers: its constants are these */
static_assert(kTupleLenOffset == offsetof(MinimalTupleData, t_len));
static_assert(kTupleInfomask2Offset == offsetof(MinimalTupleData, t_infomask2));
static_assert(kTupleInfomaskOffset == offsetof(MinimalTupleData, t_infomask));
static_assert(kTupleHoffOffset == offsetof(MinimalTupleData, t_hoff));
static_assert(kTupleHeaderBytes == SizeofMinimalTupleHeader);
static_assert(kMinimalTupleOffset == MINIMAL_TUPLE_OFFSET);
static_assert(kTupleHasNull == HEAP_HASNULL && kTupleNattsMask == HEAP_NATTS_MASK);
static_assert(kMaxAlign == MAXIMUM_ALIGNOF);
static_assert(TYPALIGN_CHAR == 'c' && TYPALIGN_SHORT == 's' && TYPALIGN_INT == 'i' &&
              TYPALIGN_DOUBLE == 'd');

KeyKind KeyKindOfType(Oid typid, int *fixed_len)
{
    *fixed_len = 0;
    switch (typid)
    {
        case INT2OID:
            return KeyKind::kInt16;
        case INT4OID:
        case DATEOID:
            return KeyKind::kInt32;
        case INT8OID:
        case TIMESTAMPOID:
        case TIMESTAMPTZOID:
        case TIMEOID:
            return KeyKind::kInt64;
        case BOOLOID:
            return KeyKind::kBool;
        case UUIDOID:
            *fixed_len = UUID_LEN;
            return KeyKind::kFixed;
        case BYTEAOID:
        case TEXTOID:
        case VARCHAROID:
            return KeyKind::kBytes;
        default:
            break;
    }
    /* The permanode extension's fixed-length ID types compare with memcmp. */
    int16 typlen;
    bool typbyval;
    get_typlenbyval(typid, &typlen, &typbyval);
    if (typlen > 0 && !typbyval)
    {
        Oid ext = getExtensionOfObject(TypeRelationId, typid);
        char *name = OidIsValid(ext) ? get_extension_name(ext) : nullptr;
        if (name != nullptr && strcmp(name, "permanode") == 0)
        {
            *fixed_len = typlen;
            return KeyKind::kFixed;
        }
    }
    return KeyKind::kNone;
}

uint64 RowHash(std::string_view key, std::string_view value)
{
    uint64 h = hash_bytes_extended(reinterpret_cast<const unsigned char *>(key.data()),
                                   static_cast<int>(key.size()), 0);
    return hash_bytes_extended(reinterpret_cast<const unsigned char *>(value.data()),
                               static_cast<int>(value.size()), h);
}

RowCodec::RowCodec(const Manifest &manifest) : manifest_(manifest)
{
    int n = static_cast<int>(manifest.columns.size());
    // PostgreSQL's part, through CallPg: an ereport becomes a PgError, which destroys the members
    // built so far (constructing a RowCodec inside a CallPg region would skip them).
    desc_ = pg::CallPg(
        [&]
        {
            TupleDesc desc = CreateTemplateTupleDesc(n);
            for (int i = 0; i < n; i++)
                TupleDescInitEntry(desc, static_cast<AttrNumber>(i + 1),
                                   manifest.columns[i].name.c_str(), manifest.columns[i].type_oid,
                                   manifest.columns[i].typmod, 0);
            return desc;
        });
    std::vector<StoredColumn> columns;
    for (int i = 0; i < n; i++)
    {
        Form_pg_attribute att = TupleDescAttr(desc_, i);
        columns.push_back(StoredColumn{att->attlen, att->attalign, att->attbyval});
    }
    layout_ = std::make_unique<RowLayout>(manifest, std::move(columns));
    fields_.resize(n);
    encoded_.resize(n);
    stored_.resize(n);
}

void RowCodec::EncodeColumns(const std::vector<ManifestKeyColumn> &columns,
                             const std::vector<KeyColumn> &kinds, size_t first, const Datum *values,
                             const bool *isnull, std::string &out) const
{
    for (size_t i = 0; i < columns.size(); i++)
    {
        const KeyColumn &kc = kinds[first + i];
        int column = columns[i].column;
        if (isnull[column])
        {
            EncodeNull(out, kc);
            continue;
        }
        Datum d = values[column];
        switch (kc.kind)
        {
            case KeyKind::kInt16:
                EncodeInt(out, kc, DatumGetInt16(d));
                break;
            case KeyKind::kInt32:
                EncodeInt(out, kc, DatumGetInt32(d));
                break;
            case KeyKind::kInt64:
                EncodeInt(out, kc, DatumGetInt64(d));
                break;
            case KeyKind::kBool:
                EncodeInt(out, kc, DatumGetBool(d) ? 1 : 0);
                break;
            case KeyKind::kFixed:
                EncodeBytes(out, kc, DatumGetPointer(d), kc.fixed_len);
                break;
            case KeyKind::kBytes:
                EncodeBytes(out, kc, VARDATA_ANY(DatumGetPointer(d)),
                            VARSIZE_ANY_EXHDR(DatumGetPointer(d)));
                break;
            case KeyKind::kNone:
                throw KeyFormatError("column " + manifest_.columns[column].name +
                                     " cannot be part of a key");
        }
    }
}

void RowCodec::EncodeKey(int index, const Datum *values, const bool *isnull, std::string &out) const
{
    const ManifestFamily &family = index < 0 ? manifest_.rows : manifest_.indexes[index];
    const std::vector<KeyColumn> &cols = index < 0 ? layout_->RowKey() : layout_->IndexKey(index);
    out.clear();
    EncodeColumns(family.key, cols, 0, values, isnull, out);
    EncodeColumns(family.suffix, cols, family.key.size(), values, isnull, out);
}

void RowCodec::EncodeInclude(int index, const Datum *values, const bool *isnull,
                             std::string &out) const
{
    out.clear();
    EncodeColumns(manifest_.indexes[index].include, layout_->Include(index), 0, values, isnull,
                  out);
}

void RowCodec::DecodeColumn(std::string_view key, size_t pos, const KeyColumn &kc, int column,
                            Datum *values, bool *isnull)
{
    if (IsNullAt(key, pos))
    {
        isnull[column] = true;
        values[column] = (Datum)0;
        return;
    }
    isnull[column] = false;
    switch (kc.kind)
    {
        case KeyKind::kInt16:
            values[column] = Int16GetDatum(static_cast<int16>(DecodeInt(key, pos, kc)));
            break;
        case KeyKind::kInt32:
            values[column] = Int32GetDatum(static_cast<int32>(DecodeInt(key, pos, kc)));
            break;
        case KeyKind::kInt64:
            values[column] = Int64GetDatum(DecodeInt(key, pos, kc));
            break;
        case KeyKind::kBool:
            values[column] = BoolGetDatum(DecodeInt(key, pos, kc) != 0);
            break;
        case KeyKind::kFixed:
        case KeyKind::kBytes:
        {
            DecodeBytes(key, pos, kc, scratch_);
            if (kc.kind == KeyKind::kFixed)
            {
                char *copy = static_cast<char *>(palloc(scratch_.size()));
                memcpy(copy, scratch_.data(), scratch_.size());
                values[column] = PointerGetDatum(copy);
            }
            else
            {
                struct varlena *copy =
                    static_cast<struct varlena *>(palloc(VARHDRSZ + scratch_.size()));
                SET_VARSIZE(copy, VARHDRSZ + scratch_.size());
                memcpy(VARDATA(copy), scratch_.data(), scratch_.size());
                values[column] = PointerGetDatum(copy);
            }
            break;
        }
        case KeyKind::kNone:
            throw KeyFormatError("key column cannot be decoded");
    }
}

void RowCodec::DecodeIndexEntry(int index, std::string_view key, std::string_view value,
                                Datum *values, bool *isnull)
{
    const ManifestFamily &family = manifest_.indexes[index];
    for (int i = 0; i < desc_->natts; i++)
    {
        values[i] = (Datum)0;
        isnull[i] = true;
    }
    size_t pos = 0;
    size_t i = 0;
    for (const auto *part : {&family.key, &family.suffix})
        for (const auto &c : *part)
        {
            const KeyColumn &kc = layout_->IndexKey(index)[i++];
            DecodeColumn(key, pos, kc, c.column, values, isnull);
            pos = SkipColumn(key, pos, kc);
        }
    pos = 0;
    i = 0;
    for (const auto &c : family.include)
    {
        const KeyColumn &kc = layout_->Include(index)[i++];
        DecodeColumn(value, pos, kc, c.column, values, isnull);
        pos = SkipColumn(value, pos, kc);
    }
}

void RowCodec::EncodeValue(const Datum *values, const bool *isnull, std::string &out)
{
    int n = desc_->natts;
    bool *nulls = static_cast<bool *>(palloc(n * sizeof(bool)));
    for (int i = 0; i < n; i++)
        nulls[i] = isnull[i] || layout_->InRowKey(i);
    if (!layout_->DictionaryColumns().empty())
    {
        if (dictionary_ == nullptr)
            throw KeyFormatError("no dictionary to encode the dictionary columns with");
        encode_values_.assign(values, values + n);
        for (int c : layout_->DictionaryColumns())
        {
            if (nulls[c])
                continue;
            auto *v = reinterpret_cast<struct varlena *>(DatumGetPointer(values[c]));
            dictionary_->Encode(c, std::string_view(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v)),
                                encoded_[c]);
            size_t size = VARHDRSZ + encoded_[c].size();
            stored_[c].resize((size + sizeof(uint64) - 1) / sizeof(uint64));
            char *p = reinterpret_cast<char *>(stored_[c].data());
            SET_VARSIZE(p, size);
            memcpy(VARDATA(p), encoded_[c].data(), encoded_[c].size());
            encode_values_[c] = PointerGetDatum(p);
        }
        values = encode_values_.data();
    }
    /* arrays of an archive made in another database name their element type as archived */
    std::vector<ArrayType *> relabeled;
    for (int c = 0; c < n; c++)
    {
        Oid element = manifest_.columns[c].archived_element_oid;
        if (element == InvalidOid || nulls[c])
            continue;
        if (values != encode_values_.data())
        {
            encode_values_.assign(values, values + n);
            values = encode_values_.data();
        }
        ArrayType *array = DatumGetArrayTypePCopy(values[c]);
        ARR_ELEMTYPE(array) = element;
        encode_values_[c] = PointerGetDatum(array);
        relabeled.push_back(array);
    }
    MinimalTuple tuple = heap_form_minimal_tuple(desc_, const_cast<Datum *>(values), nulls);
    out.assign(reinterpret_cast<const char *>(tuple), tuple->t_len);
    pfree(tuple);
    for (ArrayType *array : relabeled)
        pfree(array);
    pfree(nulls);
}

void RowCodec::DeformValue(std::string_view value, int natts, Datum *values, bool *isnull)
{
    layout_->ParseValue(value, natts, fields_.data());
    for (int i = 0; i < natts; i++)
    {
        const StoredField &f = fields_[i];
        isnull[i] = f.null;
        if (f.null)
        {
            values[i] = (Datum)0;
            continue;
        }
        Form_pg_attribute att = TupleDescAttr(desc_, i);
        values[i] = fetch_att(value.data() + f.offset, att->attbyval, att->attlen);
    }
}

void RowCodec::DecodeRow(std::string_view rowkey, std::string_view value, Datum *values,
                         bool *isnull, const std::vector<bool> *needed, int deform_natts)
{
    if (resolved_bytes_ > kMaxResolvedBytes)
    {
        resolved_.clear(); /* the previous row's datums are no longer read */
        resolved_bytes_ = 0;
    }
    if (deform_natts == 0)
    {
        /* nothing stored is read (count(*), or only row key columns): the header is checked */
        layout_->ParseValue(value, 0, nullptr);
        for (int i = 0; i < desc_->natts; i++)
        {
            values[i] = (Datum)0;
            isnull[i] = true;
        }
    }
    else
    {
        /* the datums point into the tuple: in place when aligned (the scan's read-ahead aligns
         * values), else into an aligned copy reused row after row; valid until the next row */
        const char *data = value.data();
        if (reinterpret_cast<uintptr_t>(data) % MAXIMUM_ALIGNOF != 0)
        {
            size_t words = (value.size() + sizeof(uint64) - 1) / sizeof(uint64);
            if (tuple_buffer_.size() < words)
                tuple_buffer_.resize(words);
            memcpy(tuple_buffer_.data(), data, value.size());
            data = reinterpret_cast<const char *>(tuple_buffer_.data());
        }
        /* parse only the columns up to the last one needed: the rest read as NULL */
        int natts = deform_natts > 0 ? std::min(deform_natts, desc_->natts) : desc_->natts;
        DeformValue(std::string_view(data, value.size()), natts, values, isnull);
        for (int i = natts; i < desc_->natts; i++)
        {
            values[i] = (Datum)0;
            isnull[i] = true;
        }
        for (int c : layout_->DictionaryColumns())
            if (!isnull[c] && (needed == nullptr || (*needed)[c]))
                values[c] = DecodeDictionaryColumn(c, values[c]);
    }

    size_t pos = 0;
    for (size_t r = 0; r < manifest_.rows.key.size(); r++)
    {
        const KeyColumn &kc = layout_->RowKey()[r];
        int column = manifest_.rows.key[r].column;
        if (needed == nullptr || (*needed)[column])
            DecodeColumn(rowkey, pos, kc, column, values, isnull);
        else
        {
            values[column] = (Datum)0; /* never read: NULL rather than a stale pointer */
            isnull[column] = true;
        }
        pos = SkipColumn(rowkey, pos, kc);
    }
    if (pos != rowkey.size())
        throw KeyFormatError("archived row key has trailing bytes");
}

Datum RowCodec::DecodeDictionaryColumn(int column, Datum stored)
{
    /* the stored varlena may lie in RocksDB's block cache: it is read, never rewritten */
    const char *p = DatumGetPointer(stored);
    bool reference = false;
    uint32_t id = 0;
    std::string_view bytes;
    if (!ParseDictionaryValue(std::string_view(VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p)), &reference,
                              &id, &bytes))
        throw KeyFormatError("archived row holds a malformed dictionary value in column " +
                             manifest_.columns[column].name);
    if (reference)
        return PointerGetDatum(ResolveDictionaryEntry(column, id));
    /* an inline value: copied into the column's buffer, reused row after row */
    size_t size = VARHDRSZ + bytes.size();
    stored_[column].resize((size + sizeof(uint64) - 1) / sizeof(uint64));
    char *copy = reinterpret_cast<char *>(stored_[column].data());
    SET_VARSIZE(copy, size);
    memcpy(VARDATA(copy), bytes.data(), bytes.size());
    return PointerGetDatum(copy);
}

const char *RowCodec::ResolveDictionaryEntry(int column, uint32 id)
{
    /* entries are kept across rows (values repeat), within a bound; the cache is only ever
     * cleared between rows' decoding, never under datums of the row being decoded */
    uint64 slot = static_cast<uint64>(column) << 32 | id;
    auto it = resolved_.find(slot);
    if (it != resolved_.end())
        return it->second.data();
    std::string value;
    if (!dictionary_fetch_ || !dictionary_fetch_(DictionaryKey(column, id), &value))
        throw KeyFormatError("archived row refers to a missing dictionary entry of column " +
                             manifest_.columns[column].name);
    std::string entry(VARHDRSZ, '\0');
    entry += value;
    SET_VARSIZE(entry.data(), entry.size());
    resolved_bytes_ += entry.size() + 64;
    return resolved_.emplace(slot, std::move(entry)).first->second.data();
}

} // namespace permanode::fdw
