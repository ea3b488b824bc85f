#include "codec/protocol_parameters.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

// Strict UTF-8 (no overlong forms, surrogates or code points above U+10FFFF), so the strings can
// always be written out as JSON.
bool IsUtf8(const std::uint8_t *data, std::size_t size)
{
    std::size_t i = 0;
    while (i < size)
    {
        std::uint8_t c = data[i];
        std::size_t extra;
        std::uint32_t code;
        std::uint32_t min;
        if (c < 0x80)
        {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0)
            extra = 1, code = c & 0x1F, min = 0x80;
        else if ((c & 0xF0) == 0xE0)
            extra = 2, code = c & 0x0F, min = 0x800;
        else if ((c & 0xF8) == 0xF0)
            extra = 3, code = c & 0x07, min = 0x10000;
        else
            return false;
        if (extra > size - i - 1)
            return false;
        for (std::size_t k = 1; k <= extra; ++k)
        {
            std::uint8_t next = data[i + k];
            if ((next & 0xC0) != 0x80)
                return false;
            code = (code << 6) | (next & 0x3F);
        }
        if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

std::string ReadString(ByteReader &reader, const char *field)
{
    std::size_t start = reader.Offset();
    std::size_t length = reader.ReadU8(field);
    if (length > reader.Remaining())
        reader.Fail(field, start,
                    "string length " + std::to_string(length) + " exceeds the " +
                        std::to_string(reader.Remaining()) + " bytes left");
    const std::uint8_t *begin = reader.Data() + reader.Offset();
    if (!IsUtf8(begin, length))
        reader.Fail(field, start + 1, "not valid UTF-8");
    Bytes bytes;
    reader.ReadBytes(field, length, bytes);
    return std::string(bytes.begin(), bytes.end());
}

void WriteString(ByteWriter &writer, const char *field, const std::string &text)
{
    writer.WritePrefixedU8(field, Bytes(text.begin(), text.end()));
}

} // namespace

ProtocolParameters DecodeProtocolParameters(ByteSpan bytes)
{
    ByteReader reader(bytes);
    ProtocolParameters parameters;
    parameters.version = reader.ReadU8("protocol_parameters.version");
    parameters.network_name = ReadString(reader, "protocol_parameters.network_name");
    parameters.bech32_hrp = ReadString(reader, "protocol_parameters.bech32_hrp");
    parameters.min_pow_score = reader.ReadU32("protocol_parameters.min_pow_score");
    parameters.below_max_depth = reader.ReadU8("protocol_parameters.below_max_depth");
    RentStructure &rent = parameters.rent_structure;
    rent.v_byte_cost = reader.ReadU32("protocol_parameters.rent_structure.v_byte_cost");
    rent.v_byte_factor_data =
        reader.ReadU8("protocol_parameters.rent_structure.v_byte_factor_data");
    rent.v_byte_factor_key = reader.ReadU8("protocol_parameters.rent_structure.v_byte_factor_key");
    parameters.token_supply = reader.ReadU64("protocol_parameters.token_supply");
    if (reader.Remaining() != 0)
        reader.Fail("protocol_parameters", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the token supply");
    return parameters;
}

std::optional<ProtocolParameters> TryDecodeProtocolParameters(ByteSpan bytes)
{
    try
    {
        return DecodeProtocolParameters(bytes);
    }
    catch (const DecodeError &)
    {
        return std::nullopt;
    }
}

void EncodeProtocolParameters(ByteWriter &writer, const ProtocolParameters &parameters)
{
    writer.WriteU8(parameters.version);
    WriteString(writer, "protocol_parameters.network_name", parameters.network_name);
    WriteString(writer, "protocol_parameters.bech32_hrp", parameters.bech32_hrp);
    writer.WriteU32(parameters.min_pow_score);
    writer.WriteU8(parameters.below_max_depth);
    writer.WriteU32(parameters.rent_structure.v_byte_cost);
    writer.WriteU8(parameters.rent_structure.v_byte_factor_data);
    writer.WriteU8(parameters.rent_structure.v_byte_factor_key);
    writer.WriteU64(parameters.token_supply);
}

Bytes EncodeProtocolParameters(const ProtocolParameters &parameters)
{
    Bytes out;
    ByteWriter writer(out);
    EncodeProtocolParameters(writer, parameters);
    return out;
}

} // namespace permanode::codec
