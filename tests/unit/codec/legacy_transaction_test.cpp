// Legacy transaction fields: the real transactions read as iota.js reads them, the old layout
// (before November 2017) told apart and read as such, and bad input named by position.
#include "codec/error.hpp"
#include "codec/legacy/transaction.hpp"
#include "legacy_fixtures.hpp"
#include "legacy_samples.hpp"

#include <gtest/gtest.h>

namespace
{

using namespace permanode::codec;
using namespace permanode::codec::legacy;

const fixtures::FixtureFile &FileNamed(const std::string &name)
{
    static const std::vector<fixtures::FixtureFile> files = fixtures::Files();
    for (const auto &file : files)
        if (file.name == name)
            return file;
    throw std::runtime_error("no fixture " + name);
}

TEST(LegacyTransactionTest, FieldsEqualTheObjectsOfIotaJsSamples)
{
    const auto &file = FileNamed("iotajs-samples-bundle.json");
    std::map<std::string, std::string> trytes_by_hash;
    for (const auto &tx : fixtures::Transactions(file))
        trytes_by_hash[tx.hash] = tx.trytes;
    std::size_t compared = 0;
    for (const char *group : {"bundle", "bundleWithZeroValue"})
        for (const auto &expected : file.json.at("expected_objects").at(group))
        {
            std::string hash = expected.at("hash").get<std::string>();
            const std::string &trytes = trytes_by_hash.at(hash);
            Trits trits = TransactionTrits(trytes);
            Transaction tx = DecodeTransaction(trytes);
            EXPECT_EQ(tx.layout, Layout::kCurrent);
            EXPECT_EQ(ToJson(tx, TransactionHash(trits.data())), expected) << hash;
            compared++;
        }
    EXPECT_EQ(compared, 5u);
}

TEST(LegacyTransactionTest, OnlyThe2017MilestoneTransactionIsInTheOldLayout)
{
    std::size_t old = 0;
    for (const auto &fixture : fixtures::AllTransactions())
    {
        Transaction tx = DecodeTransaction(fixture.trytes);
        bool expect_old = fixture.file == "iotaphp-TransactionTest-test1.json";
        EXPECT_EQ(tx.layout, expect_old ? Layout::kOld : Layout::kCurrent) << fixture.hash;
        old += tx.layout == Layout::kOld;
    }
    EXPECT_EQ(old, 1u);
}

TEST(LegacyTransactionTest, OldLayoutReadsAn81TryteNonce)
{
    const auto &file = FileNamed("iotaphp-TransactionTest-test1.json");
    fixtures::FixtureTransaction fixture = fixtures::Transactions(file).front();
    Transaction tx = DecodeTransaction(fixture.trytes);
    ASSERT_EQ(tx.layout, Layout::kOld);
    EXPECT_EQ(tx.address, "KPWCHICGJZXKE9GSUDXZYUAPLHAKAHYHDXNPHENTERYMMBQOPSQIDENXKLKCEYCPVTZQLE"
                          "EJVYJZV9BWU");
    EXPECT_EQ(tx.timestamp, 1505334659); // 2017-09-13
    EXPECT_EQ(tx.current_index, 0);
    EXPECT_EQ(tx.last_index, 1);
    EXPECT_EQ(tx.bundle, "NCAVHDAXXGRKJGNQSDKWGMSXPNWYDEQUGS9PNCN9WGIERXCPDFAENLL9JCPDXAKYWUGL9DNI"
                         "HEKOLOUVZ");
    EXPECT_EQ(tx.nonce, fixture.trytes.substr(2592));
    EXPECT_EQ(tx.nonce.size(), 81u);
    EXPECT_EQ(tx.tag, tx.obsolete_tag);
    EXPECT_EQ(tx.attachment_timestamp, 0);
    // The milestone index sat in the (obsolete) tag: 9 trytes "NYJJ99999..." hold it.
    EXPECT_EQ(tx.obsolete_tag.substr(0, 4), "NYJJ");
    nlohmann::json json = ToJson(tx, fixture.hash);
    EXPECT_EQ(json.at("layout"), "old");
    EXPECT_EQ(json.at("nonce").get<std::string>().size(), 81u);
    // Read in the current layout instead, the nonce's first trytes would be taken for a tag.
    Trits trits = TransactionTrits(fixture.trytes);
    Transaction as_current = DecodeTransaction(trits.data(), Layout::kCurrent);
    EXPECT_EQ(as_current.tag, fixture.trytes.substr(2592, 27));
    // Both readings encode back to the same trits.
    EXPECT_EQ(EncodeTransaction(tx), trits);
    EXPECT_EQ(EncodeTransaction(as_current), trits);
}

TEST(LegacyTransactionTest, EveryFixtureTransactionEncodesBack)
{
    for (const auto &fixture : fixtures::AllTransactions())
    {
        Trits trits = TransactionTrits(fixture.trytes);
        Transaction tx = DecodeTransaction(trits.data(), DetectLayout(trits.data()));
        ASSERT_TRUE(tx.value_high_trits_zero) << fixture.hash;
        EXPECT_EQ(EncodeTransaction(tx), trits) << fixture.hash;
    }
}

TEST(LegacyTransactionTest, BadInputIsNamedByPosition)
{
    std::string trytes = fixtures::AllTransactions().front().trytes;
    auto offset_of = [](const std::string &input)
    {
        try
        {
            DecodeTransaction(input);
        }
        catch (const DecodeError &e)
        {
            EXPECT_EQ(e.Field(), "transaction");
            return std::make_pair(e.Offset(), std::string(e.what()));
        }
        return std::make_pair(std::size_t(-1), std::string());
    };
    auto [short_at, short_what] = offset_of(trytes.substr(0, 2672));
    EXPECT_EQ(short_at, 2672u);
    EXPECT_EQ(short_what, "transaction at tryte 2672: a transaction has 2673 trytes, got 2672");
    auto [long_at, long_what] = offset_of(trytes + "A");
    EXPECT_EQ(long_at, 2673u);
    std::string bad = trytes;
    bad[2300] = '#';
    auto [bad_at, bad_what] = offset_of(bad);
    EXPECT_EQ(bad_at, 2300u);
    EXPECT_NE(bad_what.find("'#' is not a tryte"), std::string::npos) << bad_what;
}

TEST(LegacyTransactionTest, EncodeRejectsFieldsOfTheWrongSize)
{
    Transaction tx = DecodeTransaction(fixtures::AllTransactions().front().trytes);
    tx.address.pop_back();
    EXPECT_THROW(EncodeTransaction(tx), EncodeError);
}

} // namespace

namespace
{

TEST(LegacyTransactionTest, RandomTransactionsRoundTrip)
{
    std::mt19937_64 random(2673);
    for (int k = 0; k < 300; k++)
    {
        Transaction tx = samples::RandomTransaction(random);
        Trits trits = EncodeTransaction(tx);
        ASSERT_EQ(DetectLayout(trits.data()), Layout::kCurrent);
        Transaction back = DecodeTransaction(trits.data(), Layout::kCurrent);
        EXPECT_EQ(ToJson(back, "H"), ToJson(tx, "H")) << k;
        Bytes bytes = EncodeT5b1(trits.data(), trits.size());
        ASSERT_EQ(bytes.size(), kTransactionT5b1Bytes);
        EXPECT_EQ(DecodeT5b1(bytes, kTransactionTrits), trits) << k;
    }
}

} // namespace
