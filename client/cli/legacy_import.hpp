// `permanode import-dmp`: legacy transactions from IRI's .dmp export into the legacy tables.
//
// Each line's hash is computed again here (Curl-P-81, 64 transactions at a time) and must be the
// line's: a mismatch is a FILE:LINE error before anything of its batch is sent. Batches go to
// legacy.ingest() as binary t5b1 (the server decodes and hashes them again), each its own
// transaction, the next batch read and hashed while the server writes the last. Transactions
// held already are skipped, so a file can be imported again, and a bundle whose transactions
// come in different batches or files is complete once the last one arrives.
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
    // layout: "auto" (each transaction's layout told from its trits), "current" or "old".
    DmpImporter(const std::string &dsn, std::string layout, std::size_t batch_size);
    ~DmpImporter();
    DmpImporter(const DmpImporter &) = delete;
    DmpImporter &operator=(const DmpImporter &) = delete;

    // The Coordinator's address (milestones are its bundles): set before the transactions.
    void SetCoordinator(const std::string &address);
    void LoadSnapshot(const std::vector<SnapshotEntry> &entries);

    // Queues one line (source names it in errors); a full batch is checked and sent.
    void Add(DmpLine line, const std::string &file, std::size_t line_number);
    // Sends what is queued and waits for every batch.
    void Finish();

    std::size_t Lines() const { return lines_; }
    std::size_t Imported() const { return imported_; }

  private:
    struct Pending;
    struct Connection;
    void Flush();
    void Await();

    std::unique_ptr<Connection> connection_;
    std::string layout_;
    std::size_t batch_size_;
    std::unique_ptr<Pending> pending_;
    bool in_flight_ = false;
    std::string in_flight_source_;
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
};

// Imports the files in order; returns an exit code (ExitCode) after printing any error.
int ImportDmpFiles(const std::string &dsn, const DmpImportOptions &options);

} // namespace permanode::cli
