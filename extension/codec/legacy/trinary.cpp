// Trits, trytes, t5b1 and integers: table-driven conversions, every input checked.
#include "codec/legacy/trinary.hpp"

#include "codec/error.hpp"

#include <algorithm>
#include <string>

namespace permanode::codec::legacy
{

namespace
{

constexpr std::string_view kAlphabet = "9ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// The value of a tryte character (-13..13), or kNotTryte.
constexpr int kNotTryte = 100;

struct TryteTables
{
    std::array<int, 256> value{};                // by character
    std::array<std::array<Trit, 3>, 27> trits{}; // by value + 13
    std::array<std::array<Trit, 5>, 243> t5b1{}; // by byte value + 121

    TryteTables()
    {
        value.fill(kNotTryte);
        for (std::size_t i = 0; i < kAlphabet.size(); i++)
            value[static_cast<unsigned char>(kAlphabet[i])] = i <= 13 ? int(i) : int(i) - 27;
        for (int v = -13; v <= 13; v++)
            Balanced(v, trits[v + 13].data(), 3);
        for (int v = -121; v <= 121; v++)
            Balanced(v, t5b1[v + 121].data(), 5);
    }

    // `v` in balanced ternary, `count` trits, least significant first.
    static void Balanced(int v, Trit *out, int count)
    {
        for (int i = 0; i < count; i++)
        {
            int r = ((v % 3) + 3) % 3;
            out[i] = static_cast<Trit>(r == 2 ? -1 : r);
            v = (v - out[i]) / 3;
        }
    }
};

const TryteTables &Tables()
{
    static const TryteTables tables;
    return tables;
}

} // namespace

bool IsTryte(char c)
{
    return Tables().value[static_cast<unsigned char>(c)] != kNotTryte;
}

void TrytesToTrits(std::string_view trytes, Trit *out, const char *field)
{
    const TryteTables &tables = Tables();
    for (std::size_t i = 0; i < trytes.size(); i++)
    {
        int v = tables.value[static_cast<unsigned char>(trytes[i])];
        if (v == kNotTryte)
        {
            unsigned char c = static_cast<unsigned char>(trytes[i]);
            std::string shown = c >= 0x20 && c < 0x7f ? std::string("'") + char(c) + "'"
                                                      : "byte " + std::to_string(int(c));
            throw DecodeError(field, i, shown + " is not a tryte (9 or A-Z)", "tryte");
        }
        const auto &t = tables.trits[v + 13];
        out[3 * i] = t[0];
        out[3 * i + 1] = t[1];
        out[3 * i + 2] = t[2];
    }
}

Trits TrytesToTrits(std::string_view trytes, const char *field)
{
    Trits trits(trytes.size() * kTritsPerTryte);
    TrytesToTrits(trytes, trits.data(), field);
    return trits;
}

std::string TritsToTrytes(const Trit *trits, std::size_t count)
{
    // The tryte characters by value + 13, so that no branch depends on the sign.
    static constexpr std::string_view kByValue = "NOPQRSTUVWXYZ9ABCDEFGHIJKLM";
    std::string out(count / kTritsPerTryte, '9');
    for (std::size_t i = 0; i < out.size(); i++)
        out[i] = kByValue[trits[3 * i] + 3 * trits[3 * i + 1] + 9 * trits[3 * i + 2] + 13];
    return out;
}

Bytes EncodeT5b1(const Trit *trits, std::size_t count)
{
    Bytes out((count + kTritsPerByte - 1) / kTritsPerByte);
    for (std::size_t i = 0; i < out.size(); i++)
    {
        int v = 0;
        for (std::size_t j = kTritsPerByte; j-- > 0;)
        {
            std::size_t k = i * kTritsPerByte + j;
            v = 3 * v + (k < count ? trits[k] : 0);
        }
        out[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
    }
    return out;
}

Trits DecodeT5b1(ByteSpan bytes, std::size_t trit_count)
{
    std::size_t expected = (trit_count + kTritsPerByte - 1) / kTritsPerByte;
    if (bytes.size != expected)
        throw DecodeError("t5b1", bytes.size < expected ? bytes.size : expected,
                          std::to_string(trit_count) + " trits take " + std::to_string(expected) +
                              " bytes, got " + std::to_string(bytes.size));
    const TryteTables &tables = Tables();
    Trits trits(expected * kTritsPerByte);
    for (std::size_t i = 0; i < expected; i++)
    {
        int v = static_cast<std::int8_t>(bytes.data[i]);
        if (v < -121 || v > 121)
            throw DecodeError("t5b1", i,
                              "byte value " + std::to_string(v) + " is outside -121..121");
        const auto &t = tables.t5b1[v + 121];
        std::copy(t.begin(), t.end(), trits.begin() + i * kTritsPerByte);
    }
    for (std::size_t k = trit_count; k < trits.size(); k++)
        if (trits[k] != 0)
            throw DecodeError("t5b1", expected - 1, "padding trits past the last are not zero");
    trits.resize(trit_count);
    return trits;
}

std::int64_t TritsToInt(const Trit *trits, std::size_t count)
{
    std::int64_t v = 0;
    for (std::size_t i = count; i-- > 0;)
        v = 3 * v + trits[i];
    return v;
}

void IntToTrits(std::int64_t value, Trit *out, std::size_t count)
{
    std::int64_t v = value;
    for (std::size_t i = 0; i < count; i++)
    {
        int r = static_cast<int>(((v % 3) + 3) % 3);
        out[i] = static_cast<Trit>(r == 2 ? -1 : r);
        v = (v - out[i]) / 3;
    }
    if (v != 0)
        throw EncodeError(std::to_string(value) + " does not fit in " + std::to_string(count) +
                          " trits");
}

} // namespace permanode::codec::legacy
