/*
 * node_updates.hpp
 *	  The outputs a node says a milestone created and consumed (its ledger updates), checked
 *	  against what the milestone's cone derives, before anything is written: `permanode sync`
 *	  archives a milestone only where the node and the cone agree.
 */
#ifndef PERMANODE_LEDGER_NODE_UPDATES_HPP
#define PERMANODE_LEDGER_NODE_UPDATES_HPP

#include "codec/ids.hpp"
#include "ledger/derive.hpp"

#include <vector>

namespace permanode::ledger
{

struct NodeUpdates
{
    std::vector<codec::OutputIdBytes> created; // with the outputs booked from outside the cone
    std::vector<codec::OutputIdBytes> consumed;
};

// Throws a 22000 error naming the first difference (in output ID order) and how many there are.
void CheckNodeUpdates(const MilestoneRows &rows, NodeUpdates node);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_NODE_UPDATES_HPP */
