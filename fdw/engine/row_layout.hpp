/*
 * row_layout.hpp
 *	  How an archive's rows are laid out, from its manifest and the stored layout of its
 *	  columns: the encodings of each family's key columns, the row key rebuilt from an index
 *	  key, the partition key read from a row key, which columns a stored row holds and which of
 *	  them are dictionary-encoded. Built once per reader, it checks the manifest against the
 *	  columns' types (a key column's encoding must suit its type), so that a manifest that lies
 *	  fails there rather than having keys decoded into values of another type. Free of
 *	  PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_ROW_LAYOUT_HPP
#define PERMANODE_FDW_ENGINE_ROW_LAYOUT_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/key_encoding.hpp"
#include "engine/manifest.hpp"
#include "engine/stored_row.hpp"

namespace permanode::fdw
{

class RowLayout
{
  public:
    /*
     * The layout of manifest's rows, whose columns are stored as `columns` (one per manifest
     * column). Throws KeyFormatError when the families cannot be read with them: a key column
     * whose encoding does not suit its type, an index without a row key column, a dictionary
     * column of fixed length.
     */
    RowLayout(const Manifest &manifest, std::vector<StoredColumn> columns);

    /* The key columns of the rows family. */
    const std::vector<KeyColumn> &RowKey() const { return rowkey_; }
    /* The key columns (key, then suffix) and the INCLUDE columns of index family `index`. */
    const std::vector<KeyColumn> &IndexKey(int index) const { return index_keys_[index]; }
    const std::vector<KeyColumn> &Include(int index) const { return includes_[index]; }
    /* The stored layout of every column. */
    const std::vector<StoredColumn> &Columns() const { return columns_; }
    /* Whether a column is part of the row key (stored NULL in the value). */
    bool InRowKey(int column) const { return in_rowkey_[column]; }
    /* The dictionary-encoded columns of the stored value. */
    const std::vector<int> &DictionaryColumns() const { return dictionary_columns_; }

    /* Rebuilds the row key from the key of index family `index`. */
    void RowKeyFromIndexKey(int index, std::string_view key, std::string &rowkey) const;

    /* The partition key value held in a row key; false if the row key does not hold it. */
    bool PartitionValue(std::string_view rowkey, int64_t *value) const;

    /* Parses a stored value's first ncolumns columns into fields (see ParseStoredRow). */
    void ParseValue(std::string_view value, size_t ncolumns, StoredField *fields) const
    {
        ParseStoredRow(value, columns_, ncolumns, fields);
    }

  private:
    /* Where a row key column comes from in an index key: segment number, direction flip. */
    struct RowKeySource
    {
        int segment;
        bool flip;
    };
    /* Checks that every column of family's key, suffix and INCLUDE can be decoded. */
    void CheckFamily(const Manifest &manifest, const ManifestFamily &family) const;
    /* Finds where each row key column lies in the key of index. */
    std::vector<RowKeySource> RowKeySources(const Manifest &manifest,
                                            const ManifestFamily &index) const;

    std::vector<StoredColumn> columns_;
    std::vector<bool> in_rowkey_;
    std::vector<int> dictionary_columns_;
    std::vector<KeyColumn> rowkey_;
    std::vector<std::vector<KeyColumn>> index_keys_;
    std::vector<std::vector<KeyColumn>> includes_;
    std::vector<std::vector<RowKeySource>> rowkey_sources_; /* per index, per row key column */
    int partition_segment_ = -1; /* position of the partition key in the row key, or -1 */
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_ROW_LAYOUT_HPP */
