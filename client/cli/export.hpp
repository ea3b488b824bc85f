// `permanode export`: an address's history across eras (permanode.address_history) written as
// CSV or JSON lines, page by page, so that memory stays flat however long the history is.
#pragma once

#include <iosfwd>
#include <string>

#include "permanode/ledger_types.hpp"

namespace permanode::cli
{

struct ExportOptions
{
    std::string address; // bech32 of either era, or the hex of an Ed25519 address
    std::string format = "csv";
    client::MilestoneSpan span;
    int page_size = 1000;
};

// Writes the history to `out`; returns the entries written. Throws std::invalid_argument for an
// address that is none.
long ExportHistory(const std::string &dsn, const ExportOptions &options, std::ostream &out);

} // namespace permanode::cli
