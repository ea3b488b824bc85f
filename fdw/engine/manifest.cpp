/*
 * manifest.cpp
 *	  Manifest (de)serialization with nlohmann::json.
 */
#include "engine/manifest.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

namespace permanode::fdw
{

namespace
{

using nlohmann::json;

/* The integer `key` of `object` as a T: a number that is no integer, or one outside T's range,
 * is a ManifestError (json's own conversion casts a float, 1e51 too, to the integer type). */
template <typename T> T IntegerAt(const json &object, const char *key)
{
    const json &value = object.at(key);
    bool fits = false;
    if (value.is_number_unsigned())
        fits = value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max());
    else if (value.is_number_integer())
    {
        int64_t v = value.get<int64_t>();
        fits = std::numeric_limits<T>::is_signed
                   ? v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                         v <= static_cast<int64_t>(std::numeric_limits<T>::max())
                   : v >= 0;
    }
    if (!fits)
        throw ManifestError(std::string("manifest gives \"") + key + "\" as " + value.dump(-1) +
                            ", not an integer it can hold");
    return value.get<T>();
}

/* The same, `fallback` where the key is absent (archives written before it). */
template <typename T> T IntegerOr(const json &object, const char *key, T fallback)
{
    return object.contains(key) ? IntegerAt<T>(object, key) : fallback;
}

/* Columns a PostgreSQL table has at most (MaxHeapAttributeNumber). */
constexpr size_t kMaxColumns = 1600;

/* A column as recorded; throws ManifestError for a key encoding no reader knows. */
ManifestColumn ColumnFromJson(const json &c)
{
    ManifestColumn col;
    col.name = c.at("name").get<std::string>();
    col.type_oid = IntegerAt<uint32_t>(c, "type_oid");
    col.archived_type_oid = col.type_oid;
    col.type_name = c.at("type_name").get<std::string>();
    col.typmod = IntegerAt<int32_t>(c, "typmod");
    int kind = IntegerAt<int>(c, "kind");
    col.fixed_len = IntegerAt<int>(c, "fixed_len");
    col.dictionary = c.value("dictionary", false); /* absent in older archives */
    if (kind < static_cast<int>(KeyKind::kNone) || kind > static_cast<int>(KeyKind::kBytes))
        throw ManifestError("manifest gives column " + col.name + " an unknown key encoding");
    col.kind = static_cast<KeyKind>(kind);
    if (col.fixed_len < 0 || (col.kind == KeyKind::kFixed) != (col.fixed_len > 0))
        throw ManifestError("manifest gives column " + col.name + " an invalid length");
    return col;
}

/* Throws ManifestError unless the families' names are those a reader opens: "rows", then
 * distinct names of none of the other families. */
void CheckFamilyNames(const Manifest &m)
{
    if (m.rows.cf != kRowsFamily)
        throw ManifestError("manifest names the rows family \"" + m.rows.cf + "\"");
    std::vector<std::string> seen{kRowsFamily, kDictionaryFamily, "default"};
    for (const auto &f : m.indexes)
    {
        if (std::find(seen.begin(), seen.end(), f.cf) != seen.end())
            throw ManifestError("manifest names family \"" + f.cf + "\" twice");
        seen.push_back(f.cf);
    }
}

json KeyColumnsToJson(const std::vector<ManifestKeyColumn> &cols)
{
    json out = json::array();
    for (const auto &c : cols)
    {
        json column = {{"column", c.column}, {"desc", c.desc}, {"nulls_first", c.nulls_first}};
        if (c.not_null)
            column["not_null"] = true; /* absent in archives written before partial indexes */
        out.push_back(std::move(column));
    }
    return out;
}

std::vector<ManifestKeyColumn> KeyColumnsFromJson(const json &in, size_t ncolumns)
{
    std::vector<ManifestKeyColumn> out;
    for (const auto &c : in)
    {
        ManifestKeyColumn k;
        k.column = IntegerAt<int>(c, "column");
        k.desc = c.at("desc").get<bool>();
        k.nulls_first = c.at("nulls_first").get<bool>();
        k.not_null = c.value("not_null", false);
        if (k.column < 0 || static_cast<size_t>(k.column) >= ncolumns)
            throw ManifestError("manifest names a column that does not exist");
        out.push_back(k);
    }
    return out;
}

json FamilyToJson(const ManifestFamily &f)
{
    json out = {{"cf", f.cf},
                {"name", f.name},
                {"key", KeyColumnsToJson(f.key)},
                {"suffix", KeyColumnsToJson(f.suffix)},
                {"include", KeyColumnsToJson(f.include)},
                {"entries", f.entries}};
    if (!f.file.empty())
        out["file"] = f.file; /* absent in archives sealed before readers opened files directly */
    return out;
}

/* A family's file name as recorded: the name of a table file in db/ (digits, ".sst"), never a
 * path that leaves it. */
std::string FileFromJson(const json &in, const char *key, const std::string &family)
{
    std::string file = in.value(key, std::string());
    constexpr std::string_view kSuffix = ".sst";
    bool digits = file.size() > kSuffix.size() && file.size() <= 32 &&
                  std::all_of(file.begin(), file.end() - kSuffix.size(),
                              [](char c) { return c >= '0' && c <= '9'; }) &&
                  file.compare(file.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
    if (!file.empty() && !digits)
        throw ManifestError("manifest names \"" + file + "\" as the file of family " + family);
    return file;
}

ManifestFamily FamilyFromJson(const json &in, size_t ncolumns)
{
    ManifestFamily f;
    f.cf = in.at("cf").get<std::string>();
    f.name = in.at("name").get<std::string>();
    f.key = KeyColumnsFromJson(in.at("key"), ncolumns);
    f.suffix = KeyColumnsFromJson(in.at("suffix"), ncolumns);
    f.include = KeyColumnsFromJson(in.at("include"), ncolumns);
    f.entries = IntegerAt<uint64_t>(in, "entries");
    f.file = FileFromJson(in, "file", f.cf);
    /* INCLUDE columns are written ascending, NULLs last: the foreign table's options record
     * only their numbers, so this is where another order is caught */
    for (const auto &k : f.include)
        if (k.desc || k.nulls_first || k.not_null)
            throw ManifestError("manifest gives an INCLUDE column of family " + f.cf + " an order");
    return f;
}

} // namespace

std::string ManifestToJson(const Manifest &m)
{
    json columns = json::array();
    for (const auto &c : m.columns)
        columns.push_back({{"name", c.name},
                           {"type_oid", c.type_oid},
                           {"type_name", c.type_name},
                           {"typmod", c.typmod},
                           {"kind", static_cast<int>(c.kind)},
                           {"fixed_len", c.fixed_len},
                           {"dictionary", c.dictionary}});
    json indexes = json::array();
    for (const auto &f : m.indexes)
        indexes.push_back(FamilyToJson(f));
    json partitions = json::array();
    for (const auto &p : m.partitions)
        partitions.push_back({{"schema", p.schema},
                              {"name", p.name},
                              {"range_from", p.range_from},
                              {"range_to", p.range_to},
                              {"rows", p.rows},
                              {"own_indexes", p.own_indexes}});
    json out = {{"format_version", m.format_version},
                {"table_schema", m.table_schema},
                {"table_name", m.table_name},
                {"partition_column", m.partition_column},
                {"partition_column_index", m.partition_column_index},
                {"range_from", m.range_from},
                {"range_to", m.range_to},
                {"row_count", m.row_count},
                {"checksum", m.checksum},
                {"compression", m.compression},
                {"created_at", m.created_at},
                {"columns", columns},
                {"rows", FamilyToJson(m.rows)},
                {"dictionary_entries", m.dictionary_entries},
                {"dictionary_checksum", m.dictionary_checksum},
                {"indexes", indexes},
                {"partitions", partitions}};
    if (!m.dictionary_file.empty())
        out["dictionary_file"] = m.dictionary_file;
    return out.dump(1);
}

Manifest ManifestFromJson(const std::string &text)
{
    try
    {
        json in = json::parse(text);
        Manifest m;
        m.format_version = IntegerAt<int>(in, "format_version");
        if (m.format_version != kManifestFormatVersion)
            throw ManifestError("unsupported archive format version " +
                                std::to_string(m.format_version));
        m.table_schema = in.at("table_schema").get<std::string>();
        m.table_name = in.at("table_name").get<std::string>();
        m.partition_column = in.at("partition_column").get<std::string>();
        m.partition_column_index = IntegerAt<int>(in, "partition_column_index");
        m.range_from = IntegerAt<int64_t>(in, "range_from");
        m.range_to = IntegerAt<int64_t>(in, "range_to");
        m.row_count = IntegerAt<uint64_t>(in, "row_count");
        m.checksum = IntegerAt<uint64_t>(in, "checksum");
        m.compression = in.at("compression").get<std::string>();
        m.created_at = in.at("created_at").get<std::string>();
        for (const auto &c : in.at("columns"))
            m.columns.push_back(ColumnFromJson(c));
        size_t n = m.columns.size();
        if (n > kMaxColumns)
            throw ManifestError("manifest records " + std::to_string(n) + " columns");
        if (m.partition_column_index < 0 || static_cast<size_t>(m.partition_column_index) >= n)
            throw ManifestError("manifest names no partition column");
        m.rows = FamilyFromJson(in.at("rows"), n);
        m.dictionary_entries = IntegerOr<uint64_t>(in, "dictionary_entries", 0);
        m.dictionary_checksum = IntegerOr<uint64_t>(in, "dictionary_checksum", 0);
        m.dictionary_file = FileFromJson(in, "dictionary_file", kDictionaryFamily);
        for (const auto &f : in.at("indexes"))
            m.indexes.push_back(FamilyFromJson(f, n));
        for (const auto &p : in.at("partitions"))
        {
            ManifestPartition part;
            part.schema = p.at("schema").get<std::string>();
            part.name = p.at("name").get<std::string>();
            part.range_from = IntegerAt<int64_t>(p, "range_from");
            part.range_to = IntegerAt<int64_t>(p, "range_to");
            part.rows = IntegerAt<uint64_t>(p, "rows");
            part.own_indexes = p.at("own_indexes").get<std::vector<std::string>>();
            m.partitions.push_back(part);
        }
        CheckFamilyNames(m);
        if (m.dictionary_entries > 0 && !HasDictionary(m))
            throw ManifestError("manifest records dictionary entries but no dictionary column");
        return m;
    }
    catch (const nlohmann::json::exception &e)
    {
        throw ManifestError(std::string("malformed archive manifest: ") + e.what());
    }
}

std::string IndexesOption(const Manifest &manifest)
{
    std::string out;
    auto clean = [](const std::string &name)
    {
        std::string s = name;
        for (char &c : s)
            if (c == ';' || c == ':' || c == ',')
                c = '_';
        return s;
    };
    auto family = [&](const ManifestFamily &f)
    {
        if (!out.empty())
            out += ';';
        out += f.cf + ":" + clean(f.name) + ":";
        bool first = true;
        for (const auto *part : {&f.key, &f.suffix})
            for (const auto &k : *part)
            {
                if (!first)
                    out += ',';
                first = false;
                out += std::to_string(k.column + 1) + (k.desc ? "d" : "a") +
                       (k.nulls_first ? "f" : "l") + (k.not_null ? "n" : "");
            }
        if (!f.include.empty())
        {
            out += ':';
            for (size_t i = 0; i < f.include.size(); i++)
                out += (i ? "," : "") + std::to_string(f.include[i].column + 1);
        }
    };
    family(manifest.rows);
    for (const auto &f : manifest.indexes)
        family(f);
    return out;
}

void CheckManifestDescribes(const Manifest &manifest, const std::string &indexes,
                            int64_t range_from, int64_t range_to, int partition_attnum)
{
    std::string families = IndexesOption(manifest);
    if (families != indexes)
        throw ManifestError("the manifest describes the families \"" + families +
                            "\", the foreign table \"" + indexes + "\"");
    if (manifest.range_from != range_from || manifest.range_to != range_to ||
        manifest.partition_column_index + 1 != partition_attnum)
        throw ManifestError("the manifest holds [" + std::to_string(manifest.range_from) + ", " +
                            std::to_string(manifest.range_to) + ") of column " +
                            std::to_string(manifest.partition_column_index + 1) +
                            ", the foreign table [" + std::to_string(range_from) + ", " +
                            std::to_string(range_to) + ") of column " +
                            std::to_string(partition_attnum));
}

bool RecordsFamilyFiles(const Manifest &manifest)
{
    auto recorded = [](uint64_t entries, const std::string &file)
    { return entries == 0 || !file.empty(); };
    if (!recorded(manifest.rows.entries, manifest.rows.file) ||
        !recorded(manifest.dictionary_entries, manifest.dictionary_file))
        return false;
    return std::all_of(manifest.indexes.begin(), manifest.indexes.end(),
                       [&](const ManifestFamily &f) { return recorded(f.entries, f.file); });
}

bool HasDictionary(const Manifest &manifest)
{
    for (const auto &c : manifest.columns)
        if (c.dictionary)
            return true;
    return false;
}

std::vector<KeyColumn> FamilyKeyColumns(const Manifest &manifest, const ManifestFamily &family)
{
    std::vector<KeyColumn> out;
    for (const auto *part : {&family.key, &family.suffix})
        for (const auto &k : *part)
        {
            const ManifestColumn &c = manifest.columns[k.column];
            out.push_back(KeyColumn{c.kind, c.fixed_len, k.desc, k.nulls_first});
        }
    return out;
}

std::vector<KeyColumn> FamilyIncludeColumns(const Manifest &manifest, const ManifestFamily &family)
{
    std::vector<KeyColumn> out;
    for (const auto &k : family.include)
    {
        const ManifestColumn &c = manifest.columns[k.column];
        out.push_back(KeyColumn{c.kind, c.fixed_len, k.desc, k.nulls_first});
    }
    return out;
}

} // namespace permanode::fdw
