// REST API v1 JSON -> message, the inverse of json_write.cpp. Every failure is a JsonError naming
// the JSON path; the result is only as valid as DecodeMessage(EncodeMessage(...)) finds it.
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/json_fields.hpp"

#include <string>

namespace permanode::codec::chrysalis
{
namespace
{

using nlohmann::json;

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
    return HexFixed<N>(JsonField(object, path, key), JsonJoin(path, key));
}

const json &ArrayField(const json &object, const std::string &path, const std::string &key)
{
    const json &value = JsonField(object, path, key);
    if (!value.is_array())
        throw JsonError(JsonJoin(path, key), "expected an array");
    return value;
}

std::vector<Hash32> HashList(const json &object, const std::string &path, const std::string &key)
{
    std::vector<Hash32> out;
    const json &list = ArrayField(object, path, key);
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(HexFixed<32>(list[i], JsonJoin(path, key) + "[" + std::to_string(i) + "]"));
    return out;
}

std::uint64_t TypeOf(const json &object, const std::string &path)
{
    return JsonUnsignedField<std::uint32_t>(object, path, "type");
}

void ExpectType(const json &object, const std::string &path, std::uint64_t expected)
{
    if (TypeOf(object, path) != expected)
        throw JsonError(JsonJoin(path, "type"), "expected " + std::to_string(expected));
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
    return UtxoInput{HexField<32>(object, path, "transactionId"),
                     JsonUnsignedField<std::uint16_t>(object, path, "transactionOutputIndex")};
}

Output OutputFromJson(const json &object, const std::string &path)
{
    std::uint64_t type = TypeOf(object, path);
    std::uint64_t amount = JsonUnsignedField<std::uint64_t>(object, path, "amount");
    if (type == 2)
        return TreasuryOutput{amount};
    Ed25519Address address =
        AddressFromJson(JsonField(object, path, "address"), JsonJoin(path, "address"));
    if (type == 1)
        return SigLockedDustAllowanceOutput{address, amount};
    if (type != 0)
        throw JsonError(JsonJoin(path, "type"), "unknown output type");
    return SigLockedSingleOutput{address, amount};
}

Unlock UnlockFromJson(const json &object, const std::string &path)
{
    if (TypeOf(object, path) == 1)
        return ReferenceUnlock{JsonUnsignedField<std::uint16_t>(object, path, "reference")};
    ExpectType(object, path, 0);
    std::string signature_path = JsonJoin(path, "signature");
    const json &signature = JsonField(object, path, "signature");
    ExpectType(signature, signature_path, 0);
    return SignatureUnlock{HexField<32>(signature, signature_path, "publicKey"),
                           HexField<64>(signature, signature_path, "signature")};
}

IndexationPayload IndexationFromJson(const json &object, const std::string &path)
{
    return IndexationPayload{HexBytes(JsonField(object, path, "index"), JsonJoin(path, "index")),
                             HexBytes(JsonField(object, path, "data"), JsonJoin(path, "data"))};
}

TransactionPayload TransactionFromJson(const json &object, const std::string &path)
{
    TransactionPayload payload;
    std::string essence_path = JsonJoin(path, "essence");
    const json &essence = JsonField(object, path, "essence");
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
        ExpectType(*it, JsonJoin(essence_path, "payload"), 2);
        payload.essence.payload = IndexationFromJson(*it, JsonJoin(essence_path, "payload"));
    }
    const json &unlocks = ArrayField(object, path, "unlockBlocks");
    for (std::size_t i = 0; i < unlocks.size(); ++i)
        payload.unlocks.push_back(
            UnlockFromJson(unlocks[i], path + ".unlockBlocks[" + std::to_string(i) + "]"));
    return payload;
}

TreasuryTransactionPayload TreasuryTransactionFromJson(const json &object, const std::string &path)
{
    std::string input_path = JsonJoin(path, "input");
    std::string output_path = JsonJoin(path, "output");
    const json &input = JsonField(object, path, "input");
    const json &output = JsonField(object, path, "output");
    ExpectType(input, input_path, 1);
    ExpectType(output, output_path, 2);
    return TreasuryTransactionPayload{
        TreasuryInput{HexField<32>(input, input_path, "milestoneId")},
        TreasuryOutput{JsonUnsignedField<std::uint64_t>(output, output_path, "amount")}};
}

ReceiptPayload ReceiptFromJson(const json &object, const std::string &path)
{
    ReceiptPayload receipt;
    receipt.migrated_at =
        static_cast<std::uint32_t>(JsonUnsignedField<std::uint32_t>(object, path, "migratedAt"));
    const json &final = JsonField(object, path, "final");
    if (!final.is_boolean())
        throw JsonError(JsonJoin(path, "final"), "expected a boolean");
    receipt.final = final.get<bool>();
    const json &funds = ArrayField(object, path, "funds");
    for (std::size_t i = 0; i < funds.size(); ++i)
    {
        std::string entry_path = path + ".funds[" + std::to_string(i) + "]";
        receipt.funds.push_back(
            MigratedFundsEntry{HexField<49>(funds[i], entry_path, "tailTransactionHash"),
                               AddressFromJson(JsonField(funds[i], entry_path, "address"),
                                               JsonJoin(entry_path, "address")),
                               JsonUnsignedField<std::uint64_t>(funds[i], entry_path, "deposit")});
    }
    receipt.transaction = TreasuryTransactionFromJson(JsonField(object, path, "transaction"),
                                                      JsonJoin(path, "transaction"));
    return receipt;
}

MilestonePayload MilestoneFromJson(const json &object, const std::string &path)
{
    MilestonePayload payload;
    MilestoneEssence &essence = payload.essence;
    essence.index =
        static_cast<std::uint32_t>(JsonUnsignedField<std::uint32_t>(object, path, "index"));
    essence.timestamp = JsonUnsignedField<std::uint64_t>(object, path, "timestamp");
    essence.parents = HashList(object, path, "parentMessageIds");
    essence.inclusion_merkle_proof = HexField<32>(object, path, "inclusionMerkleProof");
    essence.next_pow_score =
        static_cast<std::uint32_t>(JsonUnsignedField<std::uint32_t>(object, path, "nextPoWScore"));
    essence.next_pow_score_milestone_index =
        JsonUnsignedField<std::uint32_t>(object, path, "nextPoWScoreMilestoneIndex");
    essence.public_keys = HashList(object, path, "publicKeys");
    if (auto it = object.find("receipt"); it != object.end() && !it->is_null())
        essence.receipt = ReceiptFromJson(*it, JsonJoin(path, "receipt"));
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
            throw JsonError(JsonJoin(path, "type"), "unknown payload type");
    }
}

} // namespace

Message MessageFromJson(const nlohmann::json &json)
{
    const std::string path = "$";
    Message message;
    message.network_id = JsonDecimalField(json, path, "networkId");
    message.parents = HashList(json, path, "parentMessageIds");
    if (auto it = json.find("payload"); it != json.end() && !it->is_null())
        message.payload = PayloadFromJson(*it, JsonJoin(path, "payload"));
    message.nonce = JsonDecimalField(json, path, "nonce");
    return message;
}

Output OutputFromJson(const nlohmann::json &json)
{
    return OutputFromJson(json, "$");
}

} // namespace permanode::codec::chrysalis
