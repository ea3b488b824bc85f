// libFuzzer target for the Stardust block, Chrysalis message, legacy transaction and protocol
// parameters decoders.
// Every input is read each way: each must either decode or raise DecodeError, and whatever
// decodes must re-encode to the same bytes and survive a JSON round trip. A legacy transaction
// is read from the input's bytes three ways: as t5b1 (the stored form), as text (its trytes,
// mostly refused), and as trytes made from the bytes (each byte modulo 27, padded with 9s to
// 2673), which always decode, in the layout they show.
#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/json.hpp"
#include "codec/legacy/transaction.hpp"
#include "codec/protocol_parameters.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

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

// Protocol parameters (TIP-32, from bundles and nodes): decode, or DecodeError; what decodes
// re-encodes to the same bytes.
void FuzzProtocolParameters(const std::uint8_t *data, std::size_t size)
{
    auto parameters = TryDecodeProtocolParameters(ByteSpan(data, size));
    if (parameters)
        ExpectSameBytes(EncodeProtocolParameters(*parameters), data, size);
}

void FuzzLegacyTransaction(const std::uint8_t *data, std::size_t size)
{
    namespace legacy = permanode::codec::legacy;
    try
    {
        std::string trytes = legacy::TransactionFromBytes(ByteSpan(data, size));
        ExpectSameBytes(legacy::TransactionToBytes(trytes), data, size);
    }
    catch (const DecodeError &)
    {
    }
    try
    {
        legacy::DecodeTransaction(std::string_view(reinterpret_cast<const char *>(data), size));
    }
    catch (const DecodeError &)
    {
    }

    static const char kTrytes[] = "9ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::string trytes(legacy::kTransactionTrytes, '9');
    for (std::size_t i = 0; i < size && i < trytes.size(); i++)
        trytes[i] = kTrytes[data[i] % 27];
    legacy::Trits trits = legacy::TransactionTrits(trytes);
    legacy::Transaction tx = legacy::DecodeTransaction(trytes);
    if (tx.layout != legacy::DetectLayout(trits.data()))
        std::abort();
    if (tx.value_high_trits_zero && legacy::EncodeTransaction(tx) != trits)
        std::abort();
    // (No Curl-P-81 hash: thousands of rounds per input, and nothing parsed.)
    nlohmann::json json = legacy::ToJson(tx, std::string(legacy::kHashTrytes, '9'));
    if (json.at("address").get<std::string>() != trytes.substr(legacy::field::kAddress, 81))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    FuzzBlock(data, size);
    FuzzMessage(data, size);
    FuzzLegacyTransaction(data, size);
    FuzzProtocolParameters(data, size);
    return 0;
}
