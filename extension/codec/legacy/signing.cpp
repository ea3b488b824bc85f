// Winternitz one-time signatures over Kerl: normalizing, verifying and signing.
#include "codec/legacy/signing.hpp"

#include "codec/error.hpp"
#include "codec/legacy/kerl.hpp"

namespace permanode::codec::legacy
{

namespace
{

constexpr int kMaxTryte = 13;

// A fragment's digest: each segment hashed `times(j)` times, then Kerl of the 27 results.
template <typename Times> HashTrits FragmentDigest(Trits fragment, Times times)
{
    Kerl kerl;
    for (std::size_t j = 0; j < kSegmentsPerFragment; j++)
    {
        KerlHashChain(fragment.data() + j * kHashTrits, times(j));
        kerl.Absorb(fragment.data() + j * kHashTrits, kHashTrits);
    }
    HashTrits digest;
    kerl.Squeeze(digest.data(), kHashTrits);
    return digest;
}

std::string AddressOfDigests(const Trits &digests)
{
    return TritsToTrytes(KerlHash(digests.data(), digests.size()));
}

// Adds `value` to the balanced ternary integer `trits` holds, least significant trit first, a
// carry past the last trit dropped (as the clients incremented a seed `value` times).
void AddToTrits(Trits &trits, std::uint64_t value)
{
    int carry = 0;
    for (std::size_t i = 0; i < trits.size() && (value != 0 || carry != 0); i++)
    {
        int sum = trits[i] + static_cast<int>(value % 3) + carry; // -1..4
        value /= 3;
        carry = sum > 1;
        trits[i] = static_cast<Trit>(carry ? sum - 3 : sum);
    }
}

int SecurityOf(const Trits &private_key)
{
    return static_cast<int>(private_key.size() / kFragmentTrits);
}

} // namespace

std::array<int, kHashTrytes> NormalizedBundleHash(std::string_view bundle_hash)
{
    Trits trits = TrytesToTrits(bundle_hash, "bundle");
    if (trits.size() != kHashTrits)
        throw EncodeError("a bundle hash has 81 trytes, got " + std::to_string(bundle_hash.size()));
    std::array<int, kHashTrytes> n{};
    for (std::size_t i = 0; i < kHashTrytes; i++)
        n[i] = static_cast<int>(TritsToInt(trits.data() + 3 * i, 3));
    for (std::size_t third = 0; third < 3; third++)
    {
        int *t = n.data() + third * kSegmentsPerFragment;
        int sum = 0;
        for (std::size_t j = 0; j < kSegmentsPerFragment; j++)
            sum += t[j];
        // Move the sum to zero one step at a time, always at the first tryte that can move.
        for (; sum > 0; sum--)
            for (std::size_t j = 0; j < kSegmentsPerFragment; j++)
                if (t[j] > -kMaxTryte)
                {
                    t[j]--;
                    break;
                }
        for (; sum < 0; sum++)
            for (std::size_t j = 0; j < kSegmentsPerFragment; j++)
                if (t[j] < kMaxTryte)
                {
                    t[j]++;
                    break;
                }
    }
    return n;
}

bool ValidateSignature(std::string_view address, const std::vector<std::string> &fragments,
                       std::string_view bundle_hash)
{
    if (fragments.empty())
        return false;
    std::array<int, kHashTrytes> n = NormalizedBundleHash(bundle_hash);
    Trits digests;
    for (std::size_t i = 0; i < fragments.size(); i++)
    {
        Trits fragment = TrytesToTrits(fragments[i], "signatureMessageFragment");
        if (fragment.size() != kFragmentTrits)
            return false;
        const int *chunk = n.data() + (i % 3) * kSegmentsPerFragment;
        HashTrits digest = FragmentDigest(std::move(fragment),
                                          [&](std::size_t j) { return kMaxTryte + chunk[j]; });
        digests.insert(digests.end(), digest.begin(), digest.end());
    }
    return AddressOfDigests(digests) == address;
}

Trits PrivateKey(std::string_view seed, std::uint64_t index, int security)
{
    if (security < 1 || security > kMaxSecurity)
        throw EncodeError("security level " + std::to_string(security) + " is not 1, 2 or 3");
    Trits subseed = TrytesToTrits(seed, "seed");
    if (subseed.size() != kHashTrits)
        throw EncodeError("a seed has 81 trytes, got " + std::to_string(seed.size()));
    // The subseed: Kerl of the seed plus the index (added as a balanced ternary integer).
    AddToTrits(subseed, index);
    Kerl kerl;
    kerl.Absorb(subseed.data(), kHashTrits);
    kerl.Squeeze(subseed.data(), kHashTrits);
    kerl.Reset();
    kerl.Absorb(subseed.data(), kHashTrits);
    Trits key(static_cast<std::size_t>(security) * kFragmentTrits);
    kerl.Squeeze(key.data(), key.size());
    return key;
}

std::string AddressOfKey(const Trits &private_key)
{
    Trits digests;
    for (int i = 0; i < SecurityOf(private_key); i++)
    {
        Trits fragment(private_key.begin() + i * kFragmentTrits,
                       private_key.begin() + (i + 1) * kFragmentTrits);
        HashTrits digest =
            FragmentDigest(std::move(fragment), [](std::size_t) { return 2 * kMaxTryte; });
        digests.insert(digests.end(), digest.begin(), digest.end());
    }
    return AddressOfDigests(digests);
}

std::vector<std::string> SignatureFragments(const Trits &private_key, std::string_view bundle_hash)
{
    std::array<int, kHashTrytes> n = NormalizedBundleHash(bundle_hash);
    std::vector<std::string> fragments;
    for (int i = 0; i < SecurityOf(private_key); i++)
    {
        Trits fragment(private_key.begin() + i * kFragmentTrits,
                       private_key.begin() + (i + 1) * kFragmentTrits);
        const int *chunk = n.data() + (i % 3) * kSegmentsPerFragment;
        for (std::size_t j = 0; j < kSegmentsPerFragment; j++)
            KerlHashChain(fragment.data() + j * kHashTrits, kMaxTryte - chunk[j]);
        fragments.push_back(TritsToTrytes(fragment.data(), fragment.size()));
    }
    return fragments;
}

} // namespace permanode::codec::legacy
