/*
 * archive_store.hpp
 *	  The RocksDB side of an archive directory: options shared by writer and reader, the
 *	  per-backend cache of read-only handles, SST writing and sealing. Free of PostgreSQL headers;
 *	  nothing here runs PostgreSQL code, and only ArchiveDbOptions is also called from helper
 *	  threads (it is thread-safe).
 *
 *	  Directory layout (immutable once sealed):
 *	    <dir>/db/                    a RocksDB database, column families "rows", "i1".."iN" and
 *	                                 "dict" (if any), every file ingested from SstFileWriter output;
 *	                                 readers open each family's one file directly
 *	    <dir>/permanode_manifest.json  written last, atomically: its presence seals the archive
 */
#ifndef PERMANODE_FDW_ENGINE_ARCHIVE_STORE_HPP
#define PERMANODE_FDW_ENGINE_ARCHIVE_STORE_HPP

#include <csignal>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/status.h>

#include "engine/file_budget.hpp"
#include "engine/manifest.hpp"

namespace permanode::fdw
{

/* A failed RocksDB call; rocksdb_status.cpp maps it to a SQLSTATE. */
class StatusError : public std::runtime_error
{
  public:
    StatusError(rocksdb::Status status, const std::string &what)
        : std::runtime_error(what + ": " + status.ToString()), status_(std::move(status))
    {
    }
    const rocksdb::Status &status() const { return status_; }

  private:
    rocksdb::Status status_;
};

/* Throws StatusError unless status is ok. */
void CheckStatus(const rocksdb::Status &status, const std::string &what);

/*
 * Blocks every signal for its lifetime: threads RocksDB starts inherit the mask, so that
 * PostgreSQL's signals only ever reach the backend's own thread.
 */
class SignalBlocker
{
  public:
    SignalBlocker();
    ~SignalBlocker();
    SignalBlocker(const SignalBlocker &) = delete;
    SignalBlocker &operator=(const SignalBlocker &) = delete;

  private:
    sigset_t saved_;
};

/*
 * Data blocks of the rows family: larger, since full scans read every block (fewer, cheaper
 * decompressions) while a point lookup reads one.
 */
inline constexpr size_t kRowsBlockSize = 32 * 1024;
/* Data blocks of the index families: a first page of an index reads only a few entries. */
inline constexpr size_t kIndexBlockSize = 16 * 1024;

/*
 * Options of every archive column family: zstd, the shared block cache; block_size matters only
 * when writing (readers take it from the file).
 */
rocksdb::Options ArchiveDbOptions(size_t block_size = kIndexBlockSize);

/* The sealed archive's manifest, parsed once per backend and shared by its handles. */
std::shared_ptr<Manifest> ArchiveManifest(const std::string &dir);

/*
 * One family of a sealed archive: its one SST file, read directly with SstFileReader (no
 * database to recover, no column families to set up: a fraction of a database's open and close),
 * opened when first read (a point lookup reads two of an archive's families). A family without
 * entries has no file and reads as empty.
 */
class ArchiveFamily
{
  public:
    ArchiveFamily() = default;
    /*
     * The family `name` of the archive in dir, in file (a path; empty for a family without
     * entries) holding `entries` entries. Throws StatusError (corruption) for a family with
     * entries and no file; reading throws it when the file does not hold as many, or (the rows
     * family) when it records other dictionary columns than `dictionary_columns`.
     */
    ArchiveFamily(std::string path, uint64_t entries, std::string dir, std::string name,
                  std::optional<std::string> dictionary_columns = std::nullopt);
    const std::string &path() const { return path_; }
    /* An iterator over the family (empty for an empty family); the family must outlive it. */
    rocksdb::Iterator *NewIterator(const rocksdb::ReadOptions &options) const;
    /* Every block read and its checksum checked. */
    rocksdb::Status VerifyChecksum() const;
    /* The file's properties (null for an empty family). */
    std::shared_ptr<const rocksdb::TableProperties> Properties() const;

  private:
    /* The open reader, opened now if need be; null for a family without entries. */
    rocksdb::SstFileReader *Reader() const;
    /* Throws when the file records other dictionary columns than the manifest. */
    void CheckDictionaryColumns(const rocksdb::TableProperties &properties) const;

    std::string path_;
    uint64_t entries_ = 0;
    std::string dir_;
    std::string name_;
    std::optional<std::string> dictionary_columns_;
    mutable std::unique_ptr<rocksdb::SstFileReader> reader_;
};

/*
 * Finds one key in a family, reusing one iterator from find to find. The value stays valid
 * until the next Find.
 */
class FamilyLookup
{
  public:
    /* dir names the archive in errors */
    FamilyLookup(const ArchiveFamily &family, const std::string &dir) : family_(family), dir_(dir)
    {
    }
    /* Whether key is there; throws StatusError when reading fails. */
    bool Find(std::string_view key, std::string_view *value);

  private:
    const ArchiveFamily &family_;
    std::string dir_;
    std::unique_ptr<rocksdb::Iterator> iter_;
};

/* An open, sealed, read-only archive. */
struct ArchiveHandle
{
    ArchiveHandle(std::string dir, std::shared_ptr<Manifest> manifest);
    std::string dir;
    std::shared_ptr<Manifest> shared_manifest; /* ArchiveManifest(dir) */
    Manifest &manifest;                        /* *shared_manifest */
    ArchiveFamily rows;
    std::vector<ArchiveFamily> indexes; /* parallel to manifest.indexes */
    ArchiveFamily dictionary;           /* "dict", empty unless HasDictionary */
};

/*
 * Opens (or finds in this backend's cache) the sealed archive in dir. The cache keeps the 512
 * most recently used archives; they hold no file descriptor (ArchiveFamily).
 */
std::shared_ptr<ArchiveHandle> OpenArchive(const std::string &dir);

/* Whether `files` more fit in the file budget beside those reserved now. */
bool FilesFit(size_t files);

/* Drops dir from the cache, manifest included (after an error, or when it is removed). */
void ForgetArchive(const std::string &dir);

/* Closes every cached archive (at backend exit, before static destructors run). */
void CloseAllArchives();

/* Archives open in this backend's cache. */
size_t CachedArchives();

/* True when dir holds a sealed archive (its manifest exists). */
bool IsSealed(const std::string &dir);

/*
 * Creates the database in db_dir with the given column families and ingests each one's SST
 * (cf name, file; an empty file name for an empty family), then closes it. Returns the name of
 * each family's file in db_dir (empty for an empty family), for the manifest.
 */
std::vector<std::string>
BuildArchiveDb(const std::string &db_dir,
               const std::vector<std::pair<std::string, std::string>> &families);

/* Writes the manifest atomically (temporary file, fsync, rename, fsync of dir): seals dir. */
void SealArchive(const std::string &dir, const std::string &manifest_json);

/* Reads a whole small file. */
std::string ReadWholeFile(const std::string &path);

/* Bytes of every regular file under dir. */
uint64_t DirectoryBytes(const std::string &dir);

/* fsyncs every file under dir and dir itself. */
void SyncTree(const std::string &dir);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_ARCHIVE_STORE_HPP */
