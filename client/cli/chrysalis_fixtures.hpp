// The real Chrysalis messages of ../shared/fixtures/chrysalis (chrysalis_messages.json) as
// milestone bundles: the fixture is a flat list of messages from several networks, so this
// assembles the two testnet7 milestones they can form. Milestone 16241 holds the TIP-13
// milestone message (16241, in its own cone as in Chrysalis) after a message without payload,
// an indexation and three value transactions; 16242 holds the transaction that spends output 12
// of one of them. Neither is the whole cone its milestone commits to (TIP-4): each says
// "partial_cone". The pg_regress test chrysalis_ledger assembles the same cones in SQL.
#pragma once

#include "bundle.hpp"

#include <string>
#include <vector>

namespace permanode::cli
{

// Reads chrysalis_messages.json; throws std::runtime_error naming a message it lacks.
std::vector<MilestoneBundle> ChrysalisFixtureBundles(const std::string &messages_json);

} // namespace permanode::cli
