// The synthetic Chrysalis ledger.
//
// A line holds one milestone's cone in white-flag order: every message after its parents, and
// the milestone's own message last (in Chrysalis the milestone message of N is part of N's
// cone, unlike Stardust). Most messages carry indexation spam; a share carries value
// transactions, and a few carry nothing.
//
// Parents. The generator keeps the cone's tips: its messages that no message references yet.
// A message takes 1 to 8 parents: the message issued just before it (so generation order is
// white-flag order, TIP-2's depth-first walk), some tips (often none), the rest among the latest
// messages of this or earlier cones. Once there are 8 tips a message must take at least one, so
// there are never more than 8, and the milestone message takes them all: the whole cone is its
// past cone.
//
// Value. The genesis milestone books the total supply as snapshot outputs on the first
// addresses, less a treasury that receipts draw on. Transactions spend SigLockedSingleOutputs
// and dust allowances of the generator's unspent set (1 input mostly, several for
// consolidations, often of one address: then one signature unlock and reference unlocks for the
// others), and create outputs of at least 1 Mi, a micro payment below 1 Mi, or a dust allowance.
// TIP-15 is kept for every address: its dust outputs never outnumber a tenth of its allowance in
// Mi (at most 100), so micro payments go only to addresses holding an allowance, and an
// allowance is spent only by an address without dust. A few transactions spend an output
// spent shortly before and are conflicting (reason 1, input already spent).
//
// Receipts (TIP-17) come with some milestones: funds migrated from the legacy network and the
// treasury transaction that pays for them. Their outputs are not spent by later transactions,
// since ingest books only the outputs of transactions and of the genesis snapshot.
//
// Addresses and indexes are drawn from populations that grow over time, with Zipf-like
// popularity.
#include "chrysalis_generator.hpp"

#include "codec/chrysalis/message.hpp"
#include "codec/hex.hpp"
#include "codec/merkle.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <string>

namespace permanode::cli
{
namespace
{

namespace v1 = codec::chrysalis;
using codec::Bytes;
using codec::Hash32;

constexpr std::uint32_t kMilestoneInterval = 10; // seconds
constexpr std::uint64_t kMi = 1'000'000;
constexpr std::uint64_t kDustUnit = 100'000;   // TIP-15: one dust output per 100 Ki of allowance
constexpr std::uint32_t kMaxDustOutputs = 100; // TIP-15: per address, whatever its allowance
constexpr std::uint64_t kTreasuryShare = 20;   // the treasury starts with 1/20 of the supply
constexpr std::size_t kRecentMessages = 24;    // parents besides tips are drawn from these
constexpr std::size_t kRecentSpent = 256;      // double spends are drawn from these
constexpr double kReceiptChance = 0.08;        // per milestone
constexpr std::uint8_t kSingleOutput = 0;      // output types, as on the wire
constexpr std::uint8_t kDustAllowance = 1;

Bytes BytesOf(const std::string &text)
{
    return Bytes(text.begin(), text.end());
}

struct Unspent
{
    v1::UtxoInput input;
    v1::Ed25519Address address;
    std::uint64_t amount = 0;
    bool allowance = false; // a SigLockedDustAllowanceOutput
};

// TIP-15 bookkeeping of one address.
struct DustAccount
{
    std::uint64_t allowance = 0;    // its unspent dust allowance deposits, summed
    std::uint32_t dust_outputs = 0; // its unspent SigLockedSingleOutputs below 1 Mi

    std::uint64_t Allowed() const
    {
        return std::min<std::uint64_t>(allowance / kDustUnit, kMaxDustOutputs);
    }
};

// UTF-8 words for indexes and data beyond ASCII.
const char *const kUtf8Words[] = {"Grüße", "données", "データ", "📡 sensor", "Ελλάδα",
                                  "城市",  "ĐÔNG",    "погода", "🚀",        "naïve"};

} // namespace

GeneratorOptions ChrysalisGeneratorDefaults()
{
    GeneratorOptions options;
    options.start_timestamp = 1619827200; // 2021-05-01T00:00:00Z
    options.min_blocks = 150;
    options.max_blocks = 350;
    options.transaction_share = 0.05;
    return options;
}

struct ChrysalisLedgerGenerator::State
{
    GeneratorOptions options;
    Random random;
    Population addresses{0.08};
    Population indexes{0.02};
    std::uint32_t produced = 0;
    std::uint32_t timestamp = 0; // of the milestone being generated
    std::deque<v1::MessageId> recent;
    std::vector<v1::MessageId> tips; // of the cone being generated
    std::vector<Unspent> unspent;
    std::deque<Unspent> recently_spent;
    std::map<Hash32, DustAccount> dust;             // by address
    std::vector<v1::Ed25519Address> dust_receivers; // addresses that ever held an allowance
    std::vector<v1::PublicKey> coordinator_keys;    // sorted; a milestone is signed by two
    std::uint64_t treasury = 0;                     // tokens not migrated yet
    codec::MilestoneId treasury_milestone{};        // whose receipt made the treasury output
    std::uint32_t migrated_at = 1'440'000;          // legacy milestone of the next receipt
    std::uint64_t spam_count = 0;
    // Funds migrated by receipts: unspent outputs of the ledger that the generator never spends
    // (kept apart from `unspent`, whose draws shape the ledger).
    std::vector<Unspent> migrated;

    explicit State(const GeneratorOptions &o) : options(o), random(o.seed)
    {
        for (std::uint64_t i = 0; i < 3; ++i)
            coordinator_keys.push_back(DerivedId("chrysalis-coordinator", options.seed, i));
        std::sort(coordinator_keys.begin(), coordinator_keys.end());
    }

    v1::Ed25519Address AddressAt(std::size_t n) const
    {
        return v1::Ed25519Address{DerivedId("chrysalis-address", options.seed, n)};
    }
    v1::Ed25519Address DrawAddress() { return AddressAt(addresses.Draw(random)); }

    // --- messages and their parents ------------------------------------------------------

    void Remember(const v1::MessageId &id)
    {
        recent.push_back(id);
        if (recent.size() > kRecentMessages)
            recent.pop_front();
    }

    std::vector<v1::MessageId> DrawParents()
    {
        std::size_t wanted = random.Chance(0.05)   ? 1
                             : random.Chance(0.25) ? 2
                                                   : random.Between(3, v1::limits::kMaxParents);
        // The message issued just before is always one: the cone is then the past cone of its
        // last message, and generation order is white-flag order, the depth-first walk of TIP-2
        // that a node's REST API leaves a client to repeat.
        std::vector<v1::MessageId> parents;
        if (!recent.empty())
        {
            parents.push_back(recent.back());
            tips.erase(std::remove(tips.begin(), tips.end(), recent.back()), tips.end());
        }
        if (!tips.empty() && (tips.size() >= v1::limits::kMaxParents || random.Chance(0.6)))
        {
            std::size_t take = std::min(1 + random.Below(std::min(wanted, tips.size())),
                                        v1::limits::kMaxParents - parents.size());
            for (std::size_t i = 0; i < take; ++i)
            {
                std::size_t j = random.Below(tips.size());
                parents.push_back(tips[j]);
                tips[j] = tips.back();
                tips.pop_back();
            }
        }
        std::size_t window = recent.size();
        for (std::size_t tries = 0; parents.size() < wanted && tries < 2 * wanted; ++tries)
        {
            const v1::MessageId &candidate = recent[recent.size() - 1 - random.Below(window)];
            if (std::find(parents.begin(), parents.end(), candidate) == parents.end())
                parents.push_back(candidate);
        }
        // A recent message that was still a tip is referenced now.
        tips.erase(std::remove_if(tips.begin(), tips.end(),
                                  [&](const v1::MessageId &tip) {
                                      return std::find(parents.begin(), parents.end(), tip) !=
                                             parents.end();
                                  }),
                   tips.end());
        std::sort(parents.begin(), parents.end());
        return parents;
    }

    // Encodes the message; it becomes a tip of the cone.
    BundleBlock Issue(const v1::Message &message, InclusionState state = {},
                      std::uint8_t conflict_reason = 0)
    {
        BundleBlock out{v1::EncodeMessage(message), state, conflict_reason};
        v1::MessageId id = v1::ComputeMessageId(out.bytes);
        tips.push_back(id);
        Remember(id);
        return out;
    }

    BundleBlock MakeMessage(std::optional<v1::Payload> payload, InclusionState state = {},
                            std::uint8_t conflict_reason = 0)
    {
        v1::Message message;
        message.network_id = kChrysalisMainnetNetworkId;
        message.parents = DrawParents();
        message.payload = std::move(payload);
        message.nonce = random.Next();
        return Issue(message, state, conflict_reason);
    }

    // --- indexation ----------------------------------------------------------------------

    std::string Utf8Text(std::size_t words)
    {
        std::string text;
        for (std::size_t i = 0; i < words; ++i)
        {
            if (i > 0)
                text += ' ';
            text += kUtf8Words[random.Below(std::size(kUtf8Words))];
        }
        return text;
    }

    // What a spammer writes: its count, the time and how long tip selection took.
    Bytes SpammerData()
    {
        std::time_t when = timestamp + static_cast<std::time_t>(random.Below(kMilestoneInterval));
        std::tm tm{};
        gmtime_r(&when, &tm);
        char iso[32];
        std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
        char count[16];
        std::snprintf(count, sizeof count, "%06llu",
                      static_cast<unsigned long long>(++spam_count % 1000000));
        return BytesOf(std::string("Count: ") + count + "\nTimestamp: " + iso +
                       "\nTipselection: " + std::to_string(random.Between(20, 900)) + "µs");
    }

    // An index drawn from the population, with data of its kind: spammer counts, ASCII, UTF-8
    // or binary.
    v1::IndexationPayload DrawIndexation()
    {
        std::size_t n = indexes.Draw(random);
        v1::IndexationPayload payload;
        if (n == 0)
        {
            payload.index = BytesOf("HORNET Spammer");
            payload.data = SpammerData();
            return payload;
        }
        switch (n % 4)
        {
            case 0:
                payload.index = BytesOf("spam-" + std::to_string(n));
                payload.data = RandomText(random, 20, 220);
                break;
            case 1:
                payload.index = BytesOf(std::string(kUtf8Words[n % std::size(kUtf8Words)]) + "-" +
                                        std::to_string(n));
                payload.data = BytesOf(Utf8Text(random.Between(1, 24)));
                break;
            case 2:
                payload.index = BytesOf("app/" + std::to_string(n) + "/events");
                payload.data = BytesOf("{\"event\":" + std::to_string(random.Below(100000)) +
                                       ",\"at\":" + std::to_string(timestamp) + "}");
                break;
            default: // a binary index, as an application's hash
            {
                Hash32 id = DerivedId("chrysalis-index", options.seed, n);
                payload.index.assign(id.begin(), id.begin() + 8 + n % 25);
                payload.data = random.Vector(random.Between(16, 256));
                break;
            }
        }
        return payload;
    }

    BundleBlock IndexationMessage()
    {
        if (random.Chance(0.02))
            return MakeMessage(std::nullopt);
        return MakeMessage(v1::Payload{DrawIndexation()});
    }

    // --- transactions --------------------------------------------------------------------

    DustAccount &DustOf(const v1::Ed25519Address &address) { return dust[address.hash]; }

    // An allowance is spent only by an address without dust: its dust stays covered.
    bool Spendable(const Unspent &output)
    {
        return !output.allowance || DustOf(output.address).dust_outputs == 0;
    }

    // Distinct spendable positions of the unspent set adding up to at least 1 Mi: one mostly,
    // several for a consolidation, often of the first input's address.
    std::vector<std::size_t> DrawInputs()
    {
        std::size_t wanted = 1 + (random.Chance(0.25) ? random.Below(4) : 0) +
                             (random.Chance(0.02) ? random.Below(16) : 0);
        std::vector<std::size_t> positions;
        std::uint64_t total = 0;
        for (std::size_t tries = 0;
             tries < 8 * wanted + 16 && (positions.size() < wanted || total < kMi) &&
             positions.size() < v1::limits::kMaxInputs;
             ++tries)
        {
            std::size_t p = random.Below(unspent.size());
            if (!positions.empty() && random.Chance(0.5))
                for (int scan = 0; scan < 32; ++scan)
                {
                    std::size_t q = random.Below(unspent.size());
                    if (unspent[q].address == unspent[positions.front()].address &&
                        std::find(positions.begin(), positions.end(), q) == positions.end())
                    {
                        p = q;
                        break;
                    }
                }
            if (std::find(positions.begin(), positions.end(), p) != positions.end() ||
                !Spendable(unspent[p]))
                continue;
            positions.push_back(p);
            total += unspent[p].amount;
        }
        if (total < kMi)
            positions.clear();
        return positions;
    }

    // An address that may take one more dust output and keeps its allowance in this
    // transaction.
    std::optional<v1::Ed25519Address> DustTarget(const std::vector<std::size_t> &inputs)
    {
        for (int tries = 0; tries < 8 && !dust_receivers.empty(); ++tries)
        {
            const v1::Ed25519Address &address = dust_receivers[random.Below(dust_receivers.size())];
            const DustAccount &account = DustOf(address);
            bool losing =
                std::any_of(inputs.begin(), inputs.end(),
                            [&](std::size_t p)
                            { return unspent[p].allowance && unspent[p].address == address; });
            if (!losing && account.dust_outputs + 1 <= account.Allowed())
                return address;
        }
        return std::nullopt;
    }

    // The outputs of `total`, keyed by type and address (unique per TIP-7, and in that order
    // their bytes sort): a micro payment or a dust allowance now and then, the rest in fresh
    // outputs of at least 1 Mi, the last often back to the sender.
    std::map<std::pair<std::uint8_t, Hash32>, std::uint64_t>
    PlanOutputs(std::uint64_t total, const v1::Ed25519Address &sender,
                const std::vector<std::size_t> &inputs)
    {
        std::map<std::pair<std::uint8_t, Hash32>, std::uint64_t> planned;
        std::uint64_t left = total; // stays 0 or at least 1 Mi
        double kind = random.Unit();
        if (kind < 0.12)
        {
            std::optional<v1::Ed25519Address> target = DustTarget(inputs);
            if (target && left > kMi)
            {
                std::uint64_t amount = random.Between(1, std::min(kMi - 1, left - kMi));
                planned[{kSingleOutput, target->hash}] += amount;
                left -= amount;
            }
        }
        else if (kind < 0.18 || (dust_receivers.size() < 8 && random.Chance(0.2)))
        {
            std::uint64_t amount = std::min(left, kMi * random.Between(1, 10));
            if (left - amount < kMi)
                amount = left;
            v1::Ed25519Address target = random.Chance(0.7) ? sender : DrawAddress();
            planned[{kDustAllowance, target.hash}] += amount;
            left -= amount;
        }
        if (left > 0)
        {
            std::uint64_t fresh =
                options.min_fresh_outputs +
                random.Below(options.max_fresh_outputs - options.min_fresh_outputs + 1);
            fresh = std::max<std::uint64_t>(1, std::min(fresh, left / kMi));
            std::vector<std::uint64_t> amounts = SplitAmount(random, left - fresh * kMi, fresh);
            for (std::size_t i = 0; i < fresh; ++i)
            {
                bool remainder = i + 1 == fresh && fresh > 1 && random.Chance(0.5);
                v1::Ed25519Address to = remainder ? sender : DrawAddress();
                planned[{kSingleOutput, to.hash}] += amounts[i] + kMi;
            }
        }
        return planned;
    }

    // One signature unlock per address, in input order; reference unlocks for its other inputs.
    std::vector<v1::Unlock> Unlocks(const std::vector<v1::Ed25519Address> &owners)
    {
        std::vector<v1::Unlock> unlocks;
        for (std::size_t i = 0; i < owners.size(); ++i)
        {
            auto first = std::find(owners.begin(), owners.begin() + i, owners[i]);
            if (first != owners.begin() + i)
                unlocks.emplace_back(
                    v1::ReferenceUnlock{static_cast<std::uint16_t>(first - owners.begin())});
            else
                unlocks.emplace_back(v1::SignatureUnlock{random.Array<32>(), random.Array<64>()});
        }
        return unlocks;
    }

    std::optional<BundleBlock> TransactionMessage()
    {
        if (unspent.size() < 4)
            return std::nullopt;
        if (!recently_spent.empty() && random.Chance(0.01))
            return ConflictingTransaction();
        std::vector<std::size_t> positions = DrawInputs();
        if (positions.empty())
            return std::nullopt;
        // TIP-7: inputs in the lexical order of their bytes (transaction ID, index LE).
        std::sort(positions.begin(), positions.end(),
                  [&](std::size_t a, std::size_t b)
                  {
                      return v1::ComputeOutputId(unspent[a].input.transaction_id,
                                                 unspent[a].input.index) <
                             v1::ComputeOutputId(unspent[b].input.transaction_id,
                                                 unspent[b].input.index);
                  });
        v1::TransactionPayload payload;
        std::vector<v1::Ed25519Address> owners;
        std::uint64_t total = 0;
        for (std::size_t p : positions)
        {
            payload.essence.inputs.emplace_back(unspent[p].input);
            owners.push_back(unspent[p].address);
            total += unspent[p].amount;
        }
        for (const auto &[key, amount] : PlanOutputs(total, owners.front(), positions))
        {
            v1::Ed25519Address address{key.second};
            if (key.first == kDustAllowance)
                payload.essence.outputs.emplace_back(
                    v1::SigLockedDustAllowanceOutput{address, amount});
            else
                payload.essence.outputs.emplace_back(v1::SigLockedSingleOutput{address, amount});
        }
        if (random.Chance(0.15))
            payload.essence.payload = DrawIndexation();
        payload.unlocks = Unlocks(owners);
        codec::TransactionId id = v1::ComputeTransactionId(payload);
        Apply(payload, id, positions);
        return MakeMessage(v1::Payload{std::move(payload)}, InclusionState::kIncluded);
    }

    // Spends an output spent shortly before: conflicting, input already spent (1).
    BundleBlock ConflictingTransaction()
    {
        const Unspent &spent = recently_spent[random.Below(recently_spent.size())];
        v1::TransactionPayload payload;
        payload.essence.inputs.emplace_back(spent.input);
        payload.essence.outputs.emplace_back(
            v1::SigLockedSingleOutput{DrawAddress(), spent.amount});
        payload.unlocks = Unlocks({spent.address});
        return MakeMessage(v1::Payload{std::move(payload)}, InclusionState::kConflicting, 1);
    }

    void Apply(const v1::TransactionPayload &payload, const codec::TransactionId &id,
               std::vector<std::size_t> positions)
    {
        // Remove spent inputs from the back so that positions stay valid.
        std::sort(positions.rbegin(), positions.rend());
        for (std::size_t p : positions)
        {
            const Unspent &spent = unspent[p];
            DustAccount &account = DustOf(spent.address);
            if (spent.allowance)
                account.allowance -= spent.amount;
            else if (spent.amount < kMi)
                account.dust_outputs--;
            recently_spent.push_back(spent);
            if (recently_spent.size() > kRecentSpent)
                recently_spent.pop_front();
            unspent[p] = std::move(unspent.back());
            unspent.pop_back();
        }
        const auto &outputs = payload.essence.outputs;
        for (std::size_t i = 0; i < outputs.size(); ++i)
        {
            Unspent created;
            created.input = v1::UtxoInput{id, static_cast<std::uint16_t>(i)};
            if (const auto *allowance = std::get_if<v1::SigLockedDustAllowanceOutput>(&outputs[i]))
            {
                created.address = allowance->address;
                created.amount = allowance->amount;
                created.allowance = true;
                DustAccount &account = DustOf(created.address);
                if (account.allowance == 0 &&
                    std::find(dust_receivers.begin(), dust_receivers.end(), created.address) ==
                        dust_receivers.end())
                    dust_receivers.push_back(created.address);
                account.allowance += created.amount;
            }
            else
            {
                const auto &single = std::get<v1::SigLockedSingleOutput>(outputs[i]);
                created.address = single.address;
                created.amount = single.amount;
                if (created.amount < kMi)
                    DustOf(created.address).dust_outputs++;
            }
            unspent.push_back(created);
        }
    }

    // --- milestones ----------------------------------------------------------------------

    std::vector<SnapshotOutput> Genesis()
    {
        std::vector<SnapshotOutput> outputs;
        addresses.Grow(options.genesis_addresses);
        treasury = v1::limits::kTotalSupply / kTreasuryShare;
        std::uint64_t funds = v1::limits::kTotalSupply - treasury;
        for (std::uint32_t i = 0; i < options.genesis_addresses; ++i)
        {
            Unspent output;
            output.input = v1::UtxoInput{DerivedId("chrysalis-genesis", options.seed, i / 100),
                                         static_cast<std::uint16_t>(i % 100)};
            output.address = AddressAt(i);
            output.amount =
                funds / options.genesis_addresses +
                (i + 1 == options.genesis_addresses ? funds % options.genesis_addresses : 0);
            // Snapshot outputs carry a zero message ID, as in a node's genesis snapshot.
            outputs.push_back(
                {codec::OutputId{output.input.transaction_id, output.input.index}, codec::BlockId{},
                 v1::EncodeOutputBytes(v1::SigLockedSingleOutput{output.address, output.amount})});
            unspent.push_back(output);
        }
        return outputs;
    }

    // The legacy tail transaction a receipt entry names: the given ones first, in order, then
    // random legacy hashes (t5b1: bytes of five balanced trits, the last one's two padding
    // trits zero).
    std::size_t next_tail = 0;
    v1::LegacyTailHash NextTail()
    {
        if (next_tail < options.migration_tails.size())
            return options.migration_tails[next_tail++];
        v1::LegacyTailHash tail{};
        for (std::size_t i = 0; i + 1 < tail.size(); ++i)
            tail[i] = static_cast<std::uint8_t>(static_cast<int>(random.Below(243)) - 121);
        tail.back() = static_cast<std::uint8_t>(static_cast<int>(random.Below(27)) - 13);
        return tail;
    }

    // Funds migrated from the legacy network, paid from the treasury (TIP-17).
    std::optional<v1::ReceiptPayload> MakeReceipt()
    {
        v1::ReceiptPayload receipt;
        receipt.migrated_at = migrated_at;
        receipt.final = random.Chance(0.3);
        std::uint64_t moved = 0;
        std::size_t count = 1 + random.Below(12);
        for (std::size_t i = 0; i < count; ++i)
        {
            v1::MigratedFundsEntry entry;
            entry.tail_transaction_hash = NextTail();
            entry.address = DrawAddress();
            entry.deposit = kMi * (1 + random.ZipfRank(100'000)); // mostly a few Mi to Gi
            if (entry.deposit > treasury - moved)
                break;
            moved += entry.deposit;
            receipt.funds.push_back(entry);
        }
        if (receipt.funds.empty())
            return std::nullopt;
        // TIP-17: entries in the lexical order of their bytes, which the tail leads.
        std::sort(receipt.funds.begin(), receipt.funds.end(),
                  [](const v1::MigratedFundsEntry &a, const v1::MigratedFundsEntry &b)
                  { return a.tail_transaction_hash < b.tail_transaction_hash; });
        receipt.transaction = v1::TreasuryTransactionPayload{v1::TreasuryInput{treasury_milestone},
                                                             v1::TreasuryOutput{treasury - moved}};
        if (receipt.final)
            migrated_at += 1 + static_cast<std::uint32_t>(random.Below(3));
        return receipt;
    }

    // The milestone's own message, last in its cone: it references every tip left.
    BundleBlock MilestoneMessage(std::uint32_t index, const std::vector<BundleBlock> &cone)
    {
        v1::MilestonePayload payload;
        v1::MilestoneEssence &essence = payload.essence;
        essence.index = index;
        essence.timestamp = timestamp;
        essence.parents = tips;
        if (essence.parents.empty())
            essence.parents.push_back(recent.back());
        std::sort(essence.parents.begin(), essence.parents.end());
        // TIP-4: the Merkle hash of the cone's included transactions in white-flag order (the
        // random draw it replaced stays, to keep the ledgers of a seed).
        std::vector<Hash32> included;
        for (const BundleBlock &m : cone)
            if (m.inclusion_state == InclusionState::kIncluded)
                included.push_back(
                    v1::ComputeMessageId(codec::ByteSpan(m.bytes.data(), m.bytes.size())));
        random.Array<32>();
        essence.inclusion_merkle_proof = codec::MerkleRoot(included);
        // Two of the coordinator's three keys, in key order, each with its signature.
        std::size_t absent = random.Below(coordinator_keys.size());
        for (std::size_t k = 0; k < coordinator_keys.size(); ++k)
            if (k != absent)
                essence.public_keys.push_back(coordinator_keys[k]);
        if (treasury > 0 && random.Chance(kReceiptChance))
            essence.receipt = MakeReceipt();
        for (std::size_t k = 0; k < essence.public_keys.size(); ++k)
            payload.signatures.push_back(random.Array<64>());
        if (essence.receipt)
        {
            treasury = essence.receipt->transaction.output.amount;
            treasury_milestone = v1::ComputeMilestoneId(essence);
            // Booked as Hornet did: the milestone ID as transaction ID, the entry's index.
            const auto &funds = essence.receipt->funds;
            for (std::size_t i = 0; i < funds.size(); ++i)
                migrated.push_back(
                    {v1::UtxoInput{treasury_milestone, static_cast<std::uint16_t>(i)},
                     funds[i].address, funds[i].deposit, false});
        }

        v1::Message message;
        message.network_id = kChrysalisMainnetNetworkId;
        message.parents = essence.parents;
        message.payload = v1::Payload{std::move(payload)};
        message.nonce = random.Next();
        BundleBlock out = Issue(message);
        tips.clear(); // the milestone confirms the cone: the next one starts without tips
        return out;
    }

    MilestoneBundle Next()
    {
        MilestoneBundle bundle = EmptyBundle(options, produced, kMilestoneInterval);
        bundle.protocol_version = kChrysalisProtocol;
        timestamp = bundle.milestone_timestamp;
        if (produced == 0)
        {
            bundle.snapshot_outputs = Genesis();
            Remember(v1::MessageId{}); // the first messages' parent: the all-zero message ID
        }
        std::uint32_t count = DrawConeSize(random, options);
        while (bundle.blocks.size() + 1 < count)
        {
            std::optional<BundleBlock> message;
            if (random.Chance(options.transaction_share))
                message = TransactionMessage();
            bundle.blocks.push_back(message ? std::move(*message) : IndexationMessage());
        }
        bundle.blocks.push_back(MilestoneMessage(bundle.milestone_index, bundle.blocks));
        ++produced;
        return bundle;
    }
};

ChrysalisLedgerGenerator::ChrysalisLedgerGenerator(const GeneratorOptions &options)
    : state_(std::make_unique<State>(options))
{
}

ChrysalisLedgerGenerator::~ChrysalisLedgerGenerator() = default;

std::vector<ModelOutput> ChrysalisLedgerGenerator::Model() const
{
    std::vector<ModelOutput> model;
    for (const auto *set : {&state_->unspent, &state_->migrated})
        for (const Unspent &u : *set)
        {
            ModelOutput out;
            out.output_id =
                codec::ToHex(v1::ComputeOutputId(u.input.transaction_id, u.input.index));
            out.kind = "legacy";
            out.owner_hash = u.address.hash;
            out.amount = u.amount;
            model.push_back(std::move(out));
        }
    return model;
}

MilestoneBundle ChrysalisLedgerGenerator::Next()
{
    return state_->Next();
}

} // namespace permanode::cli
