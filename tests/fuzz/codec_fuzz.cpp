// libFuzzer target for the Stardust block, Chrysalis message, legacy transaction and protocol
// parameters decoders.
// Every input is read each way: each must either decode or raise DecodeError, and whatever
// decodes must re-encode to the same bytes and survive a JSON round trip. A legacy transaction
// is read from the input's bytes three ways: as t5b1 (the stored form), as text (its trytes,
// mostly refused), and as trytes made from the bytes (each byte modulo 27, padded with 9s to
// 2673), which always decode, in the layout they show.
// PERMANODE_FUZZ_CODEC=stardust (blocks and protocol parameters), chrysalis or legacy fuzzes that
// codec alone (run-long's long runs of each); unset, all four decoders read every input.
#include "fuzz_check.hpp"

#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/json.hpp"
#include "codec/legacy/transaction.hpp"
#include "codec/protocol_parameters.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace
{

using namespace permanode::codec;

void ExpectSameBytes(const Bytes &encoded, const std::uint8_t *data, std::size_t size)
{
    FUZZ_CHECK(encoded.size() == size && std::memcmp(encoded.data(), data, size) == 0);
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
    FUZZ_CHECK(BlockFromJson(ToJson(block)) == block);
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
    FUZZ_CHECK(v1::MessageFromJson(v1::ToJson(message)) == message);
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
    FUZZ_CHECK(tx.layout == legacy::DetectLayout(trits.data()));
    FUZZ_CHECK(!tx.value_high_trits_zero || legacy::EncodeTransaction(tx) == trits);
    // (No Curl-P-81 hash: thousands of rounds per input, and nothing parsed.)
    nlohmann::json json = legacy::ToJson(tx, std::string(legacy::kHashTrytes, '9'));
    FUZZ_CHECK(json.at("address").get<std::string>() == trytes.substr(legacy::field::kAddress, 81));
}

// The codecs PERMANODE_FUZZ_CODEC picked.
bool fuzz_stardust = true;
bool fuzz_chrysalis = true;
bool fuzz_legacy = true;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    const char *codec = std::getenv("PERMANODE_FUZZ_CODEC");
    if (codec == nullptr || *codec == '\0')
        return 0;
    std::string name = codec;
    if (name != "stardust" && name != "chrysalis" && name != "legacy")
    {
        std::fprintf(stderr, "PERMANODE_FUZZ_CODEC=%s: expected stardust, chrysalis or legacy\n",
                     codec);
        std::exit(2);
    }
    fuzz_stardust = name == "stardust";
    fuzz_chrysalis = name == "chrysalis";
    fuzz_legacy = name == "legacy";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (fuzz_stardust)
    {
        FuzzBlock(data, size);
        FuzzProtocolParameters(data, size);
    }
    if (fuzz_chrysalis)
        FuzzMessage(data, size);
    if (fuzz_legacy)
        FuzzLegacyTransaction(data, size);
    return 0;
}
