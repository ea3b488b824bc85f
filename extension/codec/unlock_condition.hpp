// Output unlock conditions (TIP-18, TIP-19). The variant index equals the wire type byte.
#pragma once

#include "codec/address.hpp"
#include "codec/reader.hpp"
#include "codec/writer.hpp"

#include <cstdint>
#include <variant>
#include <vector>

namespace permanode::codec
{

struct AddressUnlockCondition
{
    Address address;
    bool operator==(const AddressUnlockCondition &o) const { return address == o.address; }
};

struct StorageDepositReturnUnlockCondition
{
    Address return_address;
    std::uint64_t amount = 0;
    bool operator==(const StorageDepositReturnUnlockCondition &o) const
    {
        return return_address == o.return_address && amount == o.amount;
    }
};

struct TimelockUnlockCondition
{
    std::uint32_t unix_time = 0;
    bool operator==(const TimelockUnlockCondition &o) const { return unix_time == o.unix_time; }
};

struct ExpirationUnlockCondition
{
    Address return_address;
    std::uint32_t unix_time = 0;
    bool operator==(const ExpirationUnlockCondition &o) const
    {
        return return_address == o.return_address && unix_time == o.unix_time;
    }
};

struct StateControllerAddressUnlockCondition
{
    Address address;
    bool operator==(const StateControllerAddressUnlockCondition &o) const
    {
        return address == o.address;
    }
};

struct GovernorAddressUnlockCondition
{
    Address address;
    bool operator==(const GovernorAddressUnlockCondition &o) const { return address == o.address; }
};

// Address is always an alias address (checked when decoding).
struct ImmutableAliasAddressUnlockCondition
{
    Address address;
    bool operator==(const ImmutableAliasAddressUnlockCondition &o) const
    {
        return address == o.address;
    }
};

using UnlockCondition =
    std::variant<AddressUnlockCondition, StorageDepositReturnUnlockCondition,
                 TimelockUnlockCondition, ExpirationUnlockCondition,
                 StateControllerAddressUnlockCondition, GovernorAddressUnlockCondition,
                 ImmutableAliasAddressUnlockCondition>;

enum class UnlockConditionType : std::uint8_t
{
    kAddress = 0,
    kStorageDepositReturn = 1,
    kTimelock = 2,
    kExpiration = 3,
    kStateControllerAddress = 4,
    kGovernorAddress = 5,
    kImmutableAliasAddress = 6,
};

inline std::uint8_t TypeOf(const UnlockCondition &condition)
{
    return static_cast<std::uint8_t>(condition.index());
}

// Bit (1 << type) set for each unlock condition type an output kind may carry.
using TypeMask = std::uint32_t;

// Reads a u8 count and that many conditions, each of a type in `allowed`, strictly ascending.
std::vector<UnlockCondition> DecodeUnlockConditions(ByteReader &reader, TypeMask allowed);
void EncodeUnlockConditions(ByteWriter &writer, const std::vector<UnlockCondition> &conditions);

} // namespace permanode::codec
