// Stored rows parsed without PostgreSQL (engine/stored_row.hpp): a tuple laid out as
// heap_form_minimal_tuple lays it out gives each column's bytes, and every way a value can fail
// to fit its columns is refused; RowLayout refuses key encodings the columns' types cannot have.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/row_layout.hpp"
#include "engine/stored_row.hpp"

using namespace permanode::fdw;

namespace
{

/* int4, text, int8, bytea: PostgreSQL's attlen, attalign, attbyval. */
const std::vector<StoredColumn> kColumns = {
    {4, 'i', true}, {-1, 'i', false}, {8, 'd', true}, {-1, 'i', false}};

/*
 * The tuple of (7, 'abc', NULL, '\x010203'): a 16-byte header (t_len, padding, 4 columns,
 * HASNULL, t_hoff 24, the NULL bitmap 0b1011), then at 16 the int4, at 20 the text with a one-byte
 * header, and at 24 (aligned) the bytea with a four-byte header.
 */
std::string SampleTuple()
{
    std::string t(31, '\0');
    uint32_t len = 31;
    memcpy(&t[0], &len, 4);
    t[10] = 4;    /* t_infomask2: natts */
    t[12] = 0x03; /* t_infomask: HASNULL | HASVARWIDTH */
    t[14] = 24;   /* t_hoff: 8 before the minimal tuple, 16 into it */
    t[15] = 0x0B; /* columns 0, 1 and 3 are not NULL */
    int32_t i4 = 7;
    memcpy(&t[16], &i4, 4);
    t[20] = (4 << 1) | 1; /* one-byte header: 4 bytes in all */
    memcpy(&t[21], "abc", 3);
    uint32_t header = 7 << 2; /* four-byte header, uncompressed: 7 bytes in all */
    memcpy(&t[24], &header, 4);
    memcpy(&t[28], "\x01\x02\x03", 3);
    return t;
}

/* The tuple as an 8-byte aligned view, as the reader aligns values. */
struct Aligned
{
    explicit Aligned(const std::string &bytes) : words((bytes.size() + 7) / 8), size(bytes.size())
    {
        memcpy(words.data(), bytes.data(), bytes.size());
    }
    std::string_view view() const { return {reinterpret_cast<const char *>(words.data()), size}; }
    std::vector<uint64_t> words;
    size_t size;
};

std::vector<StoredField> ParseTuple(const std::string &tuple, size_t ncolumns = 4)
{
    std::vector<StoredField> fields(ncolumns);
    ParseStoredRow(Aligned(tuple).view(), kColumns, ncolumns, fields.data());
    return fields;
}

void SetLength(std::string &t)
{
    uint32_t len = static_cast<uint32_t>(t.size());
    memcpy(&t[0], &len, 4);
}

} // namespace

TEST(StoredRow, ParsesEachColumnsBytes)
{
    std::vector<StoredField> f = ParseTuple(SampleTuple());
    EXPECT_FALSE(f[0].null);
    EXPECT_EQ(f[0].offset, 16u);
    EXPECT_EQ(f[0].size, 4u);
    EXPECT_EQ(f[1].offset, 20u);
    EXPECT_EQ(f[1].size, 4u);
    EXPECT_TRUE(f[2].null);
    EXPECT_EQ(f[3].offset, 24u);
    EXPECT_EQ(f[3].size, 7u);
}

TEST(StoredRow, ParsesOnlyTheColumnsAsked)
{
    std::vector<StoredField> f = ParseTuple(SampleTuple(), 2);
    EXPECT_EQ(f[1].offset, 20u);
    /* columns the tuple does not hold read as NULL */
    std::string t = SampleTuple();
    t[10] = 2;
    t.resize(24);
    SetLength(t);
    f = ParseTuple(t);
    EXPECT_FALSE(f[1].null);
    EXPECT_TRUE(f[2].null);
    EXPECT_TRUE(f[3].null);
}

TEST(StoredRow, RefusesWhatDoesNotFit)
{
    auto refused = [](std::string t, const char *why)
    { EXPECT_THROW(ParseTuple(t), KeyFormatError) << why; };
    std::string t = SampleTuple();
    refused(t.substr(0, 10), "shorter than a header");
    t = SampleTuple();
    t[0] = 30;
    refused(t, "t_len is not the value's size");
    t = SampleTuple();
    t[14] = 25;
    refused(t, "t_hoff leaves the data unaligned");
    t = SampleTuple();
    t[14] = 16;
    refused(t, "t_hoff points into the header");
    t = SampleTuple();
    t[10] = 5;
    refused(t, "more columns than the archive has");
    t = SampleTuple();
    t[20] = 0x01;
    refused(t, "a TOAST pointer");
    t = SampleTuple();
    t[24] |= 0x02;
    refused(t, "a compressed value");
    t = SampleTuple();
    t[24] = 0x7c; /* 31 bytes, beyond the tuple's end */
    refused(t, "a value ending beyond the tuple");
    t = SampleTuple();
    t[24] = 0x08; /* 2 bytes: shorter than its header */
    refused(t, "a value shorter than its header");
    t = SampleTuple() + '\0';
    SetLength(t);
    refused(t, "trailing bytes");
    t = SampleTuple();
    t[15] = 0x0F; /* the NULL column holds 8 bytes at 32: beyond the end */
    refused(t, "a column the bitmap says is there");
}

TEST(RowLayout, RefusesKeyEncodingsTheTypesCannotHave)
{
    Manifest m;
    m.columns.resize(2);
    m.columns[0].name = "id";
    m.columns[0].kind = KeyKind::kInt64;
    m.columns[1].name = "data";
    m.columns[1].kind = KeyKind::kBytes;
    m.partition_column_index = 0;
    m.rows.cf = kRowsFamily;
    m.rows.key = {ManifestKeyColumn{0}};
    std::vector<StoredColumn> int8_bytea = {{8, 'd', true}, {-1, 'i', false}};
    EXPECT_NO_THROW(RowLayout(m, int8_bytea));
    /* a manifest that says the row key is bytes, over an int8 column */
    m.columns[0].kind = KeyKind::kBytes;
    EXPECT_THROW(RowLayout(m, int8_bytea), KeyFormatError);
    /* a fixed length that is not the type's */
    m.columns[0].kind = KeyKind::kFixed;
    m.columns[0].fixed_len = 8;
    EXPECT_THROW(RowLayout(m, int8_bytea), KeyFormatError);
    /* an index whose key lacks the row key */
    m.columns[0].kind = KeyKind::kInt64;
    m.columns[0].fixed_len = 0;
    ManifestFamily index;
    index.cf = "i1";
    index.key = {ManifestKeyColumn{1}};
    m.indexes.push_back(index);
    EXPECT_THROW(RowLayout(m, int8_bytea), KeyFormatError);
}
