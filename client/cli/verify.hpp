// `permanode verify`: permanode.verify() over the ledger's ranges, then legacy.verify() over the
// legacy era's months (sql/permanode/code/86_verify.sql), one range or month per call so that
// memory stays one range's; prints each mismatch and a summary.
#pragma once

#include <optional>

#include <pqxx/pqxx>

namespace permanode::cli
{

struct VerifyOptions
{
    std::optional<int> from_range, to_range; // of the ledger (default: every range held)
    bool legacy = true;                      // the legacy era's months too, if held
};

// The number of mismatches found (each printed on stdout: table, range, key, problem).
long Verify(pqxx::connection &conn, const VerifyOptions &options);

} // namespace permanode::cli
