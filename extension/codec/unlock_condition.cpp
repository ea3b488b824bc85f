#include "codec/unlock_condition.hpp"

#include <string>

namespace permanode::codec
{
namespace
{

UnlockCondition DecodeUnlockCondition(ByteReader &reader, std::uint8_t type)
{
    switch (static_cast<UnlockConditionType>(type))
    {
        case UnlockConditionType::kAddress:
            return AddressUnlockCondition{
                DecodeAddress(reader, "address_unlock_condition.address")};
        case UnlockConditionType::kStorageDepositReturn:
        {
            StorageDepositReturnUnlockCondition condition;
            condition.return_address =
                DecodeAddress(reader, "storage_deposit_return_unlock_condition.return_address");
            condition.amount = reader.ReadU64("storage_deposit_return_unlock_condition.amount");
            return condition;
        }
        case UnlockConditionType::kTimelock:
            return TimelockUnlockCondition{reader.ReadU32("timelock_unlock_condition.unix_time")};
        case UnlockConditionType::kExpiration:
        {
            ExpirationUnlockCondition condition;
            condition.return_address =
                DecodeAddress(reader, "expiration_unlock_condition.return_address");
            condition.unix_time = reader.ReadU32("expiration_unlock_condition.unix_time");
            return condition;
        }
        case UnlockConditionType::kStateControllerAddress:
            return StateControllerAddressUnlockCondition{
                DecodeAddress(reader, "state_controller_address_unlock_condition.address")};
        case UnlockConditionType::kGovernorAddress:
            return GovernorAddressUnlockCondition{
                DecodeAddress(reader, "governor_address_unlock_condition.address")};
        case UnlockConditionType::kImmutableAliasAddress:
        {
            std::size_t start = reader.Offset();
            Address address =
                DecodeAddress(reader, "immutable_alias_address_unlock_condition.address");
            if (address.type != AddressType::kAlias)
                reader.Fail("immutable_alias_address_unlock_condition.address", start,
                            "must be an alias address");
            return ImmutableAliasAddressUnlockCondition{address};
        }
    }
    // Callers only pass types inside the allowed mask, all of which are handled above.
    reader.Fail("unlock_condition.type", reader.Offset() - 1, "unhandled type");
}

void EncodeUnlockCondition(ByteWriter &writer, const UnlockCondition &condition)
{
    writer.WriteU8(TypeOf(condition));
    std::visit(
        [&writer](const auto &c)
        {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, StorageDepositReturnUnlockCondition>)
            {
                EncodeAddress(writer, c.return_address);
                writer.WriteU64(c.amount);
            }
            else if constexpr (std::is_same_v<T, TimelockUnlockCondition>)
            {
                writer.WriteU32(c.unix_time);
            }
            else if constexpr (std::is_same_v<T, ExpirationUnlockCondition>)
            {
                EncodeAddress(writer, c.return_address);
                writer.WriteU32(c.unix_time);
            }
            else
            {
                EncodeAddress(writer, c.address);
            }
        },
        condition);
}

} // namespace

std::vector<UnlockCondition> DecodeUnlockConditions(ByteReader &reader, TypeMask allowed)
{
    std::size_t count = reader.ReadCountU8("unlock_conditions.count", 1, 7);
    std::vector<UnlockCondition> conditions;
    conditions.reserve(count);
    int previous_type = -1;
    for (std::size_t i = 0; i < count; ++i)
    {
        std::size_t start = reader.Offset();
        std::uint8_t type = reader.ReadU8("unlock_condition.type");
        if (type >= 32 || (allowed & (TypeMask{1} << type)) == 0)
            reader.Fail("unlock_condition.type", start,
                        "unknown or disallowed unlock condition type " + std::to_string(type));
        if (type <= previous_type)
            reader.Fail("unlock_condition.type", start,
                        "unlock conditions must be unique and sorted by type");
        previous_type = type;
        conditions.push_back(DecodeUnlockCondition(reader, type));
    }
    return conditions;
}

void EncodeUnlockConditions(ByteWriter &writer, const std::vector<UnlockCondition> &conditions)
{
    writer.WriteCountU8("unlock_conditions.count", conditions.size());
    for (const auto &condition : conditions)
        EncodeUnlockCondition(writer, condition);
}

} // namespace permanode::codec
