// `permanode import-dmp`: legacy transactions from IRI's .dmp export into the legacy tables.
//
// Batches go to legacy.ingest() as binary t5b1 with the lines' hashes, each its own transaction,
// on one or more connections at once. The server computes every hash again (Curl-P-81, 64
// transactions at a time) and refuses a batch whose hash is not its line's: that is a FILE:LINE
// error. Transactions held already are skipped, so a file can be imported again, and a bundle
// whose transactions come in different batches or files is complete once the last one arrives.
#pragma once

#include "dmp_line.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace permanode::cli
{

// A bad input line: the message starts with FILE:LINE.
class DmpInputError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

struct SnapshotEntry
{
    std::string address; // 81 trytes
    std::int64_t balance = 0;
};

// IRI's Snapshot.txt: "ADDRESS;BALANCE" lines (DmpInputError names FILE:LINE).
std::vector<SnapshotEntry> ReadSnapshotFile(const std::string &path);

class DmpImporter
{
  public:
    // layout: "auto" (each transaction's layout told from its trits), "current" or "old"; jobs:
    // connections with a batch in flight each.
    DmpImporter(const std::string &dsn, std::string layout, std::size_t batch_size, int jobs = 1);
    ~DmpImporter();
    DmpImporter(const DmpImporter &) = delete;
    DmpImporter &operator=(const DmpImporter &) = delete;

    // The Coordinator's address (milestones are its bundles): set before the transactions.
    void SetCoordinator(const std::string &address);
    void LoadSnapshot(const std::vector<SnapshotEntry> &entries);

    // Queues one line (source names it in errors); a full batch is sent.
    void Add(DmpLine line, const std::string &file, std::size_t line_number);
    // Sends what is queued, waits for every batch, then rolls up the address counts of the
    // days the import added to (legacy.rollup_daily_analytics), so the explorer's overview
    // reads them from the rollup.
    void Finish();

    std::size_t Lines() const { return lines_; }
    std::size_t Imported() const { return imported_; }
    std::size_t DaysRolledUp() const { return days_rolled_up_; }

  private:
    struct Pending;
    struct Connection;
    struct Slot;
    void Flush();
    // Waits for the slot's batch: DmpInputError (FILE:LINE) for a hash that is not its line's,
    // client::Error for any other refusal.
    void Await(Slot &slot);

    std::string layout_;
    std::size_t batch_size_;
    std::size_t days_rolled_up_ = 0;
    std::unique_ptr<Pending> pending_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::size_t next_slot_ = 0;
    std::size_t lines_ = 0;
    std::size_t imported_ = 0;
};

struct DmpImportOptions
{
    std::vector<std::string> files; // "-": stdin
    std::string snapshot;
    std::string coordinator;
    std::string layout = "auto";
    std::size_t batch_size = 1000;
    int jobs = 2;
};

// Imports the files in order; returns an exit code (ExitCode) after printing any error.
int ImportDmpFiles(const std::string &dsn, const DmpImportOptions &options);

} // namespace permanode::cli
