// What a permanode reads from the node it follows (`permanode sync`): the node's status, each
// confirmed milestone with its cone, and the node's own ledger updates and unspent outputs.
// Node is the interface; InxNode (inx_node.hpp) implements it over INX.
#pragma once

#include "codec/types.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::sync
{

struct NodeStatus
{
    std::uint8_t protocol_version = 2; // of the milestones it serves: 2 Stardust, 1 Chrysalis
    bool healthy = false;
    std::uint32_t confirmed_index = 0;     // 0: no confirmed milestone yet
    std::uint32_t confirmed_timestamp = 0; // unix seconds
    std::uint32_t pruning_index = 0;       // milestones up to this one are gone
    std::uint32_t ledger_index = 0;        // the milestone the node's UTXO set is at
    std::string network_name;              // from the protocol parameters in force
    std::string bech32_hrp;
    std::vector<std::uint8_t> protocol_parameters; // in force, serialized (TIP-32); INX only
};

// A milestone the node announced as confirmed.
struct Confirmation
{
    std::uint32_t index = 0;
    std::uint32_t timestamp = 0; // unix seconds
};

// A block of a cone with its ledger metadata (TIP-25).
struct ConeBlock
{
    codec::Bytes bytes;
    std::uint8_t inclusion_state = 0; // 0 no transaction, 1 included, 2 conflicting
    std::uint8_t conflict_reason = 0;
};

// An output as the node books it.
struct LedgerOutput
{
    codec::OutputId output_id;
    codec::BlockId block_id{};
    codec::Bytes output;
    std::uint32_t booked_index = 0;
    std::uint32_t booked_timestamp = 0;
};

struct LedgerSpent
{
    LedgerOutput output;
    codec::TransactionId spent_by{};
    std::uint32_t spent_index = 0;
    std::uint32_t spent_timestamp = 0;
};

// What the node's ledger changed at one milestone.
struct LedgerUpdates
{
    std::vector<LedgerOutput> created;
    std::vector<LedgerSpent> consumed;
};

// One confirmed milestone, everything the archive needs of it.
struct NodeMilestone
{
    std::uint8_t protocol_version = 2; // 2 Stardust blocks, 1 Chrysalis messages
    std::uint32_t index = 0;
    std::uint32_t timestamp = 0;
    codec::MilestoneId milestone_id{};
    codec::Bytes payload;          // Stardust: the milestone payload, from its u32 type on
    std::vector<ConeBlock> blocks; // the cone, in white-flag order (Chrysalis: its own last)
    // created: every output booked, with its bytes where the node gives them (INX) or where the
    // cone does not create it (REST); consumed: by ID, with the rest where the node gives it
    LedgerUpdates updates;
};

// A failure of the node or the connection to it.
class NodeError : public std::runtime_error
{
  public:
    enum class Kind
    {
        kUnavailable, // gone or overloaded: try again later
        kNotFound,    // the node does not have it (pruned, or not confirmed yet)
        kProtocol,    // the node answered something we cannot use
    };
    NodeError(Kind kind, const std::string &what) : std::runtime_error(what), kind_(kind) {}
    Kind kind() const { return kind_; }

  private:
    Kind kind_;
};

class Node
{
  public:
    virtual ~Node() = default;
    // Where the node is.
    virtual NodeStatus Status() = 0;
    // Confirmed milestone `index` with its cone and ledger updates.
    virtual NodeMilestone Milestone(std::uint32_t index) = 0;
    // Says that Milestone(index) will be asked for next: a node may send its requests now, so
    // that the answers are waiting in whole when they are read. Default: nothing.
    virtual void Prefetch(std::uint32_t /*index*/) {}
    // How many threads fetch milestones at once.
    virtual int FetchThreads() const { return 4; }
    // The node's ledger updates of milestones [from, to].
    virtual std::vector<LedgerUpdates> Updates(std::uint32_t from, std::uint32_t to) = 0;
    // Every output unspent at the node's ledger index, which it returns in *ledger_index.
    virtual std::vector<LedgerOutput> UnspentOutputs(std::uint32_t *ledger_index) = 0;
    // Waits up to timeout_ms for the node to confirm a milestone after `after`; returns the
    // confirmed index then (possibly still `after`).
    virtual std::uint32_t WaitForConfirmation(std::uint32_t after, int timeout_ms) = 0;
    // Where the node is, as said to people ("INX localhost:9029").
    virtual std::string Name() const = 0;
    // Whether UnspentOutputs and Updates work, so that an empty archive may start after the
    // node's first milestone with the ledger before it (INX yes; a REST API has no such call).
    virtual bool ReadsLedger() const { return true; }
    // The newest confirmation heard while waiting for them ({} before the first).
    virtual Confirmation LastConfirmation() const { return {}; }
    // How often the connection that brings confirmations was made again after it broke.
    virtual std::uint64_t Reconnects() const { return 0; }
};

} // namespace permanode::sync
