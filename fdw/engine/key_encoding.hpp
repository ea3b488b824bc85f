/*
 * key_encoding.hpp
 *	  Memcomparable key encoding of the archive: byte-wise order of encoded keys equals the
 *	  order of the values, column by column, honouring ASC/DESC and NULLS FIRST/LAST.
 *	  Free of PostgreSQL headers.
 *
 *	  Every column starts with a marker byte: 0x00 NULL sorting first, 0x01 a value, 0x02 NULL
 *	  sorting last. The value follows the marker:
 *	  - integers (2, 4, 8 bytes): big endian with the sign bit flipped;
 *	  - bool: one byte, 0 or 1;
 *	  - fixed-length values compared with memcmp (uuid, the permanode ID types): the raw bytes;
 *	  - variable-length bytes (bytea, text): 0x00 escaped as 0x00 0xFF, then the terminator
 *	    0x00 0x01, so that no encoding is a prefix of another.
 *	  For a DESC column every byte after the marker is inverted. Every encoding is self-delimiting,
 *	  so a key is a plain concatenation and any column can be found by skipping the ones before.
 */
#ifndef PERMANODE_FDW_ENGINE_KEY_ENCODING_HPP
#define PERMANODE_FDW_ENGINE_KEY_ENCODING_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace permanode::fdw
{

/* How a column's values are encoded in keys. */
enum class KeyKind : uint8_t
{
    kNone,  /* not encodable: the column cannot be part of a key */
    kInt16, /* int2 */
    kInt32, /* int4, date */
    kInt64, /* int8, timestamp, timestamptz, time */
    kBool,  /* bool */
    kFixed, /* fixed-length bytes in memcmp order */
    kBytes  /* variable-length bytes: bytea, text */
};

/* One column of a key: its encoding, direction and NULL placement. */
struct KeyColumn
{
    KeyKind kind = KeyKind::kNone;
    int fixed_len = 0; /* bytes of a kFixed value */
    bool desc = false;
    bool nulls_first = false;
};

/* A key that does not decode (a corrupt archive, or a bug). */
class KeyFormatError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

inline constexpr uint8_t kMarkerNullFirst = 0x00;
inline constexpr uint8_t kMarkerValue = 0x01;
inline constexpr uint8_t kMarkerNullLast = 0x02;

/* Appends a NULL of column col. */
void EncodeNull(std::string &out, const KeyColumn &col);

/* Appends an integer (kInt16/32/64) or bool; the caller checks that value fits the width. */
void EncodeInt(std::string &out, const KeyColumn &col, int64_t value);

/* Appends a kFixed or kBytes value. */
void EncodeBytes(std::string &out, const KeyColumn &col, const char *data, size_t len);

/* Width in bytes of an integer kind (1 for bool). */
int IntWidth(KeyKind kind);

/* Smallest and largest value an integer kind holds. */
int64_t IntMin(KeyKind kind);
int64_t IntMax(KeyKind kind);

/* Returns the position just after the column that starts at pos. */
size_t SkipColumn(std::string_view key, size_t pos, const KeyColumn &col);

/* True when the column at pos is NULL. */
bool IsNullAt(std::string_view key, size_t pos);

/* Decodes the integer (or bool) column that starts at pos (not NULL). */
int64_t DecodeInt(std::string_view key, size_t pos, const KeyColumn &col);

/* Decodes the kFixed or kBytes column that starts at pos (not NULL) into out. */
void DecodeBytes(std::string_view key, size_t pos, const KeyColumn &col, std::string &out);

/* The smallest key greater than every key starting with prefix; empty means unbounded. */
std::string PrefixSuccessor(std::string_view prefix);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_KEY_ENCODING_HPP */
