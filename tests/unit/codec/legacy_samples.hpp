// Generated legacy transactions and bundles for the tests and the iota.js cross-check: random
// transactions in the current layout (no signature, no proof of work: what a field and hash
// check needs) and value bundles signed at given security levels.
#pragma once

#include "codec/legacy/bundle.hpp"
#include "codec/legacy/signing.hpp"
#include "codec/legacy/transaction.hpp"

#include <random>
#include <string>
#include <vector>

namespace permanode::codec::legacy::samples
{

inline std::string RandomTrytes(std::mt19937_64 &random, std::size_t count)
{
    static const char kAlphabet[] = "9ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::string out(count, '9');
    for (auto &c : out)
        c = kAlphabet[random() % 27];
    return out;
}

inline std::int64_t RandomIn(std::mt19937_64 &random, std::int64_t low, std::int64_t high)
{
    return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// A random transaction in the current layout: every field anywhere in its range (a third of the
// values zero), the timestamp after the layout change.
inline Transaction RandomTransaction(std::mt19937_64 &random)
{
    constexpr std::int64_t kMax27Trits = 3812798742493; // (3^27 - 1) / 2
    Transaction tx;
    tx.signature_message_fragment = RandomTrytes(random, field::kSignatureSize);
    tx.address = RandomTrytes(random, kHashTrytes);
    tx.value = random() % 3 == 0 ? 0 : RandomIn(random, -kSupply, kSupply);
    tx.obsolete_tag = RandomTrytes(random, field::kTagSize);
    tx.timestamp = RandomIn(random, kLayoutChangeTimestamp, kLegacyEraEndMs / 1000);
    tx.last_index = RandomIn(random, 0, 30);
    tx.current_index = RandomIn(random, 0, tx.last_index);
    tx.bundle = RandomTrytes(random, kHashTrytes);
    tx.trunk_transaction = RandomTrytes(random, kHashTrytes);
    tx.branch_transaction = RandomTrytes(random, kHashTrytes);
    tx.tag = RandomTrytes(random, field::kTagSize);
    tx.attachment_timestamp = RandomIn(random, -kMax27Trits, kMax27Trits);
    tx.attachment_timestamp_lower_bound = RandomIn(random, -kMax27Trits, kMax27Trits);
    tx.attachment_timestamp_upper_bound = RandomIn(random, -kMax27Trits, kMax27Trits);
    tx.nonce = RandomTrytes(random, field::kNonceSize);
    return tx;
}

// A value bundle: an output, one input of 700 per security level given (each followed by its
// other signature fragments, all from `seed`) and a remainder, signed. Not attached: trunks and
// branches are 9s.
inline std::vector<Transaction> SignedBundle(const std::vector<int> &securities,
                                             const std::string &seed = std::string(81, 'S'),
                                             std::int64_t timestamp = 1556822619)
{
    std::vector<Transaction> txs;
    auto add = [&](const std::string &address, std::int64_t value)
    {
        Transaction tx;
        tx.signature_message_fragment.assign(field::kSignatureSize, '9');
        tx.address = address;
        tx.value = value;
        tx.obsolete_tag = tx.tag = std::string(field::kTagSize, '9');
        tx.timestamp = timestamp;
        tx.bundle = tx.trunk_transaction = tx.branch_transaction = std::string(kHashTrytes, '9');
        tx.nonce = std::string(field::kNonceSize, '9');
        txs.push_back(tx);
    };
    add(std::string(80, 'A') + "9", 500);
    std::vector<std::pair<std::size_t, Trits>> inputs;
    std::int64_t taken = 0;
    for (std::size_t k = 0; k < securities.size(); k++)
    {
        Trits key = PrivateKey(seed, k, securities[k]);
        inputs.emplace_back(txs.size(), key);
        std::string address = AddressOfKey(key);
        add(address, -700);
        taken += 700;
        for (int extra = 1; extra < securities[k]; extra++)
            add(address, 0);
    }
    add(std::string(80, 'B') + "9", taken - 500);
    for (std::size_t i = 0; i < txs.size(); i++)
    {
        txs[i].current_index = static_cast<std::int64_t>(i);
        txs[i].last_index = static_cast<std::int64_t>(txs.size() - 1);
    }
    std::string bundle_hash = ComputeBundleHash(txs);
    for (auto &tx : txs)
        tx.bundle = bundle_hash;
    for (const auto &[position, key] : inputs)
    {
        std::vector<std::string> fragments = SignatureFragments(key, bundle_hash);
        for (std::size_t f = 0; f < fragments.size(); f++)
            txs[position + f].signature_message_fragment = fragments[f];
    }
    return txs;
}

} // namespace permanode::codec::legacy::samples
