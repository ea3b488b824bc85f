/*
 * value_dictionary.cpp
 *	  Dictionary encoding of repeated column values (see value_dictionary.hpp).
 */
#include "engine/value_dictionary.hpp"

namespace permanode::fdw
{

namespace
{

/* Approximate memory of one entry: the key bytes plus hash node and vector slot. */
constexpr size_t kEntryOverhead = 64;

void AppendVarint(std::string &out, uint32_t v)
{
    while (v >= 0x80)
    {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

} // namespace

std::string DictionaryKey(int column, uint32_t id)
{
    std::string key(6, '\0');
    key[0] = static_cast<char>((column >> 8) & 0xff);
    key[1] = static_cast<char>(column & 0xff);
    for (int i = 0; i < 4; i++)
        key[2 + i] = static_cast<char>((id >> (24 - 8 * i)) & 0xff);
    return key;
}

bool ParseDictionaryKey(std::string_view key, int *column, uint32_t *id)
{
    if (key.size() != 6)
        return false;
    auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(key[i])); };
    *column = static_cast<int>(byte(0) << 8 | byte(1));
    *id = byte(2) << 24 | byte(3) << 16 | byte(4) << 8 | byte(5);
    return true;
}

bool ParseDictionaryValue(std::string_view stored, bool *reference, uint32_t *id,
                          std::string_view *bytes)
{
    if (stored.empty())
        return false;
    if (stored[0] == kDictInline)
    {
        *reference = false;
        *bytes = stored.substr(1);
        return true;
    }
    if (stored[0] != kDictReference)
        return false;
    uint32_t v = 0;
    for (size_t i = 1, shift = 0; i < stored.size() && shift < 35; i++, shift += 7)
    {
        uint8_t b = static_cast<uint8_t>(stored[i]);
        v |= static_cast<uint32_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0)
        {
            if (i + 1 != stored.size())
                return false;
            *reference = true;
            *id = v;
            return true;
        }
    }
    return false;
}

ValueDictionary::Column &ValueDictionary::ColumnAt(int column)
{
    if (static_cast<size_t>(column) >= columns_.size())
        columns_.resize(column + 1);
    return columns_[column];
}

void ValueDictionary::Encode(int column, std::string_view value, std::string &out)
{
    out.clear();
    if (value.size() >= kDictMinValueBytes)
    {
        Column &c = ColumnAt(column);
        auto it = c.ids.find(std::string(value));
        if (it == c.ids.end() && !frozen_ && bytes_ + value.size() + kEntryOverhead <= budget_)
        {
            it = c.ids.emplace(std::string(value), static_cast<uint32_t>(c.values.size())).first;
            c.values.push_back(&it->first);
            bytes_ += value.size() + kEntryOverhead;
            entries_++;
        }
        if (it != c.ids.end())
        {
            out.push_back(kDictReference);
            AppendVarint(out, it->second);
            return;
        }
    }
    out.push_back(kDictInline);
    out.append(value);
}

void ValueDictionary::Load(int column, uint32_t id, std::string_view value)
{
    frozen_ = true;
    Column &c = ColumnAt(column);
    auto it = c.ids.emplace(std::string(value), id).first;
    if (c.values.size() <= id)
        c.values.resize(id + 1, nullptr);
    c.values[id] = &it->first;
    entries_++;
}

void ValueDictionary::ForEachEntry(
    const std::function<void(std::string_view, std::string_view)> &f) const
{
    for (size_t column = 0; column < columns_.size(); column++)
        for (size_t id = 0; id < columns_[column].values.size(); id++)
            if (const std::string *value = columns_[column].values[id])
                f(DictionaryKey(static_cast<int>(column), static_cast<uint32_t>(id)), *value);
}

} // namespace permanode::fdw
