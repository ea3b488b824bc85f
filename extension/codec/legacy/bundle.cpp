// Bundle hashes, computed and (for signing) finalized, and bundle validation, check by check.
#include "codec/legacy/bundle.hpp"

#include "codec/error.hpp"
#include "codec/legacy/kerl.hpp"
#include "codec/legacy/signing.hpp"

#include <algorithm>

namespace permanode::codec::legacy
{

namespace
{

BundleVerdict Fail(BundleCheck check, std::size_t transaction, std::string detail)
{
    return {check, transaction, std::move(detail)};
}

// A value transaction's address must be a Kerl hash, whose last trit is always 0.
bool LastTritZero(const std::string &address)
{
    Trits trits = TrytesToTrits(address, "address");
    return trits.size() == kHashTrits && trits.back() == 0;
}

// The transactions' essences one after the other, two blocks each.
Trits Essences(const std::vector<Transaction> &transactions)
{
    constexpr std::size_t kEssenceTrits = kTritsPerTryte * field::kEssenceSize;
    static_assert(kEssenceTrits % kHashTrits == 0);
    Trits essences;
    essences.reserve(transactions.size() * kEssenceTrits);
    for (const auto &tx : transactions)
    {
        Trits trits = EncodeTransaction(tx);
        auto essence = trits.begin() + kTritsPerTryte * field::kEssence;
        essences.insert(essences.end(), essence, essence + kEssenceTrits);
    }
    return essences;
}

// Kerl of blocks converted beforehand, as 81 trytes.
std::string HashOfWords(const std::vector<KerlWord> &words)
{
    Kerl kerl;
    for (const KerlWord &word : words)
        kerl.AbsorbWord(word);
    HashTrits hash;
    kerl.Squeeze(hash.data(), kHashTrits);
    return TritsToTrytes(hash);
}

bool HasTryte13(const std::string &bundle_hash)
{
    std::array<int, kHashTrytes> normalized = NormalizedBundleHash(bundle_hash);
    return std::find(normalized.begin(), normalized.end(), 13) != normalized.end();
}

// Adds 1 to the balanced ternary number `count` trits hold (wrapping past the last).
void Increment(Trit *trits, std::size_t count)
{
    for (std::size_t i = 0; i < count; i++)
    {
        if (trits[i] < 1)
        {
            trits[i] = static_cast<Trit>(trits[i] + 1);
            return;
        }
        trits[i] = -1;
    }
}

} // namespace

const char *BundleCheckName(BundleCheck check)
{
    switch (check)
    {
        case BundleCheck::kValid:
            return "valid";
        case BundleCheck::kIndexes:
            return "indexes";
        case BundleCheck::kLastIndex:
            return "last index";
        case BundleCheck::kValue:
            return "value";
        case BundleCheck::kBalance:
            return "balance";
        case BundleCheck::kBundleHash:
            return "bundle hash";
        case BundleCheck::kSignature:
            return "signature";
        case BundleCheck::kTrunkChain:
            return "trunk chain";
    }
    return "unknown";
}

std::string ComputeBundleHash(const std::vector<Transaction> &transactions)
{
    Trits essences = Essences(transactions);
    return TritsToTrytes(KerlHash(essences.data(), essences.size()));
}

std::string FinalizeBundleHash(std::vector<Transaction> &transactions)
{
    if (transactions.empty())
        throw EncodeError("a bundle has at least one transaction");
    // Only the block of the first obsolete tag changes from one try to the next.
    constexpr std::size_t kTagOffset = kTritsPerTryte * (field::kObsoleteTag - field::kEssence);
    constexpr std::size_t kTagTrits = kTritsPerTryte * field::kTagSize;
    constexpr std::size_t kTagBlock = kTagOffset / kHashTrits;
    static_assert((kTagOffset + kTagTrits - 1) / kHashTrits == kTagBlock);
    Trits essences = Essences(transactions);
    std::vector<KerlWord> words;
    for (std::size_t offset = 0; offset < essences.size(); offset += kHashTrits)
        words.push_back(TritsToKerlWord(essences.data() + offset));
    Trit *tag = essences.data() + kTagOffset;
    std::string hash = HashOfWords(words);
    while (HasTryte13(hash))
    {
        Increment(tag, kTagTrits);
        words[kTagBlock] = TritsToKerlWord(essences.data() + kTagBlock * kHashTrits);
        hash = HashOfWords(words);
    }
    transactions[0].obsolete_tag = TritsToTrytes(tag, kTagTrits);
    for (auto &tx : transactions)
        tx.bundle = hash;
    return hash;
}

BundleVerdict ValidateBundle(const std::vector<Transaction> &txs,
                             const std::vector<std::string> *hashes)
{
    if (txs.empty())
        return Fail(BundleCheck::kIndexes, 0, "no transactions");
    const auto size = static_cast<std::int64_t>(txs.size());
    for (std::size_t i = 0; i < txs.size(); i++)
        if (txs[i].current_index != static_cast<std::int64_t>(i))
            return Fail(BundleCheck::kIndexes, i,
                        "current index " + std::to_string(txs[i].current_index) + " at position " +
                            std::to_string(i));
    for (std::size_t i = 0; i < txs.size(); i++)
        if (txs[i].last_index != size - 1)
            return Fail(BundleCheck::kLastIndex, i,
                        "last index " + std::to_string(txs[i].last_index) + " in a bundle of " +
                            std::to_string(size));

    __int128 sum = 0; // bundles are not bounded in size, so neither is the sum
    for (std::size_t i = 0; i < txs.size(); i++)
    {
        const Transaction &tx = txs[i];
        if (!tx.value_high_trits_zero || tx.value > kSupply || tx.value < -kSupply)
            return Fail(BundleCheck::kValue, i,
                        "value " + std::to_string(tx.value) + " out of range" +
                            (tx.value_high_trits_zero ? "" : " (high trits set)"));
        if (tx.value != 0 && !LastTritZero(tx.address))
            return Fail(BundleCheck::kValue, i,
                        "value on address " + tx.address + ", whose last trit is not 0");
        sum += tx.value;
    }
    if (sum != 0)
        return Fail(BundleCheck::kBalance, 0,
                    sum > 0 ? "values sum to more than zero" : "values sum to less than zero");

    std::string bundle_hash = ComputeBundleHash(txs);
    for (std::size_t i = 0; i < txs.size(); i++)
        if (txs[i].bundle != bundle_hash)
            return Fail(BundleCheck::kBundleHash, i,
                        "bundle " + txs[i].bundle + ", the essences hash to " + bundle_hash);

    for (std::size_t i = 0; i < txs.size(); i++)
    {
        if (txs[i].value >= 0)
            continue;
        std::vector<std::string> fragments{txs[i].signature_message_fragment};
        for (std::size_t j = i + 1;
             j < txs.size() && txs[j].address == txs[i].address && txs[j].value == 0; j++)
            fragments.push_back(txs[j].signature_message_fragment);
        if (!ValidateSignature(txs[i].address, fragments, bundle_hash))
            return Fail(BundleCheck::kSignature, i,
                        "the " + std::to_string(fragments.size()) +
                            " signature fragment(s) do not sign the bundle for " + txs[i].address);
    }

    if (hashes)
        for (std::size_t i = 0; i + 1 < txs.size(); i++)
            if (txs[i].trunk_transaction != (*hashes)[i + 1])
                return Fail(BundleCheck::kTrunkChain, i,
                            "trunk " + txs[i].trunk_transaction + " is not transaction " +
                                std::to_string(i + 1) + ", " + (*hashes)[i + 1]);
    return {};
}

} // namespace permanode::codec::legacy
