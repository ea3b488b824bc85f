#include "codec/treasury.hpp"

#include <string>

namespace permanode::codec
{
namespace
{
constexpr std::uint8_t kTreasuryInputType = 1;
}

TreasuryTransactionPayload DecodeTreasuryTransactionBody(ByteReader &reader)
{
    TreasuryTransactionPayload payload;
    std::size_t start = reader.Offset();
    std::uint8_t input_type = reader.ReadU8("treasury_transaction.input.type");
    if (input_type != kTreasuryInputType)
        reader.Fail("treasury_transaction.input.type", start,
                    "expected treasury input (1), got " + std::to_string(input_type));
    payload.input_milestone_id = reader.ReadArray<32>("treasury_input.milestone_id");
    payload.output = std::get<TreasuryOutput>(DecodeOutput(reader, kTreasuryOutputType));
    return payload;
}

void EncodeTreasuryTransaction(ByteWriter &writer, const TreasuryTransactionPayload &payload)
{
    writer.WriteU32(kTreasuryTransactionPayloadType);
    writer.WriteU8(kTreasuryInputType);
    writer.WriteArray(payload.input_milestone_id);
    EncodeOutput(writer, Output{payload.output});
}

} // namespace permanode::codec
