// Bundle validation, check by check.
#include "codec/legacy/bundle.hpp"

#include "codec/legacy/kerl.hpp"
#include "codec/legacy/signing.hpp"

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
    Kerl kerl;
    for (const auto &tx : transactions)
    {
        Trits trits = EncodeTransaction(tx);
        kerl.Absorb(trits.data() + kTritsPerTryte * field::kEssence,
                    kTritsPerTryte * field::kEssenceSize);
    }
    HashTrits hash;
    kerl.Squeeze(hash.data(), kHashTrits);
    return TritsToTrytes(hash);
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
