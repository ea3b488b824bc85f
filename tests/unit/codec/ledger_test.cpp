// Ledger derivations checked against the outputs inx-chronicle booked for the same milestones.
#include "fixtures.hpp"
#include "codec/block.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/json.hpp"
#include "codec/ledger.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace permanode::codec
{
namespace
{

struct ConeLedger
{
    std::map<OutputId, CreatedOutput> created;
    std::set<OutputId> consumed;
    std::map<OutputId, BlockId> created_in_block;
};

// Applies the cone's included transactions, as ingest will.
ConeLedger DeriveCone(const nlohmann::json &cone)
{
    ConeLedger ledger;
    for (std::size_t i = 0; i < cone.size(); ++i)
    {
        const auto &entry = cone.at(std::to_string(i));
        if (entry.at("metadata").at("inclusion_state") != "included")
            continue;
        Bytes raw = fixtures::Binary(entry.at("raw"));
        DecodedBlock decoded = DecodeBlockWithIds(raw);
        const TransactionPayload *transaction = TransactionOf(decoded.block);
        EXPECT_NE(transaction, nullptr);
        if (!transaction)
            continue;
        for (auto &created : CreatedOutputs(*transaction, *decoded.transaction_id))
        {
            ledger.created_in_block[created.output_id] = decoded.block_id;
            ledger.created.emplace(created.output_id, std::move(created));
        }
        for (const auto &input : ConsumedOutputs(*transaction))
            ledger.consumed.insert(input);
    }
    return ledger;
}

class LedgerTest : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        data_ = new nlohmann::json(fixtures::LoadJson("in_memory_data.json"));
    }
    static void TearDownTestSuite() { delete data_; }
    static nlohmann::json *data_;
};
nlohmann::json *LedgerTest::data_ = nullptr;

void ExpectCreatedMatches(const nlohmann::json &milestone, const ConeLedger &ledger, bool exact)
{
    std::size_t matched = 0;
    for (const auto &record : milestone.at("created"))
    {
        OutputId id = fixtures::ChronicleOutputId(record.at("output_id"));
        auto it = ledger.created.find(id);
        if (!exact && it == ledger.created.end())
            continue; // a genesis-snapshot output, booked without a block in the cone
        ASSERT_NE(it, ledger.created.end()) << OutputIdToHex(id);
        ++matched;
        SCOPED_TRACE(OutputIdToHex(id));
        EXPECT_EQ(it->second.output, fixtures::ChronicleOutput(record.at("output")));
        EXPECT_EQ(ledger.created_in_block.at(id), fixtures::Binary32(record.at("block_id")));

        const auto &fields = it->second.fields;
        const auto &output = record.at("output");
        EXPECT_EQ(fields.amount, std::stoull(output.at("amount").get<std::string>()));
        const char *owner = output.contains("address_unlock_condition")
                                ? "address_unlock_condition"
                                : "state_controller_address_unlock_condition";
        ASSERT_TRUE(fields.address);
        EXPECT_EQ(*fields.address, fixtures::ChronicleAddress(output.at(owner).at("address")));
        EXPECT_EQ(fields.native_token_count, output.at("native_tokens").size());
    }
    EXPECT_EQ(matched, ledger.created.size()) << "every derived output is in the fixture";
}

void ExpectConsumedMatches(const nlohmann::json &milestone, const ConeLedger &ledger)
{
    std::set<OutputId> expected;
    for (const auto &record : milestone.at("consumed"))
        expected.insert(fixtures::ChronicleOutputId(record.at("output").at("output_id")));
    EXPECT_EQ(ledger.consumed, expected);
}

TEST_F(LedgerTest, Milestone17340CreatedAndConsumed)
{
    const auto &milestone = data_->at("17340");
    ConeLedger ledger = DeriveCone(milestone.at("cone"));
    EXPECT_EQ(ledger.created.size(), milestone.at("created").size());
    ExpectCreatedMatches(milestone, ledger, true);
    ExpectConsumedMatches(milestone, ledger);
}

TEST_F(LedgerTest, Milestone17341CreatedAndConsumed)
{
    const auto &milestone = data_->at("17341");
    ConeLedger ledger = DeriveCone(milestone.at("cone"));
    EXPECT_EQ(ledger.created.size(), milestone.at("created").size());
    ExpectCreatedMatches(milestone, ledger, true);
    ExpectConsumedMatches(milestone, ledger);
}

// 17339 also books genesis outputs, so the cone's outputs are a subset of `created`.
TEST_F(LedgerTest, Milestone17339ConeOutputsAreBooked)
{
    const auto &milestone = data_->at("17339");
    ConeLedger ledger = DeriveCone(milestone.at("cone"));
    EXPECT_FALSE(ledger.created.empty());
    ExpectCreatedMatches(milestone, ledger, false);
    ExpectConsumedMatches(milestone, ledger);
}

// Consumed outputs carry their spending transaction; it must be one of the cone's transactions.
TEST_F(LedgerTest, SpendingTransactionsAreConeTransactions)
{
    for (const char *index : {"17340", "17341"})
    {
        const auto &milestone = data_->at(index);
        std::set<TransactionId> cone_transactions;
        const auto &cone = milestone.at("cone");
        for (std::size_t i = 0; i < cone.size(); ++i)
        {
            Bytes raw = fixtures::Binary(cone.at(std::to_string(i)).at("raw"));
            DecodedBlock decoded = DecodeBlockWithIds(raw);
            if (decoded.transaction_id)
                cone_transactions.insert(*decoded.transaction_id);
        }
        for (const auto &record : milestone.at("consumed"))
            EXPECT_TRUE(cone_transactions.count(
                fixtures::Binary32(record.at("spent_metadata").at("transaction_id"))));
    }
}

TEST(IndexOutput, CollectsEveryIndexedField)
{
    Address owner{AddressType::kEd25519, Hash32{1}};
    Address back{AddressType::kAlias, Hash32{2}};
    Address sender{AddressType::kNft, Hash32{3}};
    TokenId token{};
    token[0] = 8;
    BasicOutput basic;
    basic.amount = 42;
    basic.native_tokens = {NativeToken{token, U256{5}}};
    basic.unlock_conditions = {AddressUnlockCondition{owner},
                               StorageDepositReturnUnlockCondition{back, 7},
                               TimelockUnlockCondition{100}, ExpirationUnlockCondition{back, 200}};
    basic.features = {SenderFeature{sender}, TagFeature{{'h', 'i'}}};
    IndexedFields fields = IndexOutput(basic, OutputId{});
    EXPECT_EQ(fields.kind, OutputType::kBasic);
    EXPECT_EQ(fields.amount, 42u);
    EXPECT_EQ(fields.address, owner);
    EXPECT_EQ(fields.storage_deposit_return_address, back);
    EXPECT_EQ(fields.storage_deposit_return_amount, 7u);
    EXPECT_EQ(fields.timelock, 100u);
    EXPECT_EQ(fields.expiration, 200u);
    EXPECT_EQ(fields.expiration_return_address, back);
    EXPECT_EQ(fields.sender, sender);
    EXPECT_EQ(fields.tag, (Bytes{'h', 'i'}));
    EXPECT_EQ(fields.native_token_count, 1u);
    ASSERT_EQ(fields.native_token_ids.size(), 1u);
    EXPECT_EQ(fields.native_token_ids[0], token);
    EXPECT_FALSE(fields.issuer);
}

TEST(IndexOutput, AliasUsesStateControllerAndResolvesItsId)
{
    Address state{AddressType::kEd25519, Hash32{4}};
    Address governor{AddressType::kEd25519, Hash32{5}};
    AliasOutput alias;
    alias.unlock_conditions = {StateControllerAddressUnlockCondition{state},
                               GovernorAddressUnlockCondition{governor}};
    alias.immutable_features = {IssuerFeature{governor}};
    OutputId id{Hash32{9}, 3};
    IndexedFields fields = IndexOutput(alias, id);
    EXPECT_EQ(fields.address, state);
    EXPECT_EQ(fields.state_controller, state);
    EXPECT_EQ(fields.governor, governor);
    EXPECT_EQ(fields.issuer, governor);
    EXPECT_EQ(fields.alias_id, ChainIdFromOutputId(id)); // minted here: ID derives from output ID

    alias.alias_id = Hash32{7};
    EXPECT_EQ(IndexOutput(alias, id).alias_id, Hash32{7}); // existing alias keeps its ID
}

TEST(IndexOutput, FoundryIdFromImmutableAlias)
{
    FoundryOutput foundry;
    foundry.serial_number = 0x01020304;
    Hash32 alias_id{};
    alias_id[0] = 0xaa;
    alias_id[31] = 0xbb;
    foundry.unlock_conditions = {
        ImmutableAliasAddressUnlockCondition{Address{AddressType::kAlias, alias_id}}};
    IndexedFields fields = IndexOutput(foundry, OutputId{});
    ASSERT_TRUE(fields.foundry_id);
    EXPECT_EQ(ToHex(*fields.foundry_id),
              "0x08aa" + std::string(60, '0') + "bb" + "04030201" + "00");
    EXPECT_EQ(fields.address, (Address{AddressType::kAlias, alias_id}));
}

} // namespace
} // namespace permanode::codec
