/*
 * manifest.hpp
 *	  The manifest of an archive directory: what the archive holds and how its keys are built.
 *	  Written last (atomically) when an archive is sealed; an archive without it is unsealed
 *	  and never opened. Free of PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_MANIFEST_HPP
#define PERMANODE_FDW_ENGINE_MANIFEST_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/key_encoding.hpp"

namespace permanode::fdw
{

inline constexpr int kManifestFormatVersion = 1;
inline constexpr const char *kManifestFile = "permanode_manifest.json";
inline constexpr const char *kDbSubdir = "db";
inline constexpr const char *kRowsFamily = "rows";
inline constexpr const char *kDictionaryFamily = "dict";

/* A column of the archived rows, in the order of the stored tuples. */
struct ManifestColumn
{
    std::string name;
    uint32_t type_oid = 0;
    uint32_t archived_type_oid = 0; /* type_oid as read from the file (not written back) */
    /* the element type OID of the archive's array values, when they were made in another
     * database (seen by a reader; not written back) */
    uint32_t archived_element_oid = 0;
    std::string type_name;
    int32_t typmod = -1;
    KeyKind kind = KeyKind::kNone; /* key encoding, kNone when not encodable */
    int fixed_len = 0;
    /* stored values are dictionary references or marked inline bytes (value_dictionary.hpp) */
    bool dictionary = false;
};

/* One key column of an index: a column of the archive and its direction. */
struct ManifestKeyColumn
{
    int column = 0; /* index into Manifest::columns */
    bool desc = false;
    bool nulls_first = false;
    /* the index holds only rows where this column is not NULL (WHERE column IS NOT NULL) */
    bool not_null = false;
};

/*
 * A column family: the rows (keyed by the row key) or one index. An index key is its key
 * columns followed by the row key columns it does not already hold (suffix), so it is unique and
 * the row key can be rebuilt from it.
 */
struct ManifestFamily
{
    std::string cf;   /* column family name */
    std::string name; /* the PostgreSQL index it mirrors */
    std::vector<ManifestKeyColumn> key;
    std::vector<ManifestKeyColumn> suffix;
    std::vector<ManifestKeyColumn> include; /* INCLUDE columns, encoded in the value */
    uint64_t entries = 0;
    /* the family's one SST file in db/, empty when it has none; archives sealed before the
     * manifest recorded it leave it empty, and a reader learns it from the database */
    std::string file;
};

/* A heap partition the archive replaced, so that restore can recreate it. */
struct ManifestPartition
{
    std::string schema;
    std::string name;
    int64_t range_from = 0;
    int64_t range_to = 0;
    uint64_t rows = 0;
    std::vector<std::string> own_indexes; /* CREATE INDEX / ADD CONSTRAINT of the partition's own */
};

struct Manifest
{
    int format_version = kManifestFormatVersion;
    std::string table_schema;
    std::string table_name;
    std::string partition_column;
    int partition_column_index = -1; /* into columns */
    int64_t range_from = 0;
    int64_t range_to = 0;
    uint64_t row_count = 0;
    uint64_t checksum = 0;
    std::string compression;
    std::string created_at;
    std::vector<ManifestColumn> columns;
    ManifestFamily rows; /* cf "rows", key = row key */
    /* cf "dict": the dictionary columns' shared values (empty: the archive has no such family) */
    uint64_t dictionary_entries = 0;
    uint64_t dictionary_checksum = 0;
    std::string dictionary_file; /* as ManifestFamily::file */
    std::vector<ManifestFamily> indexes;
    std::vector<ManifestPartition> partitions;
};

/* Serializes a manifest as JSON. */
std::string ManifestToJson(const Manifest &manifest);

/* A manifest that does not parse, or describes no archive this reader can read. */
class ManifestError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/* Parses a manifest; throws ManifestError when it is malformed or of another version. */
Manifest ManifestFromJson(const std::string &text);

/* The "indexes" option of the archive's foreign table: its families, with attnums (1 + column
 * index). */
std::string IndexesOption(const Manifest &manifest);

/*
 * Throws ManifestError unless the manifest describes the families (as an "indexes" option), the
 * range and the partition column (attnum) that its foreign table's options record. The options
 * are written from the manifest when the archive is made; plans are made from them and run
 * over the manifest's families.
 */
void CheckManifestDescribes(const Manifest &manifest, const std::string &indexes,
                            int64_t range_from, int64_t range_to, int partition_attnum);

/* Whether the manifest names the file of every family that holds entries. */
bool RecordsFamilyFiles(const Manifest &manifest);

/* True when some column is dictionary-encoded (the archive then has the "dict" family). */
bool HasDictionary(const Manifest &manifest);

/* The key columns (key, then suffix) of a family as encoding descriptors. */
std::vector<KeyColumn> FamilyKeyColumns(const Manifest &manifest, const ManifestFamily &family);

/* The INCLUDE columns of a family as encoding descriptors. */
std::vector<KeyColumn> FamilyIncludeColumns(const Manifest &manifest, const ManifestFamily &family);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_MANIFEST_HPP */
