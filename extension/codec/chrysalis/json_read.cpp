// REST API v1 JSON -> message, the inverse of json_write.cpp. Every failure is a JsonError naming
// the JSON path; the result is only as valid as DecodeMessage(EncodeMessage(...)) finds it.
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"

#include <limits>
#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

using nlohmann::json;

std::string Join(const std::string &path, const std::string &key)
{
    return path + "." + key;
}

const json &Field(const json &object, const std::string &path, const std::string &key)
{
    if (!object.is_object())
        throw JsonError(path, "expected an object");
    auto it = object.find(key);
    if (it == object.end())
        throw JsonError(Join(path, key), "missing");
    return *it;
}

std::uint64_t Unsigned(const json &value, const std::string &path, std::uint64_t max)
{
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
        throw JsonError(path, "expected a non-negative integer");
    std::uint64_t number = value.get<std::uint64_t>();
    if (number > max)
        throw JsonError(path, "out of range");
    return number;
}

std::uint64_t UnsignedField(const json &object, const std::string &path, const std::string &key,
                            std::uint64_t max)
{
    return Unsigned(Field(object, path, key), Join(path, key), max);
}

// Network ID and nonce: decimal strings, since they may exceed 2^53.
std::uint64_t DecimalField(const json &object, const std::string &path, const std::string &key)
{
    const json &value = Field(object, path, key);
    std::string text = value.is_string() ? value.get<std::string>() : std::string();
    if (text.empty() || text.size() > 20 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        throw JsonError(Join(path, key), "expected a decimal string");
    std::uint64_t number = 0;
    for (char digit : text)
    {
        unsigned d = static_cast<unsigned>(digit - '0');
        if (number > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
            throw JsonError(Join(path, key), "exceeds 64 bits");
        number = number * 10 + d;
    }
    return number;
}

Bytes HexBytes(const json &value, const std::string &path)
{
    std::optional<Bytes> bytes =
        value.is_string() ? FromHex(value.get<std::string>()) : std::nullopt;
    if (!bytes)
        throw JsonError(path, "expected a hex string");
    return *bytes;
}

template <std::size_t N>
std::array<std::uint8_t, N> HexFixed(const json &value, const std::string &path)
{
    Bytes bytes = HexBytes(value, path);
    if (bytes.size() != N)
        throw JsonError(path, "expected " + std::to_string(N) + " bytes");
    std::array<std::uint8_t, N> out;
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return out;
}

template <std::size_t N>
std::array<std::uint8_t, N> HexField(const json &object, const std::string &path,
                                     const std::string &key)
{
    return HexFixed<N>(Field(object, path, key), Join(path, key));
}

const json &ArrayField(const json &object, const std::string &path, const std::string &key)
{
    const json &value = Field(object, path, key);
    if (!value.is_array())
        throw JsonError(Join(path, key), "expected an array");
    return value;
}

std::vector<Hash32> HashList(const json &object, const std::string &path, const std::string &key)
{
    std::vector<Hash32> out;
    const json &list = ArrayField(object, path, key);
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(HexFixed<32>(list[i], Join(path, key) + "[" + std::to_string(i) + "]"));
    return out;
}

std::uint64_t TypeOf(const json &object, const std::string &path)
{
    return UnsignedField(object, path, "type", std::numeric_limits<std::uint32_t>::max());
}

void ExpectType(const json &object, const std::string &path, std::uint64_t expected)
{
    if (TypeOf(object, path) != expected)
        throw JsonError(Join(path, "type"), "expected " + std::to_string(expected));
}

Ed25519Address AddressFromJson(const json &object, const std::string &path)
{
    ExpectType(object, path, 0);
    return Ed25519Address{HexField<32>(object, path, "address")};
}

Input InputFromJson(const json &object, const std::string &path)
{
    if (TypeOf(object, path) == 1)
        return TreasuryInput{HexField<32>(object, path, "milestoneId")};
    ExpectType(object, path, 0);
    return UtxoInput{
        HexField<32>(object, path, "transactionId"),
        static_cast<std::uint16_t>(UnsignedField(object, path, "transactionOutputIndex", 0xffff))};
}

Output OutputFromJson(const json &object, const std::string &path)
{
    std::uint64_t type = TypeOf(object, path);
    std::uint64_t amount =
        UnsignedField(object, path, "amount", std::numeric_limits<std::uint64_t>::max());
    if (type == 2)
        return TreasuryOutput{amount};
    Ed25519Address address = AddressFromJson(Field(object, path, "address"), Join(path, "address"));
    if (type == 1)
        return SigLockedDustAllowanceOutput{address, amount};
    if (type != 0)
        throw JsonError(Join(path, "type"), "unknown output type");
    return SigLockedSingleOutput{address, amount};
}

Unlock UnlockFromJson(const json &object, const std::string &path)
{
    if (TypeOf(object, path) == 1)
        return ReferenceUnlock{
            static_cast<std::uint16_t>(UnsignedField(object, path, "reference", 0xffff))};
    ExpectType(object, path, 0);
    std::string signature_path = Join(path, "signature");
    const json &signature = Field(object, path, "signature");
    ExpectType(signature, signature_path, 0);
    return SignatureUnlock{HexField<32>(signature, signature_path, "publicKey"),
                           HexField<64>(signature, signature_path, "signature")};
}

IndexationPayload IndexationFromJson(const json &object, const std::string &path)
{
    return IndexationPayload{HexBytes(Field(object, path, "index"), Join(path, "index")),
                             HexBytes(Field(object, path, "data"), Join(path, "data"))};
}

TransactionPayload TransactionFromJson(const json &object, const std::string &path)
{
    TransactionPayload payload;
    std::string essence_path = Join(path, "essence");
    const json &essence = Field(object, path, "essence");
    ExpectType(essence, essence_path, 0);
    const json &inputs = ArrayField(essence, essence_path, "inputs");
    for (std::size_t i = 0; i < inputs.size(); ++i)
        payload.essence.inputs.push_back(
            InputFromJson(inputs[i], essence_path + ".inputs[" + std::to_string(i) + "]"));
    const json &outputs = ArrayField(essence, essence_path, "outputs");
    for (std::size_t i = 0; i < outputs.size(); ++i)
        payload.essence.outputs.push_back(
            OutputFromJson(outputs[i], essence_path + ".outputs[" + std::to_string(i) + "]"));
    if (auto it = essence.find("payload"); it != essence.end() && !it->is_null())
    {
        ExpectType(*it, Join(essence_path, "payload"), 2);
        payload.essence.payload = IndexationFromJson(*it, Join(essence_path, "payload"));
    }
    const json &unlocks = ArrayField(object, path, "unlockBlocks");
    for (std::size_t i = 0; i < unlocks.size(); ++i)
        payload.unlocks.push_back(
            UnlockFromJson(unlocks[i], path + ".unlockBlocks[" + std::to_string(i) + "]"));
    return payload;
}

TreasuryTransactionPayload TreasuryTransactionFromJson(const json &object, const std::string &path)
{
    std::string input_path = Join(path, "input");
    std::string output_path = Join(path, "output");
    const json &input = Field(object, path, "input");
    const json &output = Field(object, path, "output");
    ExpectType(input, input_path, 1);
    ExpectType(output, output_path, 2);
    return TreasuryTransactionPayload{
        TreasuryInput{HexField<32>(input, input_path, "milestoneId")},
        TreasuryOutput{UnsignedField(output, output_path, "amount",
                                     std::numeric_limits<std::uint64_t>::max())}};
}

ReceiptPayload ReceiptFromJson(const json &object, const std::string &path)
{
    ReceiptPayload receipt;
    receipt.migrated_at = static_cast<std::uint32_t>(
        UnsignedField(object, path, "migratedAt", std::numeric_limits<std::uint32_t>::max()));
    const json &final = Field(object, path, "final");
    if (!final.is_boolean())
        throw JsonError(Join(path, "final"), "expected a boolean");
    receipt.final = final.get<bool>();
    const json &funds = ArrayField(object, path, "funds");
    for (std::size_t i = 0; i < funds.size(); ++i)
    {
        std::string entry_path = path + ".funds[" + std::to_string(i) + "]";
        receipt.funds.push_back(MigratedFundsEntry{
            HexField<49>(funds[i], entry_path, "tailTransactionHash"),
            AddressFromJson(Field(funds[i], entry_path, "address"), Join(entry_path, "address")),
            UnsignedField(funds[i], entry_path, "deposit",
                          std::numeric_limits<std::uint64_t>::max())});
    }
    receipt.transaction =
        TreasuryTransactionFromJson(Field(object, path, "transaction"), Join(path, "transaction"));
    return receipt;
}

MilestonePayload MilestoneFromJson(const json &object, const std::string &path)
{
    MilestonePayload payload;
    MilestoneEssence &essence = payload.essence;
    essence.index = static_cast<std::uint32_t>(
        UnsignedField(object, path, "index", std::numeric_limits<std::uint32_t>::max()));
    essence.timestamp =
        UnsignedField(object, path, "timestamp", std::numeric_limits<std::uint64_t>::max());
    essence.parents = HashList(object, path, "parentMessageIds");
    essence.inclusion_merkle_proof = HexField<32>(object, path, "inclusionMerkleProof");
    essence.next_pow_score = static_cast<std::uint32_t>(
        UnsignedField(object, path, "nextPoWScore", std::numeric_limits<std::uint32_t>::max()));
    essence.next_pow_score_milestone_index = static_cast<std::uint32_t>(UnsignedField(
        object, path, "nextPoWScoreMilestoneIndex", std::numeric_limits<std::uint32_t>::max()));
    essence.public_keys = HashList(object, path, "publicKeys");
    if (auto it = object.find("receipt"); it != object.end() && !it->is_null())
        essence.receipt = ReceiptFromJson(*it, Join(path, "receipt"));
    const json &signatures = ArrayField(object, path, "signatures");
    for (std::size_t i = 0; i < signatures.size(); ++i)
        payload.signatures.push_back(
            HexFixed<64>(signatures[i], path + ".signatures[" + std::to_string(i) + "]"));
    return payload;
}

Payload PayloadFromJson(const json &object, const std::string &path)
{
    switch (TypeOf(object, path))
    {
        case 0:
            return TransactionFromJson(object, path);
        case 1:
            return MilestoneFromJson(object, path);
        case 2:
            return IndexationFromJson(object, path);
        case 3:
            return ReceiptFromJson(object, path);
        case 4:
            return TreasuryTransactionFromJson(object, path);
        default:
            throw JsonError(Join(path, "type"), "unknown payload type");
    }
}

} // namespace

Message MessageFromJson(const nlohmann::json &json)
{
    const std::string path = "$";
    Message message;
    message.network_id = DecimalField(json, path, "networkId");
    message.parents = HashList(json, path, "parentMessageIds");
    if (auto it = json.find("payload"); it != json.end() && !it->is_null())
        message.payload = PayloadFromJson(*it, Join(path, "payload"));
    message.nonce = DecimalField(json, path, "nonce");
    return message;
}

Output OutputFromJson(const nlohmann::json &json)
{
    return OutputFromJson(json, "$");
}

} // namespace permanode::codec::chrysalis
