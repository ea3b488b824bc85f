// The synthetic ledger generator.
//
// Each milestone's cone starts with the previous milestone's block (a milestone's own block is
// issued after it and referenced by the next one), followed by tagged-data blocks, transactions
// and a few blocks without payload, in generation order, which is white-flag order: every block
// references the one before it, so TIP-2's depth-first walk from the milestone's parents (the
// cone's last blocks) meets them in the order they were made. Transactions spend outputs of the
// generator's UTXO set; a few double-spend a recently spent output and are conflicting (reason 1).
// Addresses and tags are drawn from populations that grow over time, with Zipf-like popularity
// (older members are the popular ones).
#include "generator.hpp"

#include "codec/block.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/merkle.hpp"
#include "codec/output.hpp"
#include "codec/protocol_parameters.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <optional>
#include <string>

namespace permanode::cli
{
namespace
{

using namespace permanode::codec;

constexpr std::uint64_t kShimmerNetworkId = 14364762045254553490ull;
constexpr std::uint64_t kGenesisAmount = 1'000'000'000'000ull; // per funded address
constexpr std::uint64_t kMinAmount = 50'000;                   // of a newly created output
constexpr std::size_t kRecentBlocks = 48;                      // parents are drawn from these
constexpr std::size_t kRecentSpent = 256;                      // double spends are drawn from these
constexpr std::uint32_t kMilestoneInterval = 5;

struct Unspent
{
    OutputId id;
    Output output;
    // Its booking, which a node reports with its spend (generate --node-fields).
    BlockId block_id{};
    std::uint32_t milestone_index = 0;
    std::uint32_t milestone_timestamp = 0;
};

} // namespace

struct LedgerGenerator::State
{
    GeneratorOptions options;
    Random random;
    Population addresses{0.08};
    Population tags{0.02};
    std::uint32_t produced = 0;
    std::deque<BlockId> recent;
    std::vector<Unspent> unspent;
    std::deque<OutputId> recently_spent;
    MilestoneId previous_milestone_id{};
    std::optional<Bytes> milestone_block; // of the previous milestone: opens the next cone
    std::uint32_t index = 0;              // of the milestone being generated
    std::uint32_t timestamp = 0;          // of the milestone being generated
    NodeFields *node = nullptr;           // the milestone's node fields, while Next fills them

    explicit State(const GeneratorOptions &o) : options(o), random(o.seed) {}

    // A ledger that continues a Chrysalis one draws from that ledger's addresses.
    Address AddressAt(std::size_t n) const
    {
        if (options.chrysalis_addresses_seed)
            return Address{AddressType::kEd25519,
                           DerivedId("chrysalis-address", *options.chrysalis_addresses_seed, n)};
        return Address{AddressType::kEd25519, DerivedId("address", options.seed, n)};
    }
    Address DrawAddress() { return AddressAt(addresses.Draw(random)); }

    Bytes DrawTag()
    {
        std::size_t n = tags.Draw(random);
        std::string text = n % 3 == 0   ? "spam-" + std::to_string(n)
                           : n % 3 == 1 ? "app/" + std::to_string(n)
                                        : "t" + std::to_string(n);
        return Bytes(text.begin(), text.end());
    }

    Bytes Text(std::size_t min, std::size_t max) { return RandomText(random, min, max); }

    std::vector<BlockId> DrawParents()
    {
        std::size_t available = std::min(recent.size(), std::size_t{16});
        std::size_t wanted = 1 + random.Below(4) + (random.Chance(0.1) ? random.Below(4) : 0);
        std::vector<BlockId> parents;
        for (std::size_t i = 0; i < wanted && i < available * 2; ++i)
            parents.push_back(recent[recent.size() - 1 - random.Below(available)]);
        // The block issued just before is always one (7 drawn at most, 8 allowed): the cone is
        // then the past cone of its last block, and generation order is white-flag order, the
        // depth-first walk of TIP-2 that a node's REST API leaves a client to repeat.
        parents.push_back(recent.back());
        std::sort(parents.begin(), parents.end());
        parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
        return parents;
    }

    void Remember(const BlockId &id)
    {
        recent.push_back(id);
        if (recent.size() > kRecentBlocks)
            recent.pop_front();
    }

    BundleBlock MakeBlock(std::optional<Payload> payload, InclusionState state = {},
                          std::uint8_t conflict_reason = 0)
    {
        Block block;
        block.payload = std::move(payload);
        return Seal(block, state, conflict_reason);
    }

    // Draws the block's parents and nonce and encodes it; the block keeps its payload, and
    // recent.back() is its ID.
    BundleBlock Seal(Block &block, InclusionState state, std::uint8_t conflict_reason)
    {
        block.parents = DrawParents();
        block.nonce = random.Next();
        BundleBlock out{EncodeBlock(block), state, conflict_reason};
        Remember(ComputeBlockId(out.bytes));
        return out;
    }

    BundleBlock TaggedDataBlock()
    {
        if (random.Chance(0.03))
            return MakeBlock(std::nullopt);
        TaggedDataPayload payload;
        if (random.Chance(0.9))
            payload.tag = DrawTag();
        payload.data = Text(20, 220);
        return MakeBlock(Payload{std::move(payload)});
    }

    // --- outputs -------------------------------------------------------------------------

    std::vector<Feature> DrawFeatures(const Address &sender, double sender_p, double metadata_p,
                                      double tag_p)
    {
        std::vector<Feature> features; // ascending type: sender 0, metadata 2, tag 3
        if (random.Chance(sender_p))
            features.emplace_back(SenderFeature{sender});
        if (random.Chance(metadata_p))
            features.emplace_back(MetadataFeature{Text(8, 64)});
        if (random.Chance(tag_p))
            features.emplace_back(TagFeature{DrawTag()});
        return features;
    }

    BasicOutput NewBasic(std::uint64_t amount, const Address &sender)
    {
        BasicOutput out;
        out.amount = amount;
        // Unlock conditions in ascending type: address 0, return 1, timelock 2, expiration 3.
        out.unlock_conditions.emplace_back(AddressUnlockCondition{DrawAddress()});
        if (random.Chance(0.08) && amount > 2 * kMinAmount)
            out.unlock_conditions.emplace_back(
                StorageDepositReturnUnlockCondition{sender, kMinAmount});
        if (random.Chance(0.04))
            out.unlock_conditions.emplace_back(TimelockUnlockCondition{
                timestamp + static_cast<std::uint32_t>(random.Between(60, 86400))});
        if (random.Chance(0.06))
            out.unlock_conditions.emplace_back(ExpirationUnlockCondition{
                sender, timestamp + static_cast<std::uint32_t>(random.Between(3600, 7 * 86400))});
        out.features = DrawFeatures(sender, 0.3, 0.15, 0.2);
        return out;
    }

    NftOutput NewNft(std::uint64_t amount, const Address &issuer)
    {
        NftOutput out;
        out.amount = amount;
        out.unlock_conditions.emplace_back(AddressUnlockCondition{DrawAddress()});
        out.features = DrawFeatures(issuer, 0.3, 0.2, 0.1);
        if (random.Chance(0.5))
            out.immutable_features.emplace_back(IssuerFeature{issuer});
        if (random.Chance(0.8))
        {
            std::string irc27 =
                "{\"standard\":\"IRC27\",\"version\":\"v1.0\",\"type\":\"image/png\","
                "\"uri\":\"ipfs://nft" +
                std::to_string(random.Below(1000000)) + "\",\"name\":\"#" +
                std::to_string(random.Below(10000)) + "\"}";
            out.immutable_features.emplace_back(MetadataFeature{Bytes(irc27.begin(), irc27.end())});
        }
        return out;
    }

    AliasOutput NewAlias(std::uint64_t amount, const Address &issuer)
    {
        AliasOutput out;
        out.amount = amount;
        out.state_metadata = Text(0, 32);
        Address controller = DrawAddress();
        out.unlock_conditions.emplace_back(StateControllerAddressUnlockCondition{controller});
        out.unlock_conditions.emplace_back(
            GovernorAddressUnlockCondition{random.Chance(0.7) ? controller : DrawAddress()});
        // Alias features: sender 0 and metadata 2 only.
        out.features = DrawFeatures(issuer, 0.2, 0.2, 0.0);
        if (random.Chance(0.3))
            out.immutable_features.emplace_back(IssuerFeature{issuer});
        if (random.Chance(0.3))
            out.immutable_features.emplace_back(MetadataFeature{Text(8, 48)});
        return out;
    }

    // --- transactions --------------------------------------------------------------------

    // Picks `count` distinct positions of the unspent set.
    std::vector<std::size_t> DrawInputs(std::size_t count)
    {
        std::vector<std::size_t> positions;
        for (std::size_t tries = 0; positions.size() < count && tries < 4 * count; ++tries)
        {
            std::size_t p = random.Below(unspent.size());
            if (std::find(positions.begin(), positions.end(), p) == positions.end())
                positions.push_back(p);
        }
        return positions;
    }

    std::optional<BundleBlock> TransactionBlock()
    {
        if (unspent.size() < 4)
            return std::nullopt;
        bool conflicting = !recently_spent.empty() && random.Chance(0.02);
        std::size_t count = 1 + (random.Chance(0.3) ? random.Below(3) : 0);
        std::vector<std::size_t> positions = DrawInputs(count);

        TransactionPayload payload;
        TransactionEssence &essence = payload.essence;
        essence.network_id = kShimmerNetworkId;
        essence.inputs_commitment = random.Array<32>();
        if (conflicting)
            essence.inputs.push_back(recently_spent[random.Below(recently_spent.size())]);

        Address sender;
        std::uint64_t free_amount = 0;                    // from basic inputs
        std::vector<std::vector<NativeToken>> token_sets; // carried over, one output each
        std::vector<Address> signers;
        for (std::size_t p : positions)
        {
            const Unspent &input = unspent[p];
            essence.inputs.push_back(input.id);
            std::visit(
                [&](const auto &o)
                {
                    using T = std::decay_t<decltype(o)>;
                    if constexpr (std::is_same_v<T, BasicOutput>)
                    {
                        free_amount += o.amount;
                        if (!o.native_tokens.empty())
                            token_sets.push_back(o.native_tokens);
                    }
                    else if constexpr (std::is_same_v<T, AliasOutput>)
                        ChainAlias(o, input.id, essence);
                    else if constexpr (std::is_same_v<T, NftOutput>)
                        ChainNft(o, input.id, essence);
                },
                input.output);
            const auto &conditions = UnlockConditionsOf(input.output);
            Address owner =
                std::visit([](const auto &c) { return AddressOf(c); }, conditions.front());
            if (signers.empty())
                sender = owner;
            signers.push_back(owner);
        }
        AddFreeOutputs(free_amount, token_sets, sender, essence);
        if (essence.outputs.empty() || essence.outputs.size() > limits::kMaxOutputs)
            return std::nullopt;
        if (random.Chance(0.25))
            essence.payload = TaggedDataPayload{DrawTag(), Text(8, 80)};

        // One signature per signer, references for its further inputs.
        if (conflicting)
            signers.insert(signers.begin(), sender);
        for (std::size_t i = 0; i < signers.size(); ++i)
        {
            auto first = std::find(signers.begin(), signers.begin() + i, signers[i]);
            if (first != signers.begin() + i)
                payload.unlocks.emplace_back(
                    ReferenceUnlock{static_cast<std::uint16_t>(first - signers.begin())});
            else
                payload.unlocks.emplace_back(
                    SignatureUnlock{Ed25519Signature{random.Array<32>(), random.Array<64>()}});
        }

        TransactionId id = ComputeTransactionId(payload);
        Block block;
        block.payload = Payload{std::move(payload)};
        // Sealed before Apply, which needs the block's ID; Apply draws no random numbers, so a
        // seed's ledger is what it was. Conflict reason 1: input already spent.
        BundleBlock out =
            Seal(block, conflicting ? InclusionState::kConflicting : InclusionState::kIncluded,
                 conflicting ? 1 : 0);
        if (!conflicting)
            Apply(std::get<TransactionPayload>(*block.payload), id, recent.back(), positions);
        return out;
    }

    template <typename C> static Address AddressOf(const C &condition)
    {
        if constexpr (std::is_same_v<C, TimelockUnlockCondition>)
            return Address{};
        else if constexpr (std::is_same_v<C, StorageDepositReturnUnlockCondition> ||
                           std::is_same_v<C, ExpirationUnlockCondition>)
            return condition.return_address;
        else
            return condition.address;
    }

    // The alias's next state; sometimes it also creates a foundry and mints native tokens.
    void ChainAlias(const AliasOutput &input, const OutputId &id, TransactionEssence &essence)
    {
        AliasOutput next = input;
        next.alias_id = ResolveAliasId(input, id);
        next.state_index++;
        next.state_metadata = Text(0, 32);
        bool foundry = random.Chance(0.3) && next.amount > 2 * kMinAmount;
        if (foundry)
        {
            next.foundry_counter++;
            FoundryOutput out;
            out.amount = kMinAmount;
            next.amount -= kMinAmount;
            out.serial_number = next.foundry_counter;
            std::uint64_t minted = random.Between(1000, 1'000'000'000);
            out.token_scheme.minted_tokens = U256From(minted);
            out.token_scheme.maximum_supply = U256From(minted * 10);
            out.unlock_conditions.emplace_back(
                ImmutableAliasAddressUnlockCondition{Address{AddressType::kAlias, next.alias_id}});
            if (random.Chance(0.2))
                out.features.emplace_back(MetadataFeature{Text(8, 48)});
            if (random.Chance(0.3))
                out.immutable_features.emplace_back(MetadataFeature{Text(8, 48)});
            minted_tokens.push_back(
                NativeToken{ComputeFoundryId(next.alias_id, out.serial_number), U256From(minted)});
            essence.outputs.emplace_back(std::move(next));
            essence.outputs.emplace_back(std::move(out));
            return;
        }
        essence.outputs.emplace_back(std::move(next));
    }

    // The NFT moves to a new owner.
    void ChainNft(const NftOutput &input, const OutputId &id, TransactionEssence &essence)
    {
        NftOutput next = input;
        next.nft_id = ResolveNftId(input, id);
        next.unlock_conditions = {AddressUnlockCondition{DrawAddress()}};
        essence.outputs.emplace_back(std::move(next));
    }

    // The basic inputs' amount: token-carrying outputs first, then new basic, NFT and alias
    // outputs.
    void AddFreeOutputs(std::uint64_t amount, std::vector<std::vector<NativeToken>> &token_sets,
                        const Address &sender, TransactionEssence &essence)
    {
        if (!minted_tokens.empty())
            token_sets.push_back(std::move(minted_tokens));
        minted_tokens.clear();
        std::size_t fresh = options.min_fresh_outputs +
                            random.Below(options.max_fresh_outputs - options.min_fresh_outputs + 1);
        while (fresh > 0 && amount < (token_sets.size() + fresh) * kMinAmount)
            --fresh;
        std::size_t parts = token_sets.size() + fresh;
        if (parts == 0 || amount < parts)
            return;
        std::vector<std::uint64_t> amounts = SplitAmount(random, amount, parts);
        for (std::size_t i = 0; i < parts; ++i)
        {
            if (i < token_sets.size())
            {
                BasicOutput out = NewBasic(amounts[i], sender);
                out.native_tokens = std::move(token_sets[i]);
                essence.outputs.emplace_back(std::move(out));
                continue;
            }
            double kind = random.Unit();
            if (kind < 0.05)
                essence.outputs.emplace_back(NewNft(amounts[i], sender));
            else if (kind < 0.08)
                essence.outputs.emplace_back(NewAlias(amounts[i], sender));
            else
                essence.outputs.emplace_back(NewBasic(amounts[i], sender));
        }
    }

    void Apply(const TransactionPayload &payload, const TransactionId &id, const BlockId &block_id,
               std::vector<std::size_t> positions)
    {
        if (node)
            for (std::size_t p : positions) // in the order of the inputs
                node->consumed.push_back(Consumed(unspent[p], id));
        // Remove spent inputs from the back so that positions stay valid.
        std::sort(positions.rbegin(), positions.rend());
        for (std::size_t p : positions)
        {
            recently_spent.push_back(unspent[p].id);
            if (recently_spent.size() > kRecentSpent)
                recently_spent.pop_front();
            unspent[p] = std::move(unspent.back());
            unspent.pop_back();
        }
        const auto &outputs = payload.essence.outputs;
        for (std::size_t i = 0; i < outputs.size(); ++i)
        {
            OutputId output_id{id, static_cast<std::uint16_t>(i)};
            if (node) // foundries too: they are booked, only never spent here
                node->created.push_back({output_id, block_id, EncodeOutput(outputs[i])});
            if (!std::holds_alternative<FoundryOutput>(outputs[i])) // foundries stay put
                unspent.push_back({output_id, outputs[i], block_id, index, timestamp});
        }
    }

    static ConsumedOutput Consumed(const Unspent &input, const TransactionId &spender)
    {
        return ConsumedOutput{{input.id, input.block_id, EncodeOutput(input.output)},
                              input.milestone_index,
                              input.milestone_timestamp,
                              spender};
    }

    static U256 U256From(std::uint64_t value)
    {
        U256 out{};
        for (int i = 0; i < 8; ++i)
            out[i] = static_cast<std::uint8_t>(value >> (8 * i));
        return out;
    }

    std::vector<NativeToken> minted_tokens; // by a foundry of the transaction being built

    // --- milestones ----------------------------------------------------------------------

    std::vector<SnapshotOutput> Genesis()
    {
        std::vector<SnapshotOutput> outputs;
        addresses.Grow(options.genesis_addresses);
        for (std::uint32_t i = 0; i < options.genesis_addresses; ++i)
        {
            BasicOutput basic;
            basic.amount = kGenesisAmount;
            basic.unlock_conditions.emplace_back(AddressUnlockCondition{AddressAt(i)});
            // Snapshot outputs carry a zero block ID, as in a node's genesis snapshot.
            OutputId id{DerivedId("genesis", options.seed, i / 100),
                        static_cast<std::uint16_t>(i % 100)};
            outputs.push_back({id, BlockId{}, EncodeOutput(Output{basic})});
            unspent.push_back({id, Output{basic}, BlockId{}, index, timestamp});
        }
        for (const ModelOutput &carried : options.carried)
            outputs.push_back(CarriedOutput(carried));
        return outputs;
    }

    // A Chrysalis output the genesis books again: the same ID, owner and amount, as a basic
    // output (IOTA's Stardust upgrade kept them so).
    SnapshotOutput CarriedOutput(const ModelOutput &carried)
    {
        BasicOutput basic;
        basic.amount = carried.amount;
        basic.unlock_conditions.emplace_back(
            AddressUnlockCondition{Address{AddressType::kEd25519, carried.owner_hash}});
        auto bytes = FromHexFixed<34>(carried.output_id);
        if (!bytes)
            throw std::invalid_argument("carried output ID " + carried.output_id);
        OutputId id;
        std::copy(bytes->begin(), bytes->begin() + 32, id.transaction_id.begin());
        id.index = static_cast<std::uint16_t>((*bytes)[32] | ((*bytes)[33] << 8));
        unspent.push_back({id, Output{basic}, BlockId{}, index, timestamp});
        return {id, BlockId{}, EncodeOutput(Output{basic})};
    }

    std::uint64_t CarriedSupply() const
    {
        std::uint64_t supply = 0;
        for (const ModelOutput &carried : options.carried)
            supply += carried.amount;
        return supply;
    }

    // Shimmer's parameters (the network ID the transactions carry is Shimmer's), with the
    // genesis as the whole token supply.
    Bytes ProtocolParametersBytes() const
    {
        ProtocolParameters parameters;
        parameters.version = limits::kProtocolVersion;
        parameters.network_name = "shimmer";
        parameters.bech32_hrp = "smr";
        parameters.min_pow_score = 1500;
        parameters.below_max_depth = 15;
        parameters.rent_structure = {100, 1, 10};
        parameters.token_supply = kGenesisAmount * options.genesis_addresses + CarriedSupply();
        return EncodeProtocolParameters(parameters);
    }

    // The milestone payload of the cone just generated, in a block for the next cone.
    void MakeMilestoneBlock(const std::vector<BundleBlock> &cone, std::uint32_t index)
    {
        MilestonePayload payload;
        MilestoneEssence &essence = payload.essence;
        essence.index = index;
        essence.timestamp = timestamp;
        essence.protocol_version = limits::kProtocolVersion;
        essence.previous_milestone_id = previous_milestone_id;
        for (std::size_t i = cone.size() - std::min<std::size_t>(cone.size(), 3); i < cone.size();
             ++i)
            essence.parents.push_back(ComputeBlockId(cone[i].bytes));
        std::sort(essence.parents.begin(), essence.parents.end());
        essence.parents.erase(std::unique(essence.parents.begin(), essence.parents.end()),
                              essence.parents.end());
        // TIP-4: the Merkle hashes of the cone's blocks and of its included transactions, in
        // white-flag order (the random draws they replaced stay, to keep the ledgers of a seed).
        std::vector<Hash32> referenced, applied;
        for (const BundleBlock &b : cone)
        {
            referenced.push_back(ComputeBlockId(b.bytes));
            if (b.inclusion_state == InclusionState::kIncluded)
                applied.push_back(referenced.back());
        }
        random.Array<32>();
        random.Array<32>();
        essence.inclusion_merkle_root = MerkleRoot(referenced);
        essence.applied_merkle_root = MerkleRoot(applied);
        for (int i = 0; i < 2; ++i)
            payload.signatures.push_back(Ed25519Signature{random.Array<32>(), random.Array<64>()});
        previous_milestone_id = ComputeMilestoneId(essence);
        if (node)
        {
            node->milestone_id = previous_milestone_id;
            ByteWriter writer(node->milestone);
            EncodeMilestone(writer, payload);
        }

        Block block;
        block.parents = essence.parents;
        block.payload = Payload{std::move(payload)};
        block.nonce = random.Next();
        milestone_block = EncodeBlock(block);
    }

    MilestoneBundle Next(NodeFields *fields)
    {
        MilestoneBundle bundle = EmptyBundle(options, produced, kMilestoneInterval);
        index = bundle.milestone_index;
        timestamp = bundle.milestone_timestamp;
        node = fields;
        if (node)
        {
            *node = NodeFields{};
            node->ledger_known = true;
        }
        if (produced == 0)
        {
            bundle.snapshot_outputs = Genesis();
            Remember(BlockId{}); // the genesis blocks' parent: the all-zero block ID
            if (node)
            {
                node->protocol_parameters = ProtocolParametersBytes();
                node->created = bundle.snapshot_outputs;
            }
        }
        std::uint32_t count = DrawConeSize(random, options);
        if (milestone_block)
        {
            Remember(ComputeBlockId(*milestone_block));
            bundle.blocks.push_back(
                {std::move(*milestone_block), InclusionState::kNoTransaction, 0});
            milestone_block.reset();
        }
        while (bundle.blocks.size() < std::max<std::uint32_t>(count, 1))
        {
            std::optional<BundleBlock> block;
            if (random.Chance(options.transaction_share))
                block = TransactionBlock();
            bundle.blocks.push_back(block ? std::move(*block) : TaggedDataBlock());
        }
        MakeMilestoneBlock(bundle.blocks, bundle.milestone_index);
        ++produced;
        node = nullptr;
        return bundle;
    }
};

LedgerGenerator::LedgerGenerator(const GeneratorOptions &options)
    : state_(std::make_unique<State>(options))
{
}

LedgerGenerator::~LedgerGenerator() = default;

std::vector<ModelOutput> LedgerGenerator::Model() const
{
    std::vector<ModelOutput> model;
    model.reserve(state_->unspent.size());
    for (const Unspent &u : state_->unspent)
    {
        ModelOutput out;
        out.output_id = ToHex(ToBytes(u.id));
        out.kind = std::holds_alternative<BasicOutput>(u.output)   ? "basic"
                   : std::holds_alternative<AliasOutput>(u.output) ? "alias"
                                                                   : "nft";
        // The generator's owner: the first unlock condition's address (address, or state
        // controller), always an Ed25519 address.
        out.owner_hash = std::visit([](const auto &c) { return State::AddressOf(c); },
                                    UnlockConditionsOf(u.output).front())
                             .id;
        out.amount = AmountOf(u.output);
        if (const auto *alias = std::get_if<AliasOutput>(&u.output))
            out.chain_id = ToHex(ResolveAliasId(*alias, u.id));
        else if (const auto *nft = std::get_if<NftOutput>(&u.output))
            out.chain_id = ToHex(ResolveNftId(*nft, u.id));
        model.push_back(std::move(out));
    }
    return model;
}

MilestoneBundle LedgerGenerator::Next(NodeFields *node_fields)
{
    return state_->Next(node_fields);
}

} // namespace permanode::cli
