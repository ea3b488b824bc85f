// `permanode generate --protocol chrysalis` as ingest will read it, without a database: the same
// seed gives the same bytes; every message decodes with our codec and is named by its hash; a
// line is one milestone's cone in white-flag order with that milestone's own message last; the
// ledger it describes holds together (every spent output exists and is spent once, amounts
// balance, dust is backed by dust allowances as TIP-15 wants, receipts pay from the treasury).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "codec/chrysalis/message.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "run_cli.hpp"

namespace
{

namespace v1 = permanode::codec::chrysalis;
using permanode::codec::Bytes;
using permanode::codec::Hash32;
using permanode::codec::OutputIdBytes;
using permanode::test::RunCli;

constexpr std::uint64_t kMainnetNetworkId = 1454675179895816119ull;
constexpr std::uint64_t kMi = 1'000'000;
constexpr std::uint32_t kStartIndex = 500;
constexpr std::uint32_t kStartTimestamp = 1620000000;

std::filesystem::path TempPath(const std::string &name)
{
    return std::filesystem::temp_directory_path() /
           fmt::format("permanode-{}-{}.ndjson", name, ::getpid());
}

std::string ReadFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs generate --protocol chrysalis with `args` into a file and returns its text.
std::string Generate(const std::string &args)
{
    std::filesystem::path path = TempPath("chrysalis");
    auto r = RunCli(fmt::format("generate --protocol chrysalis {} -o '{}'", args, path.string()));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::string text = ReadFile(path);
    std::filesystem::remove(path);
    return text;
}

std::vector<nlohmann::json> Lines(const std::string &text)
{
    std::vector<nlohmann::json> lines;
    std::size_t start = 0;
    while (start < text.size())
    {
        std::size_t end = text.find('\n', start);
        lines.push_back(nlohmann::json::parse(text.substr(start, end - start)));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

Bytes HexBytes(const nlohmann::json &value)
{
    auto bytes = permanode::codec::FromHex(value.get<std::string>());
    EXPECT_TRUE(bytes) << value;
    return bytes ? *bytes : Bytes{};
}

// Whether the bytes are UTF-8 (lead and continuation bytes; overlong forms not checked).
bool ValidUtf8(const Bytes &bytes)
{
    for (std::size_t i = 0; i < bytes.size();)
    {
        std::uint8_t lead = bytes[i];
        std::size_t extra = lead < 0x80             ? 0
                            : (lead & 0xe0) == 0xc0 ? 1
                            : (lead & 0xf0) == 0xe0 ? 2
                            : (lead & 0xf8) == 0xf0 ? 3
                                                    : 4;
        if (extra == 4 || i + extra >= bytes.size() + (extra == 0))
            return false;
        for (std::size_t k = 1; k <= extra; ++k)
            if ((bytes[i + k] & 0xc0) != 0x80)
                return false;
        i += 1 + extra;
    }
    return true;
}

struct Unspent
{
    v1::Ed25519Address address;
    std::uint64_t amount = 0;
    bool allowance = false;
};

// TIP-15 state of one address.
struct Dust
{
    std::uint64_t allowance = 0;
    std::uint64_t outputs = 0;
    bool Covered() const { return outputs <= std::min<std::uint64_t>(allowance / 100'000, 100); }
};

// Replays a generated ledger line by line, failing the test at the first rule it breaks.
class LedgerReplay
{
  public:
    std::size_t messages = 0, transactions = 0, conflicting = 0, reference_unlocks = 0,
                essence_payloads = 0, dust_outputs = 0, allowances = 0, receipts = 0,
                utf8_indexes = 0, binary_indexes = 0, spent = 0;

    void Line(const nlohmann::json &line, std::size_t position)
    {
        SCOPED_TRACE(fmt::format("line {}", position + 1));
        ASSERT_EQ(line.at("protocol_version"), 1);
        std::uint32_t index = line.at("milestone_index");
        std::uint32_t timestamp = line.at("milestone_timestamp");
        EXPECT_EQ(index, kStartIndex + position);
        EXPECT_EQ(timestamp, kStartTimestamp + 10 * position); // a milestone every 10 s
        if (position == 0)
            BookSnapshot(line.at("snapshot_outputs"));
        else
            EXPECT_FALSE(line.contains("snapshot_outputs") && !line.at("snapshot_outputs").empty());

        const nlohmann::json &blocks = line.at("blocks");
        ASSERT_FALSE(blocks.empty());
        std::map<Hash32, std::vector<Hash32>> cone; // message -> parents, of this line
        for (std::size_t i = 0; i < blocks.size(); ++i)
        {
            SCOPED_TRACE(fmt::format("message {}", i));
            Bytes bytes = HexBytes(blocks[i].at("block"));
            v1::Message message;
            try
            {
                message = v1::DecodeMessage(bytes);
            }
            catch (const permanode::codec::DecodeError &error)
            {
                FAIL() << "does not decode: " << error.what();
            }
            EXPECT_EQ(v1::EncodeMessage(message), bytes);
            EXPECT_EQ(message.network_id, kMainnetNetworkId);
            v1::MessageId id = v1::ComputeMessageId(bytes);
            ASSERT_TRUE(seen_.insert(id).second) << "message ID repeats";
            ASSERT_TRUE(std::is_sorted(message.parents.begin(), message.parents.end()));
            for (const v1::MessageId &parent : message.parents)
                ASSERT_TRUE(parent == v1::MessageId{} || (seen_.count(parent) && parent != id))
                    << "a parent that is not an earlier message";
            cone[id] = message.parents;
            ++messages;

            const v1::Payload *payload = message.payload ? &*message.payload : nullptr;
            const auto *milestone = payload ? std::get_if<v1::MilestonePayload>(payload) : nullptr;
            ASSERT_EQ(milestone != nullptr, i + 1 == blocks.size())
                << "the milestone's own message, and only it, comes last";
            std::string state = blocks[i].at("inclusion_state");
            const auto *transaction =
                payload ? std::get_if<v1::TransactionPayload>(payload) : nullptr;
            if (transaction)
            {
                ASSERT_TRUE(state == "included" || state == "conflicting") << state;
                Transaction(*transaction, state == "conflicting",
                            blocks[i].value("conflict_reason", 0));
            }
            else
                EXPECT_EQ(state, "no_transaction");
            if (const auto *indexation =
                    payload ? std::get_if<v1::IndexationPayload>(payload) : nullptr)
                CountIndex(indexation->index);
            if (milestone)
            {
                EXPECT_EQ(milestone->essence.index, index);
                EXPECT_EQ(milestone->essence.timestamp, timestamp);
                EXPECT_EQ(milestone->essence.parents, message.parents);
                ExpectWholeCone(cone, id);
                if (milestone->essence.receipt)
                    Receipt(*milestone->essence.receipt, milestone->essence);
            }
        }
    }

  private:
    void BookSnapshot(const nlohmann::json &outputs)
    {
        ASSERT_FALSE(outputs.empty());
        std::uint64_t total = 0;
        for (const nlohmann::json &output : outputs)
        {
            EXPECT_EQ(HexBytes(output.at("block_id")), Bytes(32, 0));
            Bytes id = HexBytes(output.at("output_id"));
            ASSERT_EQ(id.size(), 34u);
            v1::Output decoded = v1::DecodeTransactionOutputBytes(HexBytes(output.at("output")));
            const auto &single = std::get<v1::SigLockedSingleOutput>(decoded);
            OutputIdBytes key;
            std::copy(id.begin(), id.end(), key.begin());
            ASSERT_TRUE(unspent_.emplace(key, Unspent{single.address, single.amount}).second);
            total += single.amount;
        }
        ASSERT_LE(total, v1::limits::kTotalSupply);
        treasury_ = v1::limits::kTotalSupply - total; // what is not booked waits in the treasury
    }

    void Transaction(const v1::TransactionPayload &payload, bool is_conflicting, int reason)
    {
        ++transactions;
        const v1::TransactionEssence &essence = payload.essence;
        if (is_conflicting)
        {
            // A double spend of an output spent before: nothing of it is booked.
            ++conflicting;
            EXPECT_EQ(reason, 1);
            for (const v1::Input &input : essence.inputs)
            {
                const auto &utxo = std::get<v1::UtxoInput>(input);
                EXPECT_TRUE(spent_.count(v1::ComputeOutputId(utxo.transaction_id, utxo.index)));
            }
            return;
        }
        EXPECT_EQ(reason, 0);
        essence_payloads += essence.payload.has_value();
        std::uint64_t in = 0, out = 0;
        std::set<Hash32> touched;
        for (const v1::Input &input : essence.inputs)
        {
            const auto &utxo = std::get<v1::UtxoInput>(input);
            OutputIdBytes key = v1::ComputeOutputId(utxo.transaction_id, utxo.index);
            auto it = unspent_.find(key);
            ASSERT_NE(it, unspent_.end())
                << "spends an output that is not unspent: " << permanode::codec::ToHex(key)
                << (spent_.count(key) ? " (spent before)" : "");
            in += it->second.amount;
            Dust &dust = dust_[it->second.address.hash];
            if (it->second.allowance)
                dust.allowance -= it->second.amount;
            else if (it->second.amount < kMi)
                dust.outputs--;
            touched.insert(it->second.address.hash);
            spent_.insert(key);
            unspent_.erase(it);
            ++spent;
        }
        for (const v1::Unlock &unlock : payload.unlocks)
            reference_unlocks += std::holds_alternative<v1::ReferenceUnlock>(unlock);
        permanode::codec::TransactionId id = v1::ComputeTransactionId(payload);
        for (std::size_t i = 0; i < essence.outputs.size(); ++i)
        {
            Unspent created;
            if (const auto *allowance =
                    std::get_if<v1::SigLockedDustAllowanceOutput>(&essence.outputs[i]))
            {
                created = {allowance->address, allowance->amount, true};
                dust_[created.address.hash].allowance += created.amount;
                ++allowances;
            }
            else
            {
                const auto &single = std::get<v1::SigLockedSingleOutput>(essence.outputs[i]);
                created = {single.address, single.amount, false};
                if (created.amount < kMi)
                {
                    dust_[created.address.hash].outputs++;
                    ++dust_outputs;
                }
            }
            touched.insert(created.address.hash);
            out += created.amount;
            unspent_[v1::ComputeOutputId(id, static_cast<std::uint16_t>(i))] = created;
        }
        EXPECT_EQ(in, out) << "a transaction spends exactly what it creates";
        for (const Hash32 &address : touched)
            EXPECT_TRUE(dust_[address].Covered())
                << "dust outputs without enough dust allowance on "
                << v1::AddressToBech32(v1::Ed25519Address{address}, "iota");
    }

    void Receipt(const v1::ReceiptPayload &receipt, const v1::MilestoneEssence &essence)
    {
        ++receipts;
        std::uint64_t migrated = 0;
        for (const v1::MigratedFundsEntry &entry : receipt.funds)
            migrated += entry.deposit;
        EXPECT_EQ(receipt.transaction.input.milestone_id, treasury_milestone_);
        EXPECT_EQ(receipt.transaction.output.amount + migrated, treasury_);
        EXPECT_GE(receipt.migrated_at, migrated_at_);
        migrated_at_ = receipt.migrated_at;
        treasury_ = receipt.transaction.output.amount;
        treasury_milestone_ = v1::ComputeMilestoneId(essence);
    }

    // Every message of the line is in the milestone's past cone, through parents in the line.
    void ExpectWholeCone(const std::map<Hash32, std::vector<Hash32>> &cone,
                         const v1::MessageId &milestone)
    {
        std::set<Hash32> reached{milestone};
        std::vector<Hash32> stack{milestone};
        while (!stack.empty())
        {
            Hash32 id = stack.back();
            stack.pop_back();
            for (const Hash32 &parent : cone.at(id))
                if (cone.count(parent) && reached.insert(parent).second)
                    stack.push_back(parent);
        }
        EXPECT_EQ(reached.size(), cone.size()) << "messages outside the milestone's cone";
    }

    void CountIndex(const Bytes &index)
    {
        bool ascii =
            std::all_of(index.begin(), index.end(), [](std::uint8_t c) { return c < 0x80; });
        if (!ascii && ValidUtf8(index))
            ++utf8_indexes;
        else if (!ascii)
            ++binary_indexes;
    }

    std::set<v1::MessageId> seen_;
    std::map<OutputIdBytes, Unspent> unspent_;
    std::set<OutputIdBytes> spent_;
    std::map<Hash32, Dust> dust_;
    std::uint64_t treasury_ = 0;
    permanode::codec::MilestoneId treasury_milestone_{}; // the genesis treasury: all zero
    std::uint32_t migrated_at_ = 0;
};

std::string LedgerArgs(std::uint64_t seed)
{
    return fmt::format("--milestones 60 --start-index {} --start-timestamp {} "
                       "--blocks-per-milestone 60-140 --tx-share 0.3 --seed {}",
                       kStartIndex, kStartTimestamp, seed);
}

} // namespace

TEST(CliGenerateChrysalisTest, SameSeedSameBytesOtherSeedOtherBytes)
{
    std::string first = Generate(LedgerArgs(21));
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(Generate(LedgerArgs(21)), first);
    EXPECT_NE(Generate(LedgerArgs(22)), first);
}

TEST(CliGenerateChrysalisTest, LedgerHoldsTogether)
{
    std::vector<nlohmann::json> lines = Lines(Generate(LedgerArgs(21)));
    ASSERT_EQ(lines.size(), 60u);
    LedgerReplay replay;
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        replay.Line(lines[i], i);
        if (::testing::Test::HasFatalFailure())
            return;
    }
    // The ledger has each feature the generator promises.
    EXPECT_GT(replay.transactions, replay.messages / 5);
    EXPECT_GT(replay.conflicting, 0u);
    EXPECT_GT(replay.spent, replay.transactions - replay.conflicting); // some consolidations
    EXPECT_GT(replay.reference_unlocks, 0u);
    EXPECT_GT(replay.essence_payloads, 0u);
    EXPECT_GT(replay.dust_outputs, 0u);
    EXPECT_GT(replay.allowances, 0u);
    EXPECT_GT(replay.receipts, 0u);
    EXPECT_GT(replay.utf8_indexes, 0u);
    EXPECT_GT(replay.binary_indexes, 0u);
}

TEST(CliGenerateChrysalisTest, DefaultsAreMay2021Mainnet)
{
    std::vector<nlohmann::json> lines = Lines(Generate("--milestones 3 --seed 2"));
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].at("milestone_index"), 1);
    EXPECT_EQ(lines[0].at("milestone_timestamp"), 1619827200); // 2021-05-01T00:00:00Z
    EXPECT_EQ(lines[2].at("milestone_timestamp"), 1619827220);
    for (const nlohmann::json &line : lines)
    {
        EXPECT_GE(line.at("blocks").size(), 150u);
        EXPECT_LE(line.at("blocks").size(), 350u);
    }
}

TEST(CliGenerateChrysalisTest, UnknownProtocolIsUsageError)
{
    EXPECT_EQ(RunCli("generate --protocol pollen --milestones 1").exit_code, 2);
}
