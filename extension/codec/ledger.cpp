#include "codec/ledger.hpp"
#include "codec/ids.hpp"

namespace permanode::codec
{
namespace
{

void IndexUnlockCondition(const UnlockCondition &condition, IndexedFields &fields)
{
    std::visit(
        [&fields](const auto &c)
        {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, AddressUnlockCondition>)
                fields.address = c.address;
            else if constexpr (std::is_same_v<T, StorageDepositReturnUnlockCondition>)
            {
                fields.storage_deposit_return_address = c.return_address;
                fields.storage_deposit_return_amount = c.amount;
            }
            else if constexpr (std::is_same_v<T, TimelockUnlockCondition>)
                fields.timelock = c.unix_time;
            else if constexpr (std::is_same_v<T, ExpirationUnlockCondition>)
            {
                fields.expiration = c.unix_time;
                fields.expiration_return_address = c.return_address;
            }
            else if constexpr (std::is_same_v<T, StateControllerAddressUnlockCondition>)
            {
                fields.state_controller = c.address;
                fields.address = c.address;
            }
            else if constexpr (std::is_same_v<T, GovernorAddressUnlockCondition>)
                fields.governor = c.address;
            else if constexpr (std::is_same_v<T, ImmutableAliasAddressUnlockCondition>)
                fields.address = c.address;
        },
        condition);
}

void IndexFeature(const Feature &feature, IndexedFields &fields)
{
    if (const auto *sender = std::get_if<SenderFeature>(&feature))
        fields.sender = sender->address;
    else if (const auto *issuer = std::get_if<IssuerFeature>(&feature))
        fields.issuer = issuer->address;
    else if (const auto *tag = std::get_if<TagFeature>(&feature))
        fields.tag = tag->tag;
}

} // namespace

IndexedFields IndexOutput(const Output &output, const OutputId &output_id)
{
    IndexedFields fields;
    fields.kind = TypeOf(output);
    fields.amount = AmountOf(output);
    for (const auto &condition : UnlockConditionsOf(output))
        IndexUnlockCondition(condition, fields);
    for (const auto &feature : FeaturesOf(output))
        IndexFeature(feature, fields);
    for (const auto &feature : ImmutableFeaturesOf(output))
        IndexFeature(feature, fields);
    const auto &tokens = NativeTokensOf(output);
    fields.native_token_count = tokens.size();
    fields.native_token_ids.reserve(tokens.size());
    for (const auto &token : tokens)
        fields.native_token_ids.push_back(token.token_id);

    if (const auto *alias = std::get_if<AliasOutput>(&output))
        fields.alias_id = ResolveAliasId(*alias, output_id);
    else if (const auto *nft = std::get_if<NftOutput>(&output))
        fields.nft_id = ResolveNftId(*nft, output_id);
    else if (const auto *foundry = std::get_if<FoundryOutput>(&output))
        fields.foundry_id = FoundryIdOf(*foundry);
    return fields;
}

std::vector<CreatedOutput> CreatedOutputs(const TransactionPayload &payload,
                                          const TransactionId &transaction_id)
{
    std::vector<CreatedOutput> created;
    created.reserve(payload.essence.outputs.size());
    for (std::size_t i = 0; i < payload.essence.outputs.size(); ++i)
    {
        OutputId output_id{transaction_id, static_cast<std::uint16_t>(i)};
        const Output &output = payload.essence.outputs[i];
        created.push_back(CreatedOutput{output_id, output, IndexOutput(output, output_id)});
    }
    return created;
}

std::vector<OutputId> ConsumedOutputs(const TransactionPayload &payload)
{
    return payload.essence.inputs;
}

} // namespace permanode::codec
