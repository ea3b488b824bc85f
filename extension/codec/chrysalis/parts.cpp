// The parts of a transaction on their own: what the ledger stores per input, output and unlock.
#include "codec/chrysalis/message.hpp"
#include "codec/chrysalis/wire.hpp"

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

template <typename Part, typename Encode> Bytes EncodeAlone(const Part &part, Encode encode)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    encode(writer, part);
    return bytes;
}

} // namespace

Bytes EncodeInputBytes(const Input &input)
{
    return EncodeAlone(input, EncodeInput);
}

Bytes EncodeOutputBytes(const Output &output)
{
    return EncodeAlone(output, EncodeOutput);
}

Bytes EncodeUnlockBytes(const Unlock &unlock)
{
    return EncodeAlone(unlock, EncodeUnlock);
}

Output DecodeTransactionOutputBytes(ByteSpan bytes)
{
    ByteReader reader(bytes);
    std::uint64_t total = 0;
    Output output = DecodeTransactionOutput(reader, total);
    if (reader.Remaining() != 0)
        reader.Fail("output", reader.Offset(),
                    std::to_string(reader.Remaining()) + " trailing bytes after the output");
    return output;
}

} // namespace permanode::codec::chrysalis
