// The synthetic legacy ledger.
//
// Value. The genesis snapshot funds `genesis_addresses` addresses of the generator's own seed
// (security 2 mostly, some 1 and 3) with a quarter of the supply, and one foreign address with
// the rest. A value bundle, laid out as iota.js's prepareTransfers made them (outputs, then each
// input followed by its further signature transactions, then the remainder), spends the whole
// balance of one or two of the generator's confirmed addresses (an address signs once) to 1 or
// more outputs, foreign addresses or new ones of the generator, and a remainder to a new
// address of the generator. New addresses become spendable once their milestone confirms them.
// Bundle hashes avoid the insecure normalized tryte 13 ('M') by incrementing the first
// transaction's obsolete tag, as iota.js did.
//
// Spam. The other bundles carry no value: a message in ASCII trytes (a long one spans 2 or 3
// transactions), a tag that is blank, a word, or an IOTA Area Code.
//
// Attachment. Each bundle's last transaction takes a trunk among the milestone's tips (its
// transactions nothing refers to yet; the milestone starts with the previous milestone as its
// one tip) and a branch among the tips or earlier transactions; the others take the next
// transaction as trunk and that trunk as branch (iota.js's attachToTangle). Before the milestone,
// zero-value transactions merge the tips into one, so the milestone bundle (trunk: the previous
// milestone, branch: that tip) approves the whole cone. The milestone bundle has IRI's shape for
// a Coordinator of security 2: two signature transactions and the siblings transaction, the
// milestone index in the obsolete tag and the tag, on the Coordinator's address.
#include "legacy_generator.hpp"

#include "codec/legacy/bundle.hpp"
#include "codec/legacy/signing.hpp"
#include "codec/legacy/transaction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace permanode::cli
{
namespace
{

namespace legacy = codec::legacy;

constexpr std::uint32_t kMilestoneInterval = 60;                 // seconds
constexpr std::int64_t kMaxAttachmentUpperBound = 3812798742493; // (3^27 - 1) / 2
constexpr std::size_t kRecentTransactions = 512; // branches besides tips are drawn from these
constexpr std::size_t kCoordinatorSecurity = 2;
constexpr std::size_t kCoordinatorDepth = 23; // Merkle siblings in the siblings transaction
constexpr char kTryteAlphabet[] = "9ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// Open Location Code digits as IOTA Area Codes write them ('9' takes the place of '+').
constexpr char kAreaCodeAlphabet[] = "FGHJKLMNOPQRSTUVXWYZ";
const std::string kNullHash(legacy::kHashTrytes, '9');

std::string RandomTrytes(Random &random, std::size_t count)
{
    std::string out(count, '9');
    for (auto &c : out)
        c = kTryteAlphabet[random.Below(27)];
    return out;
}

// A random address whose last trit is 0, as every Kerl address has.
std::string ForeignAddress(Random &random)
{
    static const char kLastTrytes[] = "WXYZ9ABCD"; // -4..4: the third trit is 0
    std::string address = RandomTrytes(random, legacy::kHashTrytes - 1);
    return address + kLastTrytes[random.Below(9)];
}

// iota.js's asciiToTrytes: each character as two trytes, low then high.
std::string AsciiToTrytes(const codec::Bytes &text)
{
    std::string out;
    for (std::uint8_t c : text)
    {
        out += kTryteAlphabet[c % 27];
        out += kTryteAlphabet[c / 27];
    }
    return out;
}

std::string PadTrytes(std::string trytes, std::size_t size)
{
    trytes.resize(size, '9');
    return trytes;
}

// A tag: blank, an upper-case word or an IOTA Area Code (8 digits, '9', 2 digits).
std::string RandomTag(Random &random)
{
    static const char *const kWords[] = {"IOTA",    "SPAM",    "HELLOWORLD", "TANGLE",
                                         "PAYMENT", "IOTAPAY", "DATAMARKET", "BEE",
                                         "TRINITY", "FLASH"};
    double draw = random.Unit();
    std::string tag;
    if (draw < 0.3)
    {
        for (int i = 0; i < 11; i++)
            tag += i == 8 ? '9' : kAreaCodeAlphabet[random.Below(20)];
    }
    else if (draw < 0.6)
        tag = kWords[random.Below(std::size(kWords))];
    return PadTrytes(tag, legacy::field::kTagSize);
}

// Adds 1 to the balanced ternary number 27 trytes hold.
std::string IncrementTrytes(const std::string &trytes)
{
    legacy::Trits trits = legacy::TrytesToTrits(trytes);
    for (auto &t : trits)
    {
        if (t < 1)
        {
            t = static_cast<legacy::Trit>(t + 1);
            break;
        }
        t = -1;
    }
    return legacy::TritsToTrytes(trits.data(), trits.size());
}

// `value` in a 27-tryte field, as the milestone index is written in the obsolete tag.
std::string NumberTrytes(std::int64_t value)
{
    legacy::Trits trits(legacy::field::kTagSize * legacy::kTritsPerTryte, 0);
    legacy::IntToTrits(value, trits.data(), trits.size());
    return legacy::TritsToTrytes(trits.data(), trits.size());
}

bool HasTryte13(const std::string &bundle_hash)
{
    auto normalized = legacy::NormalizedBundleHash(bundle_hash);
    return std::find(normalized.begin(), normalized.end(), 13) != normalized.end();
}

// An address of the generator's seed and its key.
struct Wallet
{
    std::string address;
    legacy::Trits key;
    std::int64_t balance = 0;
};

} // namespace

GeneratorOptions LegacyGeneratorDefaults()
{
    GeneratorOptions options;
    options.start_timestamp = 1559347200; // 2019-06-01T00:00:00Z
    options.min_blocks = 20;
    options.max_blocks = 50;
    options.transaction_share = 0.1;
    options.min_fresh_outputs = 1;
    options.max_fresh_outputs = 2;
    options.genesis_addresses = 40;
    return options;
}

std::int64_t LegacyEarliestStart()
{
    return legacy::kLayoutChangeTimestamp;
}

struct LegacyLedgerGenerator::State
{
    explicit State(const GeneratorOptions &o) : options(o), random(o.seed) {}

    // A new address of the seed: security 2 mostly, some 1 and 3.
    Wallet NewWallet()
    {
        double draw = random.Unit();
        int security = draw < 0.15 ? 1 : draw < 0.85 ? 2 : 3;
        Wallet wallet;
        wallet.key = legacy::PrivateKey(seed, next_key_index++, security);
        wallet.address = legacy::AddressOfKey(wallet.key);
        return wallet;
    }

    legacy::Transaction Blank(const std::string &address, std::int64_t value,
                              const std::string &tag, std::int64_t timestamp)
    {
        legacy::Transaction tx;
        tx.signature_message_fragment.assign(legacy::field::kSignatureSize, '9');
        tx.address = address;
        tx.value = value;
        tx.obsolete_tag = tx.tag = tag;
        tx.timestamp = timestamp;
        tx.bundle = tx.trunk_transaction = tx.branch_transaction = kNullHash;
        tx.nonce = std::string(legacy::field::kNonceSize, '9');
        return tx;
    }

    // Sets the indexes and the bundle hash, the obsolete tag of the first transaction
    // incremented until the normalized hash has no 13.
    static std::string Finalize(std::vector<legacy::Transaction> &txs, bool avoid_13)
    {
        for (std::size_t i = 0; i < txs.size(); i++)
        {
            txs[i].current_index = static_cast<std::int64_t>(i);
            txs[i].last_index = static_cast<std::int64_t>(txs.size() - 1);
        }
        std::string hash = legacy::ComputeBundleHash(txs);
        while (avoid_13 && HasTryte13(hash))
        {
            txs[0].obsolete_tag = IncrementTrytes(txs[0].obsolete_tag);
            hash = legacy::ComputeBundleHash(txs);
        }
        for (auto &tx : txs)
            tx.bundle = hash;
        return hash;
    }

    // Attaches the bundle to `trunk` and `branch` and appends its lines, last index first.
    // Returns the tail's hash.
    std::string Attach(std::vector<legacy::Transaction> &txs, const std::string &trunk,
                       const std::string &branch)
    {
        std::string next_hash;
        for (std::size_t i = txs.size(); i-- > 0;)
        {
            legacy::Transaction &tx = txs[i];
            bool last = i + 1 == txs.size();
            tx.trunk_transaction = last ? trunk : next_hash;
            tx.branch_transaction = last ? branch : trunk;
            tx.attachment_timestamp =
                tx.timestamp * 1000 + static_cast<std::int64_t>(random.Below(1000));
            tx.attachment_timestamp_lower_bound = 0;
            tx.attachment_timestamp_upper_bound = kMaxAttachmentUpperBound;
            tx.nonce = RandomTrytes(random, legacy::field::kNonceSize);
            legacy::Trits trits = legacy::EncodeTransaction(tx);
            next_hash = legacy::TransactionHash(trits.data());
            out.push_back(
                {next_hash, legacy::TritsToTrytes(trits.data(), trits.size()), milestone_index});
            recent.push_back(next_hash);
            if (recent.size() > kRecentTransactions)
                recent.pop_front();
        }
        return next_hash;
    }

    // Attaches a bundle of this milestone's cone to tips.
    void AttachToTips(std::vector<legacy::Transaction> &txs)
    {
        std::size_t pick = random.Below(tips.size());
        std::string trunk = tips[pick];
        if (tips.size() > 1 || random.Chance(0.6))
            tips.erase(tips.begin() + static_cast<std::ptrdiff_t>(pick));
        std::string branch;
        if (!tips.empty() && random.Chance(0.3))
        {
            pick = random.Below(tips.size());
            branch = tips[pick];
            tips.erase(tips.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        else
            branch = recent.empty() ? kNullHash : recent[random.Below(recent.size())];
        tips.push_back(Attach(txs, trunk, branch));
        produced += txs.size();
    }

    // A zero-value bundle: a message over 1 to 3 transactions, or a transaction merging two tips.
    void Spam(std::int64_t timestamp, bool merge)
    {
        std::string address = ForeignAddress(random);
        std::string tag = RandomTag(random);
        std::size_t count = merge ? 1 : random.Chance(0.08) ? random.Between(2, 3) : 1;
        std::string message =
            AsciiToTrytes(RandomText(random, 0,
                                     count == 1 ? legacy::field::kSignatureSize / 2
                                                : legacy::field::kSignatureSize / 2 * count));
        std::vector<legacy::Transaction> txs;
        for (std::size_t i = 0; i < count; i++)
        {
            legacy::Transaction tx = Blank(address, 0, tag, timestamp);
            std::size_t from = i * legacy::field::kSignatureSize;
            if (from < message.size())
                tx.signature_message_fragment =
                    PadTrytes(message.substr(from, legacy::field::kSignatureSize),
                              legacy::field::kSignatureSize);
            txs.push_back(std::move(tx));
        }
        Finalize(txs, false);
        if (merge)
        {
            std::string trunk = tips.back();
            tips.pop_back();
            std::string branch = tips.back();
            tips.pop_back();
            tips.push_back(Attach(txs, trunk, branch));
            produced += txs.size();
        }
        else
            AttachToTips(txs);
    }

    // A value bundle spending one or two confirmed addresses of the seed.
    void Transfer(std::int64_t timestamp)
    {
        std::size_t input_count = spendable.size() > 1 && random.Chance(0.15) ? 2 : 1;
        std::vector<Wallet> inputs;
        std::int64_t total = 0;
        for (std::size_t i = 0; i < input_count; i++)
        {
            std::size_t pick = random.Below(spendable.size());
            total += spendable[pick].balance;
            inputs.push_back(std::move(spendable[pick]));
            spendable.erase(spendable.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        std::int64_t sent =
            total < 2 ? total : static_cast<std::int64_t>(random.Between(1, total - 1));
        std::size_t output_count = std::min<std::size_t>(
            random.Between(options.min_fresh_outputs, options.max_fresh_outputs),
            static_cast<std::size_t>(sent));
        std::vector<std::uint64_t> amounts =
            SplitAmount(random, static_cast<std::uint64_t>(sent), output_count);
        std::string tag =
            random.Chance(0.5) ? RandomTag(random) : std::string(legacy::field::kTagSize, '9');

        std::vector<legacy::Transaction> txs;
        std::vector<Wallet> fresh;
        for (std::uint64_t amount : amounts)
        {
            std::string address;
            if (random.Chance(0.3))
                address = ForeignAddress(random);
            else
            {
                fresh.push_back(NewWallet());
                fresh.back().balance = static_cast<std::int64_t>(amount);
                address = fresh.back().address;
            }
            txs.push_back(Blank(address, static_cast<std::int64_t>(amount), tag, timestamp));
        }
        std::vector<std::size_t> input_positions;
        for (const Wallet &input : inputs)
        {
            input_positions.push_back(txs.size());
            auto security = input.key.size() / legacy::kFragmentTrits;
            txs.push_back(Blank(input.address, -input.balance, tag, timestamp));
            for (std::size_t extra = 1; extra < security; extra++)
                txs.push_back(Blank(input.address, 0, tag, timestamp));
        }
        if (total - sent > 0)
        {
            fresh.push_back(NewWallet());
            fresh.back().balance = total - sent;
            txs.push_back(Blank(fresh.back().address, total - sent, tag, timestamp));
        }
        std::string bundle_hash = Finalize(txs, true);
        for (std::size_t k = 0; k < inputs.size(); k++)
        {
            std::vector<std::string> fragments =
                legacy::SignatureFragments(inputs[k].key, bundle_hash);
            for (std::size_t f = 0; f < fragments.size(); f++)
                txs[input_positions[k] + f].signature_message_fragment = fragments[f];
        }
        AttachToTips(txs);
        for (Wallet &wallet : fresh)
            pending.push_back(std::move(wallet));
    }

    // The Coordinator's milestone bundle, approving the previous milestone and the merged tip.
    void Milestone(std::int64_t timestamp)
    {
        std::string index_trytes = NumberTrytes(milestone_index);
        std::vector<legacy::Transaction> txs;
        for (std::size_t i = 0; i <= kCoordinatorSecurity; i++)
        {
            legacy::Transaction tx = Blank(coordinator, 0, index_trytes, timestamp);
            tx.signature_message_fragment =
                i < kCoordinatorSecurity
                    ? RandomTrytes(random, legacy::field::kSignatureSize)
                    : PadTrytes(RandomTrytes(random, kCoordinatorDepth * legacy::kHashTrytes),
                                legacy::field::kSignatureSize);
            txs.push_back(std::move(tx));
        }
        Finalize(txs, false);
        previous_milestone = Attach(txs, previous_milestone, tips.front());
    }

    GeneratorOptions options;
    Random random;
    std::string seed;        // the wallet's seed, 81 trytes
    std::string coordinator; // the Coordinator's address
    std::uint64_t next_key_index = 0;
    std::vector<SnapshotBalance> snapshot;
    std::vector<Wallet> spendable; // confirmed addresses of the seed with a balance
    std::vector<Wallet> pending;   // funded by the milestone being built
    std::deque<std::string> recent;
    std::vector<std::string> tips;
    std::string previous_milestone = kNullHash;
    std::uint32_t milestones_done = 0;
    std::uint32_t milestone_index = 0;
    std::size_t produced = 0;
    std::vector<DmpLine> out;
};

LegacyLedgerGenerator::LegacyLedgerGenerator(const GeneratorOptions &options)
    : state_(std::make_unique<State>(options))
{
    State &s = *state_;
    s.seed = RandomTrytes(s.random, legacy::kHashTrytes);
    s.coordinator = ForeignAddress(s.random);
    std::int64_t funded = legacy::kSupply / 4;
    std::vector<std::uint64_t> amounts =
        SplitAmount(s.random, static_cast<std::uint64_t>(funded),
                    std::max<std::uint32_t>(1, options.genesis_addresses));
    for (std::uint64_t amount : amounts)
    {
        Wallet wallet = s.NewWallet();
        wallet.balance = static_cast<std::int64_t>(amount);
        s.snapshot.push_back({wallet.address, wallet.balance});
        s.spendable.push_back(std::move(wallet));
    }
    s.snapshot.push_back({ForeignAddress(s.random), legacy::kSupply - funded});
}

LegacyLedgerGenerator::~LegacyLedgerGenerator() = default;

const std::vector<SnapshotBalance> &LegacyLedgerGenerator::Snapshot() const
{
    return state_->snapshot;
}

const std::string &LegacyLedgerGenerator::Coordinator() const
{
    return state_->coordinator;
}

std::vector<DmpLine> LegacyLedgerGenerator::Next()
{
    State &s = *state_;
    s.out.clear();
    s.produced = 0;
    s.milestone_index = s.options.start_index + s.milestones_done;
    std::int64_t milestone_time = static_cast<std::int64_t>(s.options.start_timestamp) +
                                  static_cast<std::int64_t>(kMilestoneInterval) * s.milestones_done;
    std::size_t cone = DrawConeSize(s.random, s.options);
    s.tips = {s.previous_milestone};
    while (s.produced < cone)
    {
        // Issued through the interval before the milestone, in order.
        std::int64_t timestamp =
            milestone_time - kMilestoneInterval +
            static_cast<std::int64_t>(kMilestoneInterval * s.produced / (cone + 1)) + 1;
        if (!s.spendable.empty() && s.random.Chance(s.options.transaction_share))
            s.Transfer(timestamp);
        else
            s.Spam(timestamp, false);
    }
    while (s.tips.size() > 1)
        s.Spam(milestone_time, true);
    s.Milestone(milestone_time);
    for (Wallet &wallet : s.pending)
        s.spendable.push_back(std::move(wallet));
    s.pending.clear();
    s.milestones_done++;
    return std::move(s.out);
}

} // namespace permanode::cli
