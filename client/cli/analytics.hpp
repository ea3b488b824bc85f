// Measurements (permanode.measure_milestones): `permanode analytics --fill FROM TO` measures a
// range in milestone order, a batch per transaction, so that Ctrl-C stops after the batch in
// flight and a later run resumes where it stopped; ingest and sync measure what they committed.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

namespace permanode::cli
{

struct FillOptions
{
    int from = 0;
    int to = 0;
    int batch = 500; // milestones per transaction
    // stop after the batch that passes it (sync measures between milestones)
    std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct FillSummary
{
    long measured = 0;
    int last_measured = -1; // -1: none
    int blocked_at = -1;    // the first milestone whose predecessor is neither measured nor held
    long active_address_rows = 0;
    bool interrupted = false;
};

// Fills the range; `out` gets a line per batch. Then rolls up the active addresses of the days
// the measured milestones cover.
FillSummary FillMeasurements(const std::string &dsn, const FillOptions &options, std::ostream &out);

// After an ingest run: measures the milestones from..to it left unmeasured and rolls up their
// days, when the login may (permanode_writer or permanode_admin); prints one line of what it did.
void MeasureIngested(const std::string &dsn, int from, int to);

// Protocol parameters (TIP-32 bytes) in force from a milestone on, as bundles or a node gave them.
struct ParametersChange
{
    std::uint32_t milestone_index = 0;
    std::vector<std::uint8_t> params;
};

// Records the changes (permanode.record_protocol_parameters: those equal to the ones in force
// are left out), in milestone order, when the login may; returns how many it recorded.
int RecordProtocolParameters(const std::string &dsn, std::vector<ParametersChange> changes);

// Sync's measurements: after each call, every milestone committed up to `committed` is measured
// (or the chain waits for one before the sync's first, said once). A day's active addresses
// (and its week's and month's) are rolled up once a later day is measured, and at Finish.
class MeasureFollower
{
  public:
    MeasureFollower(const std::string &dsn, std::uint32_t first);
    // Measures up to `committed`, within `budget` (a batch may pass it).
    void CatchUp(std::uint32_t committed, std::chrono::milliseconds budget);
    // Rolls up the days measured since the last roll-up, the current one included.
    void Finish();

  private:
    void RollUp(bool with_current_day);

    std::optional<pqxx::connection> conn_; // empty: the login may not measure
    int next_;                             // the first milestone not known to be measured
    int rolled_from_;                      // the first milestone whose day is not rolled up
    bool waiting_ = false;                 // the chain waits for a milestone before the sync's
};

} // namespace permanode::cli
