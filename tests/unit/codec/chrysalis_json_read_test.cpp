// REST API v1 JSON back to bytes: the fixtures' source JSON must give their exact bytes.
#include "chrysalis_fixtures.hpp"
#include "chrysalis_samples.hpp"
#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"

#include <gtest/gtest.h>

namespace permanode::codec::chrysalis
{
namespace
{

using namespace samples;

std::string PathOf(const nlohmann::json &json)
{
    try
    {
        MessageFromJson(json);
    }
    catch (const JsonError &error)
    {
        return error.Path();
    }
    ADD_FAILURE() << "parsed without error";
    return "";
}

TEST(ChrysalisJsonRead, SourceJsonEncodesToTheFixtureBytes)
{
    int compared = 0;
    for (const fixtures::Record &record : fixtures::Messages())
    {
        if (!record.record.contains("json_in_source"))
            continue;
        SCOPED_TRACE(record.label);
        ++compared;
        EXPECT_EQ(EncodeMessage(MessageFromJson(record.record.at("json_in_source"))), record.bytes);
    }
    EXPECT_EQ(compared, 8);
}

TEST(ChrysalisJsonRead, HandBuiltPayloadsRoundTripThroughJson)
{
    TransactionPayload transaction = DustTransaction();
    transaction.essence.inputs.push_back(UtxoInput{Filled<32>(0x12), 0});
    transaction.unlocks.push_back(ReferenceUnlock{0});
    for (const Message &message : {MessageWith(DustTransaction()), MessageWith(Milestone()),
                                   MessageWith(Milestone(Receipt())), MessageWith(transaction)})
        EXPECT_EQ(MessageFromJson(ToJson(message)), message);
}

TEST(ChrysalisJsonRead, ErrorsNameThePath)
{
    nlohmann::json json = ToJson(MessageWith(DustTransaction()));
    nlohmann::json bad = json;
    bad["nonce"] = 5;
    EXPECT_EQ(PathOf(bad), "$.nonce");
    bad = json;
    bad["payload"]["essence"]["inputs"][0]["transactionId"] = "abc";
    EXPECT_EQ(PathOf(bad), "$.payload.essence.inputs[0].transactionId");
    bad = json;
    bad["payload"]["type"] = 9;
    EXPECT_EQ(PathOf(bad), "$.payload.type");
    bad = json;
    bad["payload"]["unlockBlocks"][0].erase("signature");
    EXPECT_EQ(PathOf(bad), "$.payload.unlockBlocks[0].signature");
    bad = json;
    bad["networkId"] = "18446744073709551616"; // 2^64
    EXPECT_EQ(PathOf(bad), "$.networkId");
}

} // namespace
} // namespace permanode::codec::chrysalis
