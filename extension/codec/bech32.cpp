#include "codec/bech32.hpp"
#include "codec/hex.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <cstdint>
#include <vector>

namespace permanode::codec
{
namespace
{

constexpr char kCharset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr std::size_t kChecksumLength = 6;
constexpr std::size_t kMaxLength = 90; // BIP-173

using Kind = Bech32Error::Kind;

// Each ASCII character's 5-bit value, -1 outside the charset: decoding looks every character
// up (an address in a request, every address a query names in SQL).
constexpr std::array<std::int8_t, 128> MakeCharValues()
{
    std::array<std::int8_t, 128> values{};
    for (auto &value : values)
        value = -1;
    for (int i = 0; i < 32; ++i)
        values[static_cast<unsigned char>(kCharset[i])] = static_cast<std::int8_t>(i);
    return values;
}
constexpr std::array<std::int8_t, 128> kCharValues = MakeCharValues();

int CharValue(char c)
{
    auto index = static_cast<unsigned char>(c);
    return index < kCharValues.size() ? kCharValues[index] : -1;
}

// XOR of the BIP-173 generators selected by each value of the checksum's top 5 bits.
constexpr std::array<std::uint32_t, 32> MakePolyModTable()
{
    constexpr std::uint32_t kGenerator[] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd,
                                            0x2a1462b3};
    std::array<std::uint32_t, 32> table{};
    for (std::uint32_t top = 0; top < 32; ++top)
        for (int i = 0; i < 5; ++i)
            if ((top >> i) & 1)
                table[top] ^= kGenerator[i];
    return table;
}
constexpr std::array<std::uint32_t, 32> kPolyModTable = MakePolyModTable();

// The BIP-173 checksum as a running state: one table lookup per 5-bit symbol instead of a
// branch per generator bit (address text is encoded for every output a query returns).
class PolyMod
{
  public:
    void Add(std::uint8_t value)
    {
        std::uint32_t top = state_ >> 25;
        state_ = ((state_ & 0x1ffffff) << 5 ^ value) ^ kPolyModTable[top];
    }
    void AddHrp(std::string_view hrp)
    {
        for (char c : hrp)
            Add(static_cast<std::uint8_t>(c) >> 5);
        Add(0);
        for (char c : hrp)
            Add(static_cast<std::uint8_t>(c) & 31);
    }
    std::uint32_t Value() const { return state_; }

  private:
    std::uint32_t state_ = 1;
};

// Regroups bits; `pad` adds zero bits when encoding, otherwise leftover bits must be zero padding.
std::vector<std::uint8_t> ConvertBits(const std::uint8_t *data, std::size_t size, int from, int to,
                                      bool pad)
{
    std::vector<std::uint8_t> out;
    std::uint32_t accumulator = 0;
    int bits = 0;
    const std::uint32_t max_value = (1u << to) - 1;
    for (std::size_t i = 0; i < size; ++i)
    {
        accumulator = (accumulator << from) | data[i];
        bits += from;
        while (bits >= to)
        {
            bits -= to;
            out.push_back(static_cast<std::uint8_t>((accumulator >> bits) & max_value));
        }
    }
    if (pad)
    {
        if (bits > 0)
            out.push_back(static_cast<std::uint8_t>((accumulator << (to - bits)) & max_value));
    }
    else if (bits >= from || ((accumulator << (to - bits)) & max_value) != 0)
    {
        throw Bech32Error(Kind::kBadPadding, "bech32: invalid padding in data part");
    }
    return out;
}

} // namespace

std::string Bech32Encode(std::string_view hrp, ByteSpan data)
{
    std::string text;
    text.reserve(hrp.size() + 1 + (data.size * 8 + 4) / 5 + kChecksumLength);
    text.append(hrp);
    text.push_back('1');
    PolyMod checksum;
    checksum.AddHrp(hrp);
    auto put = [&](std::uint8_t value)
    {
        checksum.Add(value);
        text.push_back(kCharset[value]);
    };
    std::uint32_t accumulator = 0;
    int bits = 0;
    for (std::size_t i = 0; i < data.size; ++i)
    {
        accumulator = (accumulator << 8 | data.data[i]) & 0xfff;
        bits += 8;
        while (bits >= 5)
        {
            bits -= 5;
            put(static_cast<std::uint8_t>(accumulator >> bits & 31));
        }
    }
    if (bits > 0)
        put(static_cast<std::uint8_t>(accumulator << (5 - bits) & 31));
    for (std::size_t i = 0; i < kChecksumLength; ++i)
        checksum.Add(0);
    std::uint32_t value = checksum.Value() ^ 1;
    for (std::size_t i = 0; i < kChecksumLength; ++i)
        text.push_back(kCharset[(value >> (5 * (5 - i))) & 31]);
    return text;
}

Bech32Data Bech32Decode(std::string_view text)
{
    if (text.size() > kMaxLength)
        throw Bech32Error(Kind::kBadLength, "bech32: string of " + std::to_string(text.size()) +
                                                " characters exceeds " +
                                                std::to_string(kMaxLength));
    bool has_lower = false;
    bool has_upper = false;
    for (char c : text)
    {
        if (c < 33 || c > 126)
            throw Bech32Error(Kind::kInvalidCharacter, "bech32: non-printable character");
        has_lower |= c >= 'a' && c <= 'z';
        has_upper |= c >= 'A' && c <= 'Z';
    }
    if (has_lower && has_upper)
        throw Bech32Error(Kind::kMixedCase, "bech32: mixed upper and lower case");

    std::string lowered(text);
    for (char &c : lowered)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');

    std::size_t separator = lowered.rfind('1');
    if (separator == std::string::npos || separator == 0)
        throw Bech32Error(Kind::kMissingSeparator, "bech32: missing separator '1' after the HRP");
    if (lowered.size() - separator - 1 < kChecksumLength)
        throw Bech32Error(Kind::kBadLength, "bech32: data part shorter than the checksum");

    Bech32Data result;
    result.hrp = lowered.substr(0, separator);
    std::vector<std::uint8_t> values;
    values.reserve(lowered.size() - separator - 1);
    for (std::size_t i = separator + 1; i < lowered.size(); ++i)
    {
        int value = CharValue(lowered[i]);
        if (value < 0)
            throw Bech32Error(Kind::kInvalidCharacter,
                              std::string("bech32: invalid character '") + lowered[i] + "'");
        values.push_back(static_cast<std::uint8_t>(value));
    }
    PolyMod checksum;
    checksum.AddHrp(result.hrp);
    for (std::uint8_t value : values)
        checksum.Add(value);
    if (checksum.Value() != 1)
        throw Bech32Error(Kind::kBadChecksum, "bech32: checksum does not verify");

    std::vector<std::uint8_t> data =
        ConvertBits(values.data(), values.size() - kChecksumLength, 5, 8, false);
    result.data.assign(data.begin(), data.end());
    return result;
}

bool IsKnownHrp(std::string_view hrp)
{
    return hrp == "iota" || hrp == "atoi" || hrp == "smr" || hrp == "rms";
}

std::string AddressToBech32(const Address &address, std::string_view hrp)
{
    if (!IsKnownHrp(hrp))
        throw Bech32Error(Kind::kWrongHrp, "bech32: unknown HRP \"" + std::string(hrp) + "\"");
    AddressBytes bytes = ToBytes(address);
    return Bech32Encode(hrp, ByteSpan(bytes.data(), bytes.size()));
}

Address AddressFromBech32(std::string_view text, std::string_view expected_hrp)
{
    Bech32Data decoded = Bech32Decode(text);
    if (!expected_hrp.empty() && decoded.hrp != expected_hrp)
        throw Bech32Error(Kind::kWrongHrp, "bech32: HRP \"" + decoded.hrp + "\", expected \"" +
                                               std::string(expected_hrp) + "\"");
    if (expected_hrp.empty() && !IsKnownHrp(decoded.hrp))
        throw Bech32Error(Kind::kWrongHrp, "bech32: unknown HRP \"" + decoded.hrp + "\"");
    if (decoded.data.size() != 33)
        throw Bech32Error(Kind::kBadLength, "bech32: address payload has " +
                                                std::to_string(decoded.data.size()) +
                                                " bytes, expected 33");
    if (!IsKnownAddressType(decoded.data[0]))
        throw Bech32Error(Kind::kUnknownAddressType,
                          "bech32: unknown address type " + std::to_string(decoded.data[0]));
    Address address;
    address.type = static_cast<AddressType>(decoded.data[0]);
    std::copy(decoded.data.begin() + 1, decoded.data.end(), address.id.begin());
    return address;
}

std::string AddressHexOfAnyEra(std::string_view text)
{
    std::string_view digits = text;
    if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        digits.remove_prefix(2);
    bool hex = !digits.empty() &&
               std::all_of(digits.begin(), digits.end(),
                           [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    std::string lower;
    for (char c : hex ? digits : text)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (hex && digits.size() == 64)
        return "0x00" + lower;
    if (hex && digits.size() == 66 &&
        IsKnownAddressType(static_cast<std::uint8_t>(std::stoi(lower.substr(0, 2), nullptr, 16))))
        return "0x" + lower;
    Address address = AddressFromBech32(lower);
    const auto type = static_cast<std::uint8_t>(address.type);
    return "0x" + ToHex(ByteSpan(&type, 1)).substr(2) + ToHex(address.id).substr(2);
}

} // namespace permanode::codec
