/*
 * value_dictionary.hpp
 *	  Dictionary encoding of repeated column values in the rows family. Ledger rows repeat wide
 *	  values (an address in every output it owns, a tag, a sender), and a sorted run of random
 *	  output IDs leaves them far apart, out of zstd's reach. A dictionary column stores each value
 *	  as a marker byte and then either a reference (LEB128 id into the "dict" family) or the value
 *	  itself. The encoding is a function of the value and the final dictionary alone, so restore
 *	  reproduces it from the archived dictionary. Free of PostgreSQL headers.
 */
#ifndef PERMANODE_FDW_ENGINE_VALUE_DICTIONARY_HPP
#define PERMANODE_FDW_ENGINE_VALUE_DICTIONARY_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace permanode::fdw
{

inline constexpr char kDictInline = 0x00;    /* marker: the value's bytes follow */
inline constexpr char kDictReference = 0x01; /* marker: a LEB128 id follows */
/* Shorter values are always stored inline: a reference would save next to nothing. */
inline constexpr size_t kDictMinValueBytes = 8;

/* Key of a dictionary entry: column (2 bytes) then id (4 bytes), big-endian, so that entries
 * sort by column, then id. */
std::string DictionaryKey(int column, uint32_t id);
/* Parses a dictionary key; false when it is malformed. */
bool ParseDictionaryKey(std::string_view key, int *column, uint32_t *id);

/* Splits a stored dictionary-column value; false when it is malformed. */
bool ParseDictionaryValue(std::string_view stored, bool *reference, uint32_t *id,
                          std::string_view *bytes);

/* Value -> id maps of the dictionary columns, as the writer grows them or restore loads them. */
class ValueDictionary
{
  public:
    /* Grows until its entries take about budget_bytes; then stores new values inline. */
    explicit ValueDictionary(size_t budget_bytes) : budget_(budget_bytes) {}

    /* Appends the stored form of a dictionary column's value to out (after clearing it). */
    void Encode(int column, std::string_view value, std::string &out);

    /* Adds an archived entry (restore); the dictionary then only encodes, never grows. */
    void Load(int column, uint32_t id, std::string_view value);

    /* Calls f(key, value) for every entry, in key order. */
    void ForEachEntry(const std::function<void(std::string_view, std::string_view)> &f) const;

    uint64_t entries() const { return entries_; }

  private:
    struct Column
    {
        std::unordered_map<std::string, uint32_t> ids;
        std::vector<const std::string *> values; /* by id: keys of ids (node-stable) */
    };
    Column &ColumnAt(int column);

    std::vector<Column> columns_; /* by column number */
    size_t budget_;
    size_t bytes_ = 0;
    uint64_t entries_ = 0;
    bool frozen_ = false;
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_VALUE_DICTIONARY_HPP */
