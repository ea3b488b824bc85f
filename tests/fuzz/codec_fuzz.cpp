// libFuzzer target for the block decoder. Any input must either decode or raise DecodeError;
// whatever decodes must re-encode to the same bytes and survive a JSON round trip.
#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/json.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace permanode::codec;
    Block block;
    try
    {
        block = DecodeBlockWithIds(ByteSpan(data, size)).block;
    }
    catch (const DecodeError &)
    {
        return 0;
    }
    Bytes encoded = EncodeBlock(block);
    if (encoded.size() != size || std::memcmp(encoded.data(), data, size) != 0)
        std::abort();
    if (!(BlockFromJson(ToJson(block)) == block))
        std::abort();
    return 0;
}
