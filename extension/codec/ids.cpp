#include "codec/ids.hpp"
#include "codec/writer.hpp"

#include <sodium.h>

#include <algorithm>

namespace permanode::codec
{

namespace
{
// sodium_init() selects the SIMD BLAKE2b code; without it libsodium runs the portable one.
void SodiumReady()
{
    static const bool ready = sodium_init() >= 0;
    (void)ready;
}
} // namespace

Hash32 Blake2b256(ByteSpan bytes)
{
    SodiumReady();
    Hash32 hash;
    // crypto_generichash is BLAKE2b; it never fails for these parameters.
    crypto_generichash(hash.data(), hash.size(), bytes.data, bytes.size, nullptr, 0);
    return hash;
}

Hash32 Blake2b256(std::initializer_list<ByteSpan> parts)
{
    SodiumReady();
    Hash32 hash;
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, hash.size());
    for (const ByteSpan &part : parts)
        crypto_generichash_update(&state, part.data, part.size);
    crypto_generichash_final(&state, hash.data(), hash.size());
    return hash;
}

BlockId ComputeBlockId(ByteSpan block_bytes)
{
    return Blake2b256(block_bytes);
}

TransactionId ComputeTransactionId(const TransactionPayload &payload)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    EncodeTransaction(writer, payload);
    return Blake2b256(bytes);
}

MilestoneId ComputeMilestoneId(const MilestoneEssence &essence)
{
    Bytes bytes;
    ByteWriter writer(bytes);
    EncodeMilestoneEssence(writer, essence);
    return Blake2b256(bytes);
}

OutputIdBytes ToBytes(const OutputId &output_id)
{
    OutputIdBytes bytes;
    std::copy(output_id.transaction_id.begin(), output_id.transaction_id.end(), bytes.begin());
    bytes[32] = static_cast<std::uint8_t>(output_id.index);
    bytes[33] = static_cast<std::uint8_t>(output_id.index >> 8);
    return bytes;
}

OutputId OutputIdFromBytes(const OutputIdBytes &bytes)
{
    OutputId output_id;
    std::copy(bytes.begin(), bytes.begin() + 32, output_id.transaction_id.begin());
    output_id.index = static_cast<std::uint16_t>(bytes[32] | (bytes[33] << 8));
    return output_id;
}

Hash32 ChainIdFromOutputId(const OutputId &output_id)
{
    OutputIdBytes bytes = ToBytes(output_id);
    return Blake2b256(ByteSpan(bytes.data(), bytes.size()));
}

namespace
{
bool IsZero(const Hash32 &id)
{
    return std::all_of(id.begin(), id.end(), [](std::uint8_t b) { return b == 0; });
}
} // namespace

AliasId ResolveAliasId(const AliasOutput &output, const OutputId &output_id)
{
    return IsZero(output.alias_id) ? ChainIdFromOutputId(output_id) : output.alias_id;
}

NftId ResolveNftId(const NftOutput &output, const OutputId &output_id)
{
    return IsZero(output.nft_id) ? ChainIdFromOutputId(output_id) : output.nft_id;
}

FoundryId ComputeFoundryId(const AliasId &alias_id, std::uint32_t serial_number,
                           std::uint8_t token_scheme_type)
{
    FoundryId id;
    id[0] = static_cast<std::uint8_t>(AddressType::kAlias);
    std::copy(alias_id.begin(), alias_id.end(), id.begin() + 1);
    for (int i = 0; i < 4; ++i)
        id[33 + i] = static_cast<std::uint8_t>(serial_number >> (8 * i));
    id[37] = token_scheme_type;
    return id;
}

std::optional<FoundryId> FoundryIdOf(const FoundryOutput &output)
{
    for (const auto &condition : output.unlock_conditions)
        if (const auto *alias = std::get_if<ImmutableAliasAddressUnlockCondition>(&condition))
            return ComputeFoundryId(alias->address.id, output.serial_number);
    return std::nullopt;
}

} // namespace permanode::codec
