#include "codec/hex.hpp"

#include <array>
#include <cstdint>

namespace permanode::codec
{
namespace
{
constexpr char kDigits[] = "0123456789abcdef";

// Each character's value as a hex digit, or -1: one load per character instead of three range
// tests (ingest decodes every block from hex).
constexpr std::array<std::int8_t, 256> NibbleTable()
{
    std::array<std::int8_t, 256> table{};
    for (int c = 0; c < 256; ++c)
        table[c] = c >= '0' && c <= '9'   ? static_cast<std::int8_t>(c - '0')
                   : c >= 'a' && c <= 'f' ? static_cast<std::int8_t>(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? static_cast<std::int8_t>(c - 'A' + 10)
                                          : -1;
    return table;
}
constexpr std::array<std::int8_t, 256> kNibbles = NibbleTable();

int NibbleOf(char c)
{
    return kNibbles[static_cast<unsigned char>(c)];
}

std::string_view StripPrefix(std::string_view text)
{
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text.remove_prefix(2);
    return text;
}
} // namespace

std::string ToHex(ByteSpan bytes)
{
    std::string text;
    text.resize(2 + 2 * bytes.size);
    text[0] = '0';
    text[1] = 'x';
    for (std::size_t i = 0; i < bytes.size; ++i)
    {
        text[2 + 2 * i] = kDigits[bytes.data[i] >> 4];
        text[3 + 2 * i] = kDigits[bytes.data[i] & 0x0f];
    }
    return text;
}

std::optional<Bytes> FromHex(std::string_view text)
{
    text = StripPrefix(text);
    if (text.size() % 2 != 0)
        return std::nullopt;
    Bytes bytes(text.size() / 2);
    for (std::size_t i = 0; i < bytes.size(); ++i)
    {
        int high = NibbleOf(text[2 * i]);
        int low = NibbleOf(text[2 * i + 1]);
        if (high < 0 || low < 0)
            return std::nullopt;
        bytes[i] = static_cast<std::uint8_t>(high << 4 | low);
    }
    return bytes;
}

std::string U256ToHex(const U256 &value)
{
    std::string text = "0x";
    bool leading = true;
    for (std::size_t i = value.size(); i-- > 0;)
    {
        for (int shift : {4, 0})
        {
            int nibble = (value[i] >> shift) & 0x0f;
            if (leading && nibble == 0)
                continue;
            leading = false;
            text.push_back(kDigits[nibble]);
        }
    }
    if (leading)
        text.push_back('0');
    return text;
}

std::optional<U256> U256FromHex(std::string_view text)
{
    text = StripPrefix(text);
    if (text.empty() || text.size() > 64)
        return std::nullopt;
    U256 value{};
    // Walk from the least significant digit; digit k lands in byte k/2.
    for (std::size_t k = 0; k < text.size(); ++k)
    {
        int nibble = NibbleOf(text[text.size() - 1 - k]);
        if (nibble < 0)
            return std::nullopt;
        value[k / 2] |= static_cast<std::uint8_t>(nibble << (4 * (k % 2)));
    }
    return value;
}

} // namespace permanode::codec
