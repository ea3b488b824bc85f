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
//
// Hashing. None of the draws depends on a transaction hash, so lines are planned first, trunks
// and branches naming planned lines, and hashed after; milestones are planned ahead until 64
// lines wait. A line's first 30 blocks (through the bundle hash) do not depend on its trunk and
// branch: they go through the bitsliced Curl-P-81, 64 lines at a time. The last 3 blocks wait
// for the lines approved (earlier ones) and go one line at a time through the packed Curl-P-81.
// Waves of lines hashed side by side once their approvees are would not pay: each milestone
// chains through its cone to its own bundle, a dozen steps deep at least, and a bitsliced pass
// costs as much for one line as for 64.
#include "legacy_generator.hpp"

#include "codec/legacy/bundle.hpp"
#include "codec/legacy/curl.hpp"
#include "codec/legacy/signing.hpp"
#include "codec/legacy/transaction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <iterator>

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

// `value` in a 27-tryte field, as the milestone index is written in the obsolete tag.
std::string NumberTrytes(std::int64_t value)
{
    legacy::Trits trits(legacy::field::kTagSize * legacy::kTritsPerTryte, 0);
    legacy::IntToTrits(value, trits.data(), trits.size());
    return legacy::TritsToTrytes(trits.data(), trits.size());
}

// What a trunk or branch approves: a known hash, or a planned line, whose hash is known once it
// is hashed.
struct Approvee
{
    std::string hash;       // empty until known
    std::uint64_t line = 0; // else: the line's number, counting every line planned
};

// A planned line: its transaction, whose trunk and branch are nines until the lines they approve
// are hashed.
struct PlannedLine
{
    legacy::Transaction tx;
    Approvee trunk;
    Approvee branch;
    std::uint32_t snapshot_index;
};

// A transaction's trits before its trunk: 30 whole blocks, hashed for many lines at once.
constexpr std::size_t kTritsBeforeTrunk = legacy::kTritsPerTryte * legacy::field::kTrunk;
static_assert(kTritsBeforeTrunk % legacy::kHashTrits == 0);

// An address of the generator's seed, with what derives its key again when it is spent (a key
// takes 2187 to 6561 bytes, and a large ledger holds many addresses not spent yet).
struct Wallet
{
    std::string address;
    std::uint64_t key_index = 0;
    int security = 0;
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
        wallet.key_index = next_key_index++;
        wallet.security = security;
        wallet.address = legacy::AddressOfKey(legacy::PrivateKey(seed, wallet.key_index, security));
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

    // Sets the indexes and the bundle hash; a bundle to be signed gets one without a 13.
    static std::string Finalize(std::vector<legacy::Transaction> &txs, bool to_sign)
    {
        for (std::size_t i = 0; i < txs.size(); i++)
        {
            txs[i].current_index = static_cast<std::int64_t>(i);
            txs[i].last_index = static_cast<std::int64_t>(txs.size() - 1);
        }
        if (to_sign)
            return legacy::FinalizeBundleHash(txs);
        std::string hash = legacy::ComputeBundleHash(txs);
        for (auto &tx : txs)
            tx.bundle = hash;
        return hash;
    }

    // Attaches the bundle to `trunk` and `branch`: plans its lines, last index first. Returns
    // the tail.
    Approvee Attach(std::vector<legacy::Transaction> &txs, const Approvee &trunk,
                    const Approvee &branch)
    {
        Approvee next;
        for (std::size_t i = txs.size(); i-- > 0;)
        {
            legacy::Transaction &tx = txs[i];
            bool last = i + 1 == txs.size();
            tx.attachment_timestamp =
                tx.timestamp * 1000 + static_cast<std::int64_t>(random.Below(1000));
            tx.attachment_timestamp_lower_bound = 0;
            tx.attachment_timestamp_upper_bound = kMaxAttachmentUpperBound;
            tx.nonce = RandomTrytes(random, legacy::field::kNonceSize);
            planned.push_back(
                {std::move(tx), last ? trunk : next, last ? branch : trunk, milestone_index});
            next = Approvee{{}, lines_planned++};
            recent.push_back(next);
            if (recent.size() > kRecentTransactions)
                recent.pop_front();
        }
        return next;
    }

    // Attaches a bundle of this milestone's cone to tips.
    void AttachToTips(std::vector<legacy::Transaction> &txs)
    {
        std::size_t pick = random.Below(tips.size());
        Approvee trunk = tips[pick];
        if (tips.size() > 1 || random.Chance(0.6))
            tips.erase(tips.begin() + static_cast<std::ptrdiff_t>(pick));
        Approvee branch;
        if (!tips.empty() && random.Chance(0.3))
        {
            pick = random.Below(tips.size());
            branch = tips[pick];
            tips.erase(tips.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        else
            branch = recent.empty() ? Approvee{kNullHash} : recent[random.Below(recent.size())];
        tips.push_back(Attach(txs, trunk, branch));
        produced += txs.size();
    }

    // Hashes the first (up to) 64 planned lines into `hashed`. Every trunk and branch approves a
    // line before, so they are hashed in order; but their first 30 blocks, before the trunk, are
    // the same whatever the trunk, and go through the bitsliced hasher together. Then whatever
    // approves these lines knows their hashes.
    void HashPlanned()
    {
        std::size_t count = std::min(planned.size(), legacy::kCurlBatchSize);
        std::uint64_t first = lines_planned - planned.size();
        std::vector<legacy::Trits> trits;
        std::vector<const legacy::Trit *> inputs;
        for (std::size_t i = 0; i < count; i++)
        {
            trits.push_back(legacy::EncodeTransaction(planned[i].tx));
            inputs.push_back(trits.back().data());
        }
        std::vector<legacy::PackedCurlP81> sponges =
            legacy::CurlAbsorbMany(inputs, kTritsBeforeTrunk);
        std::vector<std::string> hashes;
        auto resolve = [&](Approvee &approvee)
        {
            if (approvee.hash.empty() && approvee.line - first < hashes.size())
                approvee.hash = hashes[approvee.line - first];
        };
        for (std::size_t i = 0; i < count; i++)
        {
            legacy::Trit *line = trits[i].data();
            resolve(planned[i].trunk);
            resolve(planned[i].branch);
            legacy::TrytesToTrits(planned[i].trunk.hash,
                                  line + legacy::kTritsPerTryte * legacy::field::kTrunk);
            legacy::TrytesToTrits(planned[i].branch.hash,
                                  line + legacy::kTritsPerTryte * legacy::field::kBranch);
            sponges[i].Absorb(line + kTritsBeforeTrunk,
                              legacy::kTransactionTrits - kTritsBeforeTrunk);
            hashes.push_back(legacy::TritsToTrytes(sponges[i].Digest()));
            hashed.push_back({hashes.back(), legacy::TritsToTrytes(line, legacy::kTransactionTrits),
                              planned[i].snapshot_index});
        }
        planned.erase(planned.begin(), planned.begin() + static_cast<std::ptrdiff_t>(count));
        for (PlannedLine &line : planned)
        {
            resolve(line.trunk);
            resolve(line.branch);
        }
        for (Approvee &approvee : recent)
            resolve(approvee);
        for (Approvee &approvee : tips)
            resolve(approvee);
        resolve(previous_milestone);
    }

    // Plans the next milestone's lines, its milestone bundle last.
    void PlanMilestone()
    {
        produced = 0;
        milestone_index = options.start_index + milestones_planned;
        std::int64_t milestone_time =
            static_cast<std::int64_t>(options.start_timestamp) +
            static_cast<std::int64_t>(kMilestoneInterval) * milestones_planned;
        std::size_t cone = DrawConeSize(random, options);
        tips = {previous_milestone};
        while (produced < cone)
        {
            // Issued through the interval before the milestone, in order.
            std::int64_t timestamp =
                milestone_time - kMilestoneInterval +
                static_cast<std::int64_t>(kMilestoneInterval * produced / (cone + 1)) + 1;
            if (!spendable.empty() && random.Chance(options.transaction_share))
                Transfer(timestamp);
            else
                Spam(timestamp, false);
        }
        while (tips.size() > 1)
            Spam(milestone_time, true);
        Milestone(milestone_time);
        for (Wallet &wallet : pending)
            spendable.push_back(std::move(wallet));
        pending.clear();
        milestones_planned++;
        milestone_lines.push_back(lines_planned);
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
            Approvee trunk = tips.back();
            tips.pop_back();
            Approvee branch = tips.back();
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
            txs.push_back(Blank(input.address, -input.balance, tag, timestamp));
            for (int extra = 1; extra < input.security; extra++)
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
            legacy::Trits key = legacy::PrivateKey(seed, inputs[k].key_index, inputs[k].security);
            std::vector<std::string> fragments = legacy::SignatureFragments(key, bundle_hash);
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
    std::deque<Approvee> recent;
    std::vector<Approvee> tips;
    Approvee previous_milestone{kNullHash};
    std::uint32_t milestones_planned = 0;
    std::uint32_t milestone_index = 0; // of the milestone being planned
    std::size_t produced = 0;          // transactions of its cone so far
    std::uint64_t lines_planned = 0;
    std::deque<PlannedLine> planned;           // not hashed yet, in order
    std::deque<DmpLine> hashed;                // not returned yet, in order
    std::deque<std::uint64_t> milestone_lines; // lines planned through each milestone not returned
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
    // Milestones are planned ahead (up to the number asked for) until 64 lines wait to be hashed,
    // so that the bitsliced hasher gets all the lines it can take.
    State &s = *state_;
    std::uint64_t returned = s.lines_planned - s.planned.size() - s.hashed.size();
    while (s.milestone_lines.empty() || returned + s.hashed.size() < s.milestone_lines.front())
    {
        bool more = s.milestones_planned < s.options.milestones;
        if (s.milestone_lines.empty() || (more && s.planned.size() < legacy::kCurlBatchSize))
            s.PlanMilestone();
        else
            s.HashPlanned();
    }
    auto end = s.hashed.begin() + static_cast<std::ptrdiff_t>(s.milestone_lines.front() - returned);
    std::vector<DmpLine> lines(std::make_move_iterator(s.hashed.begin()),
                               std::make_move_iterator(end));
    s.hashed.erase(s.hashed.begin(), end);
    s.milestone_lines.pop_front();
    return lines;
}

} // namespace permanode::cli
