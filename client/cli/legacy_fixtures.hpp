// The real legacy transactions of ../shared/fixtures/legacy (*.json, see its SOURCES.md) as .dmp
// lines: each file's `transactions` (hash and 2673 trytes), once each. The test network's
// milestone bundles (hornet-migrator-validator_test.json: index 1, 2, 3 in the obsolete tag of
// the Coordinator GLPBYF...) are confirmed by themselves, and that file's migration bundles by
// milestone 3; every other transaction's milestone is not known (0), as the files do not say.
#pragma once

#include "dmp_line.hpp"

#include <string>
#include <vector>

namespace permanode::cli
{

// The test network's Coordinator in the fixtures.
extern const char *const kFixtureCoordinator;

// Reads every *.json of the directory, in name order.
std::vector<DmpLine> LegacyFixtureLines(const std::string &directory);

} // namespace permanode::cli
