/*
 * row_layout.cpp
 *	  Key layouts of an archive's families and the stored layout of its rows (see
 *	  row_layout.hpp).
 */
#include "engine/row_layout.hpp"

namespace permanode::fdw
{

namespace
{

/* Segments of an index key at most (RowKeyFromIndexKey keeps their offsets on the stack). */
constexpr size_t kMaxKeySegments = 63;

/* True when values of a column stored as `stored` are encoded in keys as `kind` says. */
bool EncodingSuits(const ManifestColumn &column, const StoredColumn &stored)
{
    switch (column.kind)
    {
        case KeyKind::kInt16:
            return stored.byval && stored.len == 2;
        case KeyKind::kInt32:
            return stored.byval && stored.len == 4;
        case KeyKind::kInt64:
            return stored.byval && stored.len == 8;
        case KeyKind::kBool:
            return stored.byval && stored.len == 1;
        case KeyKind::kFixed:
            return !stored.byval && stored.len == column.fixed_len;
        case KeyKind::kBytes:
            return stored.len == -1;
        default:
            return false;
    }
}

} // namespace

RowLayout::RowLayout(const Manifest &manifest, std::vector<StoredColumn> columns)
    : columns_(std::move(columns)), in_rowkey_(manifest.columns.size(), false)
{
    if (columns_.size() != manifest.columns.size())
        throw KeyFormatError("the archive's columns do not match its manifest");
    CheckFamily(manifest, manifest.rows);
    rowkey_ = FamilyKeyColumns(manifest, manifest.rows);
    for (size_t r = 0; r < manifest.rows.key.size(); r++)
    {
        int column = manifest.rows.key[r].column;
        in_rowkey_[column] = true;
        if (column == manifest.partition_column_index)
        {
            if (IntWidth(rowkey_[r].kind) == 1)
                throw KeyFormatError("the partition key is not an integer");
            partition_segment_ = static_cast<int>(r);
        }
    }
    for (const auto &index : manifest.indexes)
    {
        CheckFamily(manifest, index);
        index_keys_.push_back(FamilyKeyColumns(manifest, index));
        includes_.push_back(FamilyIncludeColumns(manifest, index));
        rowkey_sources_.push_back(RowKeySources(manifest, index));
    }
    for (size_t i = 0; i < manifest.columns.size(); i++)
        if (manifest.columns[i].dictionary && !in_rowkey_[i])
        {
            if (columns_[i].len != -1)
                throw KeyFormatError("dictionary column " + manifest.columns[i].name +
                                     " is not of variable length");
            dictionary_columns_.push_back(static_cast<int>(i));
        }
}

void RowLayout::CheckFamily(const Manifest &manifest, const ManifestFamily &family) const
{
    if (family.key.size() + family.suffix.size() > kMaxKeySegments)
        throw KeyFormatError("family " + family.cf + " has too many key columns");
    for (const auto *part : {&family.key, &family.suffix, &family.include})
        for (const auto &k : *part)
        {
            const ManifestColumn &column = manifest.columns[k.column];
            if (!EncodingSuits(column, columns_[k.column]))
                throw KeyFormatError("family " + family.cf + " encodes column " + column.name +
                                     " in a way its type cannot have");
        }
}

std::vector<RowLayout::RowKeySource> RowLayout::RowKeySources(const Manifest &manifest,
                                                              const ManifestFamily &index) const
{
    std::vector<RowKeySource> sources;
    for (const auto &rk : manifest.rows.key)
    {
        RowKeySource source{-1, false};
        int segment = 0;
        for (const auto *part : {&index.key, &index.suffix})
            for (const auto &c : *part)
            {
                if (source.segment < 0 && c.column == rk.column)
                    source = RowKeySource{segment, c.desc != rk.desc};
                segment++;
            }
        if (source.segment < 0)
            throw KeyFormatError("index family " + index.cf + " lacks a row key column");
        sources.push_back(source);
    }
    return sources;
}

void RowLayout::RowKeyFromIndexKey(int index, std::string_view key, std::string &rowkey) const
{
    const std::vector<KeyColumn> &cols = index_keys_[index];
    size_t offsets[kMaxKeySegments + 1];
    size_t pos = 0;
    for (size_t i = 0; i < cols.size(); i++)
    {
        offsets[i] = pos;
        pos = SkipColumn(key, pos, cols[i]);
    }
    offsets[cols.size()] = pos;
    if (pos != key.size())
        throw KeyFormatError("archived index key has trailing bytes");
    rowkey.clear();
    for (const auto &source : rowkey_sources_[index])
    {
        size_t start = offsets[source.segment];
        size_t len = offsets[source.segment + 1] - start;
        size_t at = rowkey.size();
        rowkey.append(key.data() + start, len);
        if (source.flip)
            for (size_t i = at + 1; i < rowkey.size(); i++)
                rowkey[i] = static_cast<char>(~static_cast<uint8_t>(rowkey[i]));
    }
}

bool RowLayout::PartitionValue(std::string_view rowkey, int64_t *value) const
{
    if (partition_segment_ < 0)
        return false;
    size_t pos = 0;
    for (int i = 0; i < partition_segment_; i++)
        pos = SkipColumn(rowkey, pos, rowkey_[i]);
    if (IsNullAt(rowkey, pos))
        return false;
    *value = DecodeInt(rowkey, pos, rowkey_[partition_segment_]);
    return true;
}

} // namespace permanode::fdw
