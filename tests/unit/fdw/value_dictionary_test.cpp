// The dictionary encoding of archived values: stored forms, key order, the memory budget, and
// that a loaded dictionary encodes exactly as the one that grew (restore depends on it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/value_dictionary.hpp"

using namespace permanode::fdw;

namespace
{

struct Decoded
{
    bool reference = false;
    uint32_t id = 0;
    std::string bytes;
};

Decoded Parse(const std::string &stored)
{
    Decoded d;
    std::string_view bytes;
    EXPECT_TRUE(ParseDictionaryValue(stored, &d.reference, &d.id, &bytes)) << stored;
    d.bytes = std::string(bytes);
    return d;
}

} // namespace

TEST(ValueDictionary, RepeatedValuesBecomeReferences)
{
    ValueDictionary dict(1 << 20);
    std::string a, b, c;
    dict.Encode(3, "an address of many bytes", a);
    dict.Encode(3, "another address of many bytes", b);
    dict.Encode(3, "an address of many bytes", c);
    EXPECT_EQ(a, c);
    EXPECT_TRUE(Parse(a).reference);
    EXPECT_EQ(Parse(a).id, 0u);
    EXPECT_EQ(Parse(b).id, 1u);
    EXPECT_EQ(dict.entries(), 2u);
    // ids count per column
    std::string other;
    dict.Encode(5, "an address of many bytes", other);
    EXPECT_EQ(Parse(other).id, 0u);
}

TEST(ValueDictionary, ShortValuesStayInline)
{
    ValueDictionary dict(1 << 20);
    std::string stored;
    dict.Encode(1, "short", stored);
    Decoded d = Parse(stored);
    EXPECT_FALSE(d.reference);
    EXPECT_EQ(d.bytes, "short");
    dict.Encode(1, "", stored);
    EXPECT_EQ(Parse(stored).bytes, "");
    EXPECT_EQ(dict.entries(), 0u);
}

TEST(ValueDictionary, BudgetStoresTheRestInline)
{
    ValueDictionary dict(300); // room for a few entries only
    std::vector<std::string> stored(20);
    for (int i = 0; i < 20; i++)
        dict.Encode(0, "value number " + std::to_string(i), stored[i]);
    EXPECT_GT(dict.entries(), 0u);
    EXPECT_LT(dict.entries(), 20u);
    EXPECT_TRUE(Parse(stored[0]).reference);
    Decoded last = Parse(stored[19]);
    EXPECT_FALSE(last.reference);
    EXPECT_EQ(last.bytes, "value number 19");
    // a value already entered stays a reference after the budget is spent
    std::string again;
    dict.Encode(0, "value number 0", again);
    EXPECT_EQ(again, stored[0]);
}

TEST(ValueDictionary, LoadedDictionaryEncodesTheSame)
{
    ValueDictionary grown(400);
    std::vector<std::string> values, stored;
    for (int i = 0; i < 300; i++)
        values.push_back("value " + std::to_string(i % 40) + " of the column");
    for (const auto &v : values)
    {
        stored.emplace_back();
        grown.Encode(2, v, stored.back());
    }
    ValueDictionary loaded(0);
    grown.ForEachEntry(
        [&](std::string_view key, std::string_view value)
        {
            int column = -1;
            uint32_t id = 0;
            ASSERT_TRUE(ParseDictionaryKey(key, &column, &id));
            loaded.Load(column, id, value);
        });
    EXPECT_EQ(loaded.entries(), grown.entries());
    for (size_t i = 0; i < values.size(); i++)
    {
        std::string again;
        loaded.Encode(2, values[i], again);
        EXPECT_EQ(again, stored[i]) << i;
    }
    EXPECT_EQ(loaded.entries(), grown.entries()); // a loaded dictionary never grows
}

TEST(ValueDictionary, EntriesComeInKeyOrder)
{
    ValueDictionary dict(1 << 20);
    std::string out;
    for (int column : {7, 2, 300})
        for (int i = 0; i < 200; i++)
            dict.Encode(column, "a value " + std::to_string(i), out);
    std::string previous;
    size_t n = 0;
    dict.ForEachEntry(
        [&](std::string_view key, std::string_view)
        {
            EXPECT_LT(previous, std::string(key));
            previous = std::string(key);
            n++;
        });
    EXPECT_EQ(n, 600u);
}

TEST(ValueDictionary, MalformedStoredValuesAreRejected)
{
    bool reference;
    uint32_t id;
    std::string_view bytes;
    EXPECT_FALSE(ParseDictionaryValue("", &reference, &id, &bytes));
    EXPECT_FALSE(ParseDictionaryValue(std::string("\x02", 1), &reference, &id, &bytes));
    // a reference whose varint does not end, or has bytes after it
    EXPECT_FALSE(ParseDictionaryValue(std::string("\x01\x80", 2), &reference, &id, &bytes));
    EXPECT_FALSE(ParseDictionaryValue(std::string("\x01\x05\x00", 3), &reference, &id, &bytes));
    EXPECT_TRUE(ParseDictionaryValue(std::string("\x01\x85\x01", 3), &reference, &id, &bytes));
    EXPECT_EQ(id, 133u);
    int column;
    EXPECT_FALSE(ParseDictionaryKey("12345", &column, &id));
}
