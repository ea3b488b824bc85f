// libFuzzer target for the Stardust block and Chrysalis message decoders. Every input is read
// both ways: each must either decode or raise DecodeError, and whatever decodes must re-encode
// to the same bytes and survive a JSON round trip.
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/json.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace
{

using namespace permanode::codec;

void ExpectSameBytes(const Bytes &encoded, const std::uint8_t *data, std::size_t size)
{
    if (encoded.size() != size || std::memcmp(encoded.data(), data, size) != 0)
        std::abort();
}

void FuzzBlock(const std::uint8_t *data, std::size_t size)
{
    Block block;
    try
    {
        block = DecodeBlockWithIds(ByteSpan(data, size)).block;
    }
    catch (const DecodeError &)
    {
        return;
    }
    ExpectSameBytes(EncodeBlock(block), data, size);
    if (!(BlockFromJson(ToJson(block)) == block))
        std::abort();
}

void FuzzMessage(const std::uint8_t *data, std::size_t size)
{
    namespace v1 = permanode::codec::chrysalis;
    v1::Message message;
    try
    {
        message = v1::DecodeMessage(ByteSpan(data, size));
    }
    catch (const DecodeError &)
    {
        return;
    }
    ExpectSameBytes(v1::EncodeMessage(message), data, size);
    if (!(v1::MessageFromJson(v1::ToJson(message)) == message))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    FuzzBlock(data, size);
    FuzzMessage(data, size);
    return 0;
}
