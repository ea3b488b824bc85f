// Where following a node starts: after the archive's newest milestone of the node's era, at
// --from, or on an empty archive at the oldest milestone the node still has; and, when an empty
// archive starts after the start of the ledger, the outputs alive just before it, which the
// node's ledger gives (INX; a REST API has no such call, and the milestones before stay a gap).
#pragma once

#include "sync/node.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::sync
{

// What the archive holds that decides the start.
struct ArchiveState
{
    std::optional<std::uint32_t> newest; // the newest milestone held of the node's era
    bool empty = true;                   // no milestone of any era held
    std::string bech32_hrp;              // of the archive's network
    std::string network_name;            // of the nodes it followed (empty: none yet)
};

struct StartPoint
{
    std::uint32_t start = 0;
    // The ledger just before `start` (outputs created before it and not consumed before it), to
    // book at `start`: empty when the archive already holds the milestones before it or `start`
    // begins the ledger.
    std::vector<LedgerOutput> outputs_before;
};

// Why following the node cannot start; the message says what to do.
class StartError : public std::runtime_error
{
  public:
    enum class Kind
    {
        kPruned,          // the node no longer has milestones the archive needs
        kBehind,          // the node is behind the archive
        kNetworkMismatch, // the node follows another network
    };
    StartError(Kind kind, const std::string &what) : std::runtime_error(what), kind_(kind) {}
    Kind kind() const { return kind_; }

  private:
    Kind kind_;
};

// Throws StartError when the node follows another network than the archive.
void CheckNetwork(const Node &node, const NodeStatus &status, const ArchiveState &archive);

// Chooses the start (throws StartError): --from where given (not below the node's oldest),
// else after the archive's newest, else the node's oldest. Reads the node's ledger when the
// outputs before the start are needed.
StartPoint ChooseStart(Node &node, const NodeStatus &status, const ArchiveState &archive,
                       std::optional<std::uint32_t> from);

// The outputs alive before milestone `start`: the node's unspent outputs at its ledger index,
// less those created from `start` on, plus those consumed from `start` on that were created
// before it (each as the node's ledger updates carry it).
std::vector<LedgerOutput> OutputsBefore(Node &node, std::uint32_t start);

} // namespace permanode::sync
