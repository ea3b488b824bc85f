// Legacy bundle validation: the real bundles valid, the broken ones of IRI's tests failing the
// check they were built to fail, and generated bundles signed at security levels 1 to 3.
#include "codec/error.hpp"
#include "codec/legacy/bundle.hpp"
#include "codec/legacy/signing.hpp"
#include "legacy_fixtures.hpp"
#include "legacy_samples.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace
{

using namespace permanode::codec;
using namespace permanode::codec::legacy;

// The fixture bundles a node rejects, by bundle hash prefix, with the check they fail as their
// transactions are found from the tail along the trunks.
const std::map<std::string, BundleCheck> kBrokenBundles = {
    // Copies of RJPQGE...'s transactions with another bundle hash written in.
    {"ABCDGE9AXN", BundleCheck::kBundleHash},
    // The input's signature does not sign this bundle.
    {"DIODRCKI9I", BundleCheck::kSignature},
    // The trunks visit current indexes 0, 2, 1, 3.
    {"YD9SJSKIJD", BundleCheck::kIndexes},
    {"FYMNZOGUJH", BundleCheck::kIndexes},
    // Six transactions along the trunks, some of which say the bundle ends at index 3.
    {"NNCVJFWHJ9", BundleCheck::kLastIndex},
};

BundleCheck Expected(const std::string &bundle_hash)
{
    auto found = kBrokenBundles.find(bundle_hash.substr(0, 10));
    return found == kBrokenBundles.end() ? BundleCheck::kValid : found->second;
}

TEST(LegacyBundleTest, FixtureBundlesValidateOrFailForTheirReason)
{
    std::size_t valid = 0, invalid = 0, incomplete = 0;
    for (const auto &file : fixtures::Files())
    {
        std::vector<fixtures::FixtureTransaction> txs = fixtures::Transactions(file);
        for (const auto &entry : file.json.at("bundles"))
        {
            std::string hash = entry.at("bundle").get<std::string>();
            std::vector<fixtures::AssembledBundle> bundles = fixtures::Assemble(txs, hash);
            std::string where = file.name + " " + hash;
            BundleCheck expected = Expected(hash);
            if (!entry.at("complete").get<bool>() && expected == BundleCheck::kValid)
            {
                EXPECT_TRUE(bundles.empty()) << where;
                incomplete++;
                continue;
            }
            ASSERT_EQ(bundles.size(), 1u) << where;
            const auto &bundle = bundles.front();
            BundleVerdict verdict = ValidateBundle(bundle.transactions,
                                                   bundle.trunk_chained ? &bundle.hashes : nullptr);
            EXPECT_EQ(BundleCheckName(verdict.failed), std::string(BundleCheckName(expected)))
                << where << ": at " << verdict.transaction << ", " << verdict.detail;
            if (expected == BundleCheck::kValid)
            {
                // Only a bundle prepared but never attached has no trunk chain.
                EXPECT_EQ(bundle.trunk_chained, entry.at("trunk_chain_ok").get<bool>() ||
                                                    hash.rfind("RJPQGE9AXN", 0) == 0)
                    << where;
                valid++;
            }
            else
                invalid++;
        }
    }
    EXPECT_EQ(valid, 68u);  // 67 the fixtures call valid, and RJPQGE... along its trunks
    EXPECT_EQ(invalid, 5u); // the table above
    EXPECT_EQ(incomplete, 17u);
}

// RJPQGE... has five transactions for three indexes: along the trunks from its tail it is valid.
// Of the two other transactions at index 1, one carries another value, and the bundle it makes
// fails the balance; the other carries the same essence and signature as the chained one (it was
// attached again elsewhere), so its bundle is valid too.
TEST(LegacyBundleTest, OnlyTheTrunkChainedInstanceOfAConflictedBundleIsValid)
{
    std::vector<fixtures::FixtureTransaction> txs;
    for (const auto &file : fixtures::Files())
        if (file.name == "iri-BundleValidatorTest.json")
            txs = fixtures::Transactions(file);
    const std::string bundle_hash =
        "RJPQGE9AXNBBLPQ9IFJXFJTXJAIGDDXAWXGAVU9PJQNYFADJDIDBTJKSAEBBX9NWJGZVAVXYWXPCEFFH9";
    std::vector<fixtures::AssembledBundle> chained = fixtures::Assemble(txs, bundle_hash);
    ASSERT_EQ(chained.size(), 1u);
    ASSERT_TRUE(chained[0].trunk_chained);
    ASSERT_TRUE(ValidateBundle(chained[0].transactions, &chained[0].hashes).Valid());
    std::size_t alternatives = 0;
    for (const auto &fixture : txs)
    {
        Transaction tx = DecodeTransaction(fixture.trytes);
        if (tx.bundle != bundle_hash || tx.current_index != 1 ||
            fixture.hash == chained[0].hashes[1])
            continue;
        std::vector<Transaction> bundle = chained[0].transactions;
        bundle[1] = tx;
        BundleVerdict verdict = ValidateBundle(bundle);
        if (tx.value != -1)
            EXPECT_EQ(verdict.failed, BundleCheck::kBalance) << verdict.detail;
        else
        {
            EXPECT_TRUE(verdict.Valid()) << verdict.detail;
            EXPECT_EQ(tx.signature_message_fragment,
                      chained[0].transactions[1].signature_message_fragment);
        }
        alternatives++;
    }
    EXPECT_EQ(alternatives, 2u);
}

using samples::SignedBundle;

TEST(LegacyBundleTest, SignedAtEverySecurityLevel)
{
    for (const auto &securities : std::vector<std::vector<int>>{{1}, {2}, {3}, {1, 3, 2}})
    {
        std::vector<Transaction> txs = SignedBundle(securities);
        BundleVerdict verdict = ValidateBundle(txs);
        EXPECT_TRUE(verdict.Valid()) << BundleCheckName(verdict.failed) << ": " << verdict.detail;
        // The last signature fragment of the last input, one tryte changed.
        std::size_t last_fragment = txs.size() - 2;
        std::vector<Transaction> forged = txs;
        char &c = forged[last_fragment].signature_message_fragment[100];
        c = c == 'A' ? 'B' : 'A';
        verdict = ValidateBundle(forged);
        EXPECT_EQ(verdict.failed, BundleCheck::kSignature);
        EXPECT_EQ(verdict.transaction, last_fragment + 1 - securities.back());
    }
}

TEST(LegacyBundleTest, KeyIndexIsAddedToTheSeed)
{
    // The key at an index is the key at 0 of the seed incremented that many times, trit
    // carries wrapping past the last trit: seeds of all 1 (M), all -1 (N) and mixed.
    for (const std::string &seed :
         {std::string(81, 'M'), std::string(81, 'N'),
          std::string("MMMMM9ABCDEFGHIJKLMNOPQRSTUVWXYZ") + std::string(49, 'Z')})
        for (std::uint64_t index : {1ull, 2ull, 13ull, 364ull, 1000ull})
        {
            Trits incremented = TrytesToTrits(seed);
            for (std::uint64_t k = 0; k < index; k++)
                for (auto &t : incremented)
                {
                    if (++t <= 1)
                        break;
                    t = -1;
                }
            EXPECT_EQ(PrivateKey(seed, index, 1),
                      PrivateKey(TritsToTrytes(incremented.data(), incremented.size()), 0, 1))
                << seed << " + " << index;
        }
}

TEST(LegacyBundleTest, FinalizedHashIsTheFirstWithoutA13)
{
    std::mt19937_64 random(13);
    std::size_t incremented = 0;
    for (int k = 0; k < 20; k++)
    {
        std::vector<Transaction> txs;
        for (int i = 0; i < 1 + k % 5; i++)
            txs.push_back(samples::RandomTransaction(random));
        std::vector<Transaction> finalized = txs;
        std::string hash = FinalizeBundleHash(finalized);
        EXPECT_EQ(hash, ComputeBundleHash(finalized));
        std::array<int, kHashTrytes> normalized = NormalizedBundleHash(hash);
        EXPECT_EQ(std::count(normalized.begin(), normalized.end(), 13), 0);
        for (const auto &tx : finalized)
            EXPECT_EQ(tx.bundle, hash);
        // Incremented from the original tag one at a time, every earlier tag gives a 13.
        Trits tag = TrytesToTrits(txs[0].obsolete_tag);
        for (; TritsToTrytes(tag.data(), tag.size()) != finalized[0].obsolete_tag; incremented++)
        {
            ASSERT_LT(incremented, 10000u) << "not an increment of the original tag";
            txs[0].obsolete_tag = TritsToTrytes(tag.data(), tag.size());
            normalized = NormalizedBundleHash(ComputeBundleHash(txs));
            EXPECT_GT(std::count(normalized.begin(), normalized.end(), 13), 0);
            for (auto &t : tag)
            {
                if (++t <= 1)
                    break;
                t = -1;
            }
        }
        // Nothing else changed.
        txs[0].obsolete_tag = finalized[0].obsolete_tag;
        for (std::size_t i = 0; i < txs.size(); i++)
        {
            txs[i].bundle = hash;
            EXPECT_EQ(ToJson(finalized[i], ""), ToJson(txs[i], "")) << i;
        }
    }
    EXPECT_GT(incremented, 20u); // most tags needed increments
    std::vector<Transaction> none;
    EXPECT_THROW(FinalizeBundleHash(none), EncodeError);
}

TEST(LegacyBundleTest, EachCheckReportsItself)
{
    const std::vector<Transaction> good = SignedBundle({2});
    ASSERT_TRUE(ValidateBundle(good).Valid());
    auto failed = [](const std::vector<Transaction> &txs) { return ValidateBundle(txs).failed; };

    EXPECT_EQ(failed({}), BundleCheck::kIndexes);
    std::vector<Transaction> txs = good;
    std::swap(txs[1], txs[2]);
    EXPECT_EQ(failed(txs), BundleCheck::kIndexes);
    txs = good;
    txs.pop_back();
    EXPECT_EQ(failed(txs), BundleCheck::kLastIndex);
    txs = good;
    txs[0].value = kSupply + 1;
    EXPECT_EQ(failed(txs), BundleCheck::kValue);
    txs = good;
    txs[0].address.back() = 'M'; // trits 1, 1, 1: the last is not 0, not a Kerl address
    EXPECT_EQ(failed(txs), BundleCheck::kValue);
    txs = good;
    txs[0].value_high_trits_zero = false;
    EXPECT_EQ(failed(txs), BundleCheck::kValue);
    txs = good;
    txs[0].value += 1;
    EXPECT_EQ(failed(txs), BundleCheck::kBalance);
    txs = good;
    txs[0].value += 1;
    txs.back().value -= 1; // balanced again, but the essence changed
    EXPECT_EQ(failed(txs), BundleCheck::kBundleHash);
    txs = good;
    txs[3].bundle = txs[0].trunk_transaction;
    BundleVerdict verdict = ValidateBundle(txs);
    EXPECT_EQ(verdict.failed, BundleCheck::kBundleHash);
    EXPECT_EQ(verdict.transaction, 3u);

    // Attached: trunk i is the hash of transaction i + 1.
    std::vector<std::string> hashes;
    txs = good;
    for (std::size_t i = txs.size(); i-- > 0;)
    {
        if (i + 1 < txs.size())
            txs[i].trunk_transaction = hashes.front();
        Trits trits = EncodeTransaction(txs[i]);
        hashes.insert(hashes.begin(), TransactionHash(trits.data()));
    }
    EXPECT_TRUE(ValidateBundle(txs, &hashes).Valid());
    std::swap(hashes[1], hashes[2]);
    verdict = ValidateBundle(txs, &hashes);
    EXPECT_EQ(verdict.failed, BundleCheck::kTrunkChain);
    EXPECT_EQ(verdict.transaction, 0u);
}

TEST(LegacyBundleTest, NormalizedBundleHashSumsToZeroPerThird)
{
    for (const auto &fixture : fixtures::AllTransactions())
    {
        std::array<int, kHashTrytes> n =
            NormalizedBundleHash(DecodeTransaction(fixture.trytes).bundle);
        for (std::size_t third = 0; third < 3; third++)
        {
            int sum = 0;
            for (std::size_t j = 0; j < 27; j++)
            {
                sum += n[third * 27 + j];
                EXPECT_LE(std::abs(n[third * 27 + j]), 13);
            }
            EXPECT_EQ(sum, 0) << fixture.hash;
        }
    }
}

} // namespace
