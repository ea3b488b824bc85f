// Derivation of one milestone's ledger rows from its raw blocks: decodes every block of the cone
// once and lays out what ingest writes (messages, parents, tags, transaction parts, milestones,
// created and consumed outputs). Free of PostgreSQL, so the CLI can reuse it.
#pragma once

#include "codec/ledger.hpp"
#include "codec/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::ledger
{

// The protocol versions a cone may be in: Chrysalis messages or Stardust blocks.
constexpr std::uint8_t kChrysalisProtocol = 1;
constexpr std::uint8_t kStardustProtocol = 2;

// Ledger inclusion state codes, as stored in the inclusion_state columns.
enum class InclusionState : std::uint8_t
{
    kNoTransaction = 0,
    kIncluded = 1,
    kConflicting = 2,
};

// Input that ingest rejects. kMalformed: bytes that do not decode (SQLSTATE 22P02);
// kInvalid: arguments that contradict each other (SQLSTATE 22023).
class InputError : public std::runtime_error
{
  public:
    enum class Kind
    {
        kMalformed,
        kInvalid,
    };
    InputError(Kind kind, const std::string &message, std::string detail = {},
               std::optional<std::size_t> block = std::nullopt)
        : std::runtime_error(message), kind_(kind), detail_(std::move(detail)), block_(block)
    {
    }
    Kind GetKind() const noexcept { return kind_; }
    const std::string &Detail() const noexcept { return detail_; }
    // The position in the cone of the block at fault, when one is.
    std::optional<std::size_t> Block() const noexcept { return block_; }

  private:
    Kind kind_;
    std::string detail_;
    std::optional<std::size_t> block_;
};

// One block of the cone with its metadata; the bytes stay owned by the caller.
struct BlockInput
{
    codec::ByteSpan bytes;
    std::uint8_t inclusion_state = 0;
    std::uint8_t conflict_reason = 0;
};

// An output booked at the milestone from outside its cone (genesis or snapshot).
struct SnapshotInput
{
    codec::OutputId output_id;
    codec::BlockId block_id{};
    codec::ByteSpan bytes;
};

struct MessageRow
{
    codec::BlockId block_id{};
    std::uint8_t protocol_version = 0;
    codec::ByteSpan raw; // the block bytes, as given
    std::uint8_t inclusion_state = 0;
    std::uint8_t conflict_reason = 0;
    std::uint32_t white_flag_index = 0;
    const char *variant = nullptr; // payload kind; nullptr when the block has no payload
    std::vector<codec::BlockId> parents;
    std::optional<codec::Bytes> tag; // non-empty tagged-data tag (block or transaction payload)
};

// One input, output or unlock of a transaction payload (a row of `transactions`).
struct TransactionPartRow
{
    codec::TransactionId transaction_id{};
    std::uint16_t idx = 0;
    const char *variant = ""; // input, output, unlock
    std::size_t message = 0;  // index into MilestoneRows::messages
    codec::Bytes data;        // the serialized input, output or unlock
};

// A milestone payload found in the cone. A milestone's own block is issued after the milestone
// and so is referenced by the next one: the cone of milestone N carries the payload of N-1.
struct MilestoneRow
{
    std::size_t message = 0; // the block carrying the payload
    std::uint32_t index = 0;
    std::uint32_t timestamp = 0;
    codec::MilestoneId milestone_id{};
    codec::ByteSpan payload; // the serialized milestone payload, type included
};

// A receipt entry's output and the legacy bundle tail transaction it names (49 t5b1 bytes).
struct MigrationRow
{
    codec::OutputId output_id{};
    std::array<std::uint8_t, 49> tail_transaction_hash{};
};

// A Chrysalis milestone's receipt (TIP-17), booked by the milestone that carries it, and its
// entries.
struct ReceiptRow
{
    std::uint32_t milestone_index = 0;
    std::uint32_t migrated_at = 0;
    bool final = false;
    std::vector<MigrationRow> migrations;
};

// An output booked at this milestone: created by an included transaction or from a snapshot.
struct OutputRow
{
    codec::OutputId output_id;
    codec::BlockId block_id{};
    codec::Output output;
    codec::IndexedFields fields;
    codec::Bytes data; // the serialized output
    bool from_snapshot = false;
    // A Chrysalis SigLocked output (type 0 single, 1 dust allowance), stored in legacy_outputs;
    // `output` is then unused, and `fields` holds its kind (basic), address and amount.
    std::optional<std::uint8_t> chrysalis_type;
};

// An output consumed by an included transaction.
struct SpendRow
{
    codec::OutputId output_id;
    codec::TransactionId transaction_id{};
    codec::BlockId block_id{};
};

struct MilestoneRows
{
    std::uint8_t protocol_version = kStardustProtocol;
    std::uint32_t milestone_index = 0;
    std::uint32_t timestamp = 0; // unix seconds, from the milestone essence
    std::vector<MessageRow> messages;
    std::vector<TransactionPartRow> transaction_parts;
    std::vector<codec::TransactionId> transaction_ids; // every transaction payload (repeats too)
    std::vector<MilestoneRow> milestones;
    std::vector<ReceiptRow> receipts;
    std::vector<OutputRow> outputs;
    std::vector<SpendRow> spends;
    std::size_t included_transactions = 0;
    std::uint64_t transferred_tokens = 0; // sum of outputs created by included transactions
};

// Decodes the cone (blocks in white-flag order) and the snapshot outputs of `milestone_index`,
// whose essence has the unix time `timestamp`. Throws InputError when a block does not decode,
// when its metadata contradicts its payload, or when it carries the payload of a later milestone
// (or of this one with another timestamp).
MilestoneRows DeriveMilestone(std::uint32_t milestone_index, std::uint32_t timestamp,
                              const std::vector<BlockInput> &blocks,
                              const std::vector<SnapshotInput> &snapshot_outputs);

// The same for a cone of Chrysalis messages (protocol v1), whose milestone message is in its
// own milestone's cone, and whose snapshot outputs are SigLocked outputs.
MilestoneRows DeriveChrysalisMilestone(std::uint32_t milestone_index, std::uint32_t timestamp,
                                       const std::vector<BlockInput> &blocks,
                                       const std::vector<SnapshotInput> &snapshot_outputs);

// The frame both eras share: the milestone's rows with its snapshot outputs to come, and a
// block's row with what every block has (its payload's parts are the era's to add).
MilestoneRows NewMilestoneRows(std::uint8_t protocol_version, std::uint32_t milestone_index,
                               std::uint32_t timestamp, std::size_t blocks);
MessageRow NewMessageRow(const BlockInput &input, std::size_t index, const codec::BlockId &id,
                         std::uint8_t protocol_version, const char *variant,
                         std::vector<codec::BlockId> parents);
// A block that does not decode (as what `as` names, if anything), at `index` in the cone.
[[noreturn]] void ThrowUndecodable(std::size_t index, std::uint32_t milestone_index,
                                   const std::string &as, const std::string &error);

// Checks shared by both eras. "block I of the cone of milestone N", for messages.
std::string Position(std::size_t index, std::uint32_t milestone_index);
// The metadata against the payload: only transactions are included or conflicting.
void CheckInclusionState(const BlockInput &input, bool is_transaction, std::size_t index,
                         std::uint32_t milestone_index);
// A cone references only earlier milestones (Chrysalis: and its own); its own payload, if
// present, must agree with the milestone's timestamp.
void CheckMilestone(std::uint32_t essence_index, std::uint64_t essence_timestamp,
                    const MilestoneRows &rows, std::size_t index);

// The serialized forms stored in `transactions.data`.
codec::Bytes EncodeInput(const codec::OutputId &input);
codec::Bytes EncodeUnlock(const codec::Unlock &unlock);

// Decodes one serialized output of a kind a transaction may create; rejects trailing bytes.
codec::Output DecodeOneOutput(codec::ByteSpan bytes);

} // namespace permanode::ledger
