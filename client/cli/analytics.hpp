// `permanode analytics --fill FROM TO`: measures the milestones ingest left unmeasured
// (permanode.measure_milestones), in milestone order, a batch per transaction, so that Ctrl-C
// stops after the batch in flight and a later run resumes where it stopped.
#pragma once

#include <iosfwd>
#include <string>

namespace permanode::cli
{

struct FillOptions
{
    int from = 0;
    int to = 0;
    int batch = 500; // milestones per transaction
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

} // namespace permanode::cli
