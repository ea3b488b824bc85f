#include "decode.hpp"

#include <iostream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "codec/block.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/json.hpp"
#include "codec/legacy/transaction.hpp"
#include "commands.hpp"

namespace permanode::cli
{

namespace
{

std::string_view Trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

codec::Bytes BytesOf(std::string_view hex)
{
    std::string text(Trimmed(hex));
    if (text.rfind("0x", 0) != 0 && text.rfind("0X", 0) != 0)
        text = "0x" + text;
    for (char &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::optional<codec::Bytes> bytes = codec::FromHex(text);
    if (!bytes)
        throw std::invalid_argument("not hex: expected the raw bytes as hex digits, 0x optional");
    return *bytes;
}

// A Chrysalis message as its node's REST API v1 served it, with its IDs (hex without 0x, as
// that API wrote them).
nlohmann::json ChrysalisJson(const codec::Bytes &bytes)
{
    namespace v1 = codec::chrysalis;
    auto hex = [](const auto &id) { return codec::ToHex(id).substr(2); };
    v1::Message message = v1::DecodeMessage(bytes);
    nlohmann::json out = nlohmann::json::object();
    out["messageId"] = hex(v1::ComputeMessageId(bytes));
    if (message.payload)
    {
        if (const auto *tx = std::get_if<v1::TransactionPayload>(&*message.payload))
            out["transactionId"] = hex(v1::ComputeTransactionId(*tx));
        if (const auto *ms = std::get_if<v1::MilestonePayload>(&*message.payload))
            out["milestoneId"] = hex(v1::ComputeMilestoneId(ms->essence));
    }
    out["message"] = v1::ToJson(message);
    return out;
}

// A legacy transaction's fields, layout detected, with its Curl-P-81 hash.
nlohmann::json LegacyJson(std::string_view trytes)
{
    namespace legacy = codec::legacy;
    legacy::Trits trits = legacy::TransactionTrits(Trimmed(trytes));
    legacy::Transaction tx =
        legacy::DecodeTransaction(trits.data(), legacy::DetectLayout(trits.data()));
    return legacy::ToJson(tx, legacy::TransactionHash(trits.data()));
}

} // namespace

nlohmann::json DecodeToJson(std::string_view input, Protocol protocol)
{
    if (protocol == Protocol::kLegacy)
        return LegacyJson(input);
    codec::Bytes bytes = BytesOf(input);
    if (protocol == Protocol::kChrysalis)
        return ChrysalisJson(bytes);
    codec::DecodedBlock decoded = codec::DecodeBlockWithIds(bytes);
    nlohmann::json out = nlohmann::json::object();
    out["blockId"] = codec::ToHex(decoded.block_id);
    if (decoded.transaction_id)
        out["transactionId"] = codec::ToHex(*decoded.transaction_id);
    if (decoded.milestone_id)
        out["milestoneId"] = codec::ToHex(*decoded.milestone_id);
    out["block"] = codec::ToJson(decoded.block);
    return out;
}

int RunDecode(const std::vector<std::string> &inputs, Protocol protocol)
{
    auto decode_one = [&](const std::string &text, const std::string &where, bool pretty)
    {
        try
        {
            nlohmann::json json = DecodeToJson(text, protocol);
            fmt::print("{}\n", pretty ? json.dump(2) : json.dump());
            return true;
        }
        catch (const codec::DecodeError &e)
        {
            fmt::print(stderr, "permanode: decode: {}: {}\n", where, e.what());
        }
        catch (const std::invalid_argument &e)
        {
            fmt::print(stderr, "permanode: decode: {}: {}\n", where, e.what());
        }
        return false;
    };
    bool pretty = inputs.size() == 1 && inputs[0] != "-";
    for (size_t i = 0; i < inputs.size(); i++)
    {
        if (inputs[i] != "-")
        {
            if (!decode_one(inputs[i], fmt::format("argument {}", i + 1), pretty))
                return kBadInput;
            continue;
        }
        std::string line;
        for (size_t number = 1; std::getline(std::cin, line); number++)
        {
            if (Trimmed(line).empty())
                continue;
            if (!decode_one(line, fmt::format("stdin:{}", number), false))
                return kBadInput;
        }
    }
    return kOk;
}

} // namespace permanode::cli
