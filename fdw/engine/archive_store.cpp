/*
 * archive_store.cpp
 *	  RocksDB options, read-only handle cache, SST writing and sealing of archive directories.
 */
#include "engine/archive_store.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <unordered_map>
#include <sstream>

#include <rocksdb/cache.h>
#include <rocksdb/env.h>
#include <rocksdb/metadata.h>
#include <rocksdb/table.h>

#include "engine/split_keys.hpp"
#include "engine/stored_with.hpp"
#include "engine/transient_files.hpp"

namespace permanode::fdw
{

namespace fs = std::filesystem;

namespace
{

/* Keeps RocksDB from writing LOG files: sealed directories are never written again. */
class NullLogger : public rocksdb::Logger
{
  public:
    using rocksdb::Logger::Logv;
    void Logv(const char *, va_list) override {}
};

/*
 * How many open archives a backend keeps at most. Their families hold no file descriptor
 * (transient_files.hpp) and their index blocks live in the block cache: what bounds them is
 * memory, ~7 KB an archive and ~20 KB a family read (measured). A request that reads many ranges
 * (a page by address over a long history) cycles through their archives, and an LRU cache smaller
 * than the cycle reopens each of them every time.
 */
constexpr size_t kHandleCacheSize = 512;

/*
 * RocksDB keeps max_open_files - 10 table files open (the rest of its count is for files it
 * opens for a moment, like the MANIFEST) and never less than 20 in all.
 */
constexpr int kRocksDbOtherFiles = 10;

/* Files a database being built holds besides its SSTs: LOCK, CURRENT, MANIFEST, WAL, IDENTITY,
 * OPTIONS and its directories. */
constexpr size_t kBuildOtherFiles = 8;

/*
 * This backend's open archives, most recently used first, found by directory, and the manifests
 * it has read. Never destroyed by static destructors (which would run after RocksDB's own):
 * CloseAllArchives empties them at exit.
 */
using HandleList = std::list<std::shared_ptr<ArchiveHandle>>;
HandleList &handle_cache = *new HandleList();
std::unordered_map<std::string, HandleList::iterator> &handle_index =
    *new std::unordered_map<std::string, HandleList::iterator>();
std::map<std::string, std::shared_ptr<Manifest>> &manifest_cache =
    *new std::map<std::string, std::shared_ptr<Manifest>>();

/* Caps the table files a database keeps open at the files it has. */
void LimitOpenFiles(rocksdb::Options *options, size_t files)
{
    options->max_open_files = static_cast<int>(files) + kRocksDbOtherFiles;
}

void SyncPath(const std::string &path, bool directory)
{
    int fd = open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0)
        throw StatusError(rocksdb::Status::IOError(path, strerror(errno)), "could not open");
    int rc = fsync(fd);
    close(fd);
    if (rc != 0)
        throw StatusError(rocksdb::Status::IOError(path, strerror(errno)), "could not fsync");
}

/* The status of a failed open, as corruption when the database lacks a family the manifest
 * records (RocksDB calls that an invalid argument). */
rocksdb::Status ExplainFailedOpen(const rocksdb::Status &status, const rocksdb::DBOptions &options,
                                  const std::string &path,
                                  const std::vector<rocksdb::ColumnFamilyDescriptor> &families)
{
    std::vector<std::string> names;
    if (!status.IsInvalidArgument() || !rocksdb::DB::ListColumnFamilies(options, path, &names).ok())
        return status;
    for (const auto &family : families)
        if (std::find(names.begin(), names.end(), family.name) == names.end())
            return rocksdb::Status::Corruption("its database has no family " + family.name);
    return status;
}

/* The name of a family's SST file in its database (the last, when it has several; empty when it
 * has none), and how many it has. */
std::string FamilyFile(rocksdb::DB *db, rocksdb::ColumnFamilyHandle *family,
                       size_t *files = nullptr)
{
    rocksdb::ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(family, &meta);
    std::string name;
    for (const auto &level : meta.levels)
        for (const auto &file : level.files)
            name = fs::path(file.name).filename().string();
    if (files != nullptr)
        *files = meta.file_count;
    return name;
}

/*
 * The file each family of an archive sealed before its manifest recorded them holds, learnt
 * from its database (opened once per backend, then closed): a family holds one file exactly
 * when its manifest records entries, or the database is corrupt (a MANIFEST that lost its last
 * records opens as it was before some families' files were ingested).
 */
void LearnFamilyFiles(const std::string &dir, Manifest *m)
{
    std::vector<ManifestFamily *> recorded{&m->rows};
    for (auto &index : m->indexes)
        recorded.push_back(&index);
    ManifestFamily dictionary;
    dictionary.cf = kDictionaryFamily;
    dictionary.entries = m->dictionary_entries;
    if (HasDictionary(*m))
        recorded.push_back(&dictionary);

    rocksdb::Options options = ArchiveDbOptions();
    LimitOpenFiles(&options, recorded.size());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    families.emplace_back(rocksdb::kDefaultColumnFamilyName, options);
    for (const ManifestFamily *f : recorded)
        families.emplace_back(f->cf, options);
    FileReservation reservation(recorded.size());
    std::string db_dir = (fs::path(dir) / kDbSubdir).string();
    std::vector<rocksdb::ColumnFamilyHandle *> handles;
    rocksdb::DB *raw = nullptr;
    rocksdb::Status status;
    {
        SignalBlocker blocker;
        status = rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(options), db_dir, families,
                                              &handles, &raw);
    }
    CheckStatus(ExplainFailedOpen(status, rocksdb::DBOptions(options), db_dir, families),
                "could not open archive " + dir);
    std::unique_ptr<rocksdb::DB> db(raw);
    std::string problem;
    for (size_t i = 0; i < recorded.size(); i++)
    {
        ManifestFamily &f = *recorded[i];
        size_t files = 0;
        f.file = FamilyFile(db.get(), handles[i + 1], &files);
        if (files != (f.entries > 0 ? 1u : 0u) && problem.empty())
            problem = "family " + f.cf + " holds " + std::to_string(files) +
                      " files, its manifest records " + std::to_string(f.entries) + " entries";
    }
    for (auto *h : handles)
        db->DestroyColumnFamilyHandle(h);
    db->Close();
    if (!problem.empty())
        throw StatusError(rocksdb::Status::Corruption(problem),
                          "archive " + dir + " does not match its manifest");
    if (HasDictionary(*m))
        m->dictionary_file = dictionary.file;
}

} // namespace

void CheckStatus(const rocksdb::Status &status, const std::string &what)
{
    if (!status.ok())
        throw StatusError(status, what);
}

SignalBlocker::SignalBlocker()
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved_);
}

SignalBlocker::~SignalBlocker()
{
    pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

rocksdb::Options ArchiveDbOptions(size_t block_size)
{
    /* shared by every archive of the backend; deliberately never destroyed. Four shards of
     * 32 MB, not RocksDB's default of 64 shards of 2 MB: a block larger than its shard is never
     * kept, and the index block of a family of a few hundred MB is (a range of 10,000 Stardust
     * milestones, a legacy archive of months), which every lookup then read and decompressed
     * again (4 ms a lookup in a 3.7 GB family, the capacity run). The backend reads from one
     * thread, or three in a scan: four shards do not contend. */
    static auto &block_cache =
        *new std::shared_ptr<rocksdb::Cache>(rocksdb::NewLRUCache(128 << 20, 2));
    static auto &null_logger =
        *new std::shared_ptr<rocksdb::Logger>(std::make_shared<NullLogger>());
    rocksdb::BlockBasedTableOptions table;
    table.block_size = block_size;
    table.block_cache = block_cache;
    table.format_version = 5;
    /* a reader's index blocks live in the block cache, which bounds them, rather than beside
     * each of the hundreds of families a backend keeps open */
    table.cache_index_and_filter_blocks = true;
    rocksdb::Options options;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    options.compression = rocksdb::kZSTD;
    options.bottommost_compression = rocksdb::kZSTD;
    options.info_log = null_logger;
    options.disable_auto_compactions = true;
    LimitOpenFiles(&options, 0);
    options.paranoid_checks = true;
    /* Opening loads the families' table readers with this many threads, which RocksDB starts
     * anew for each family at every open (15 a family by default): a backend's first read of an
     * archive paid for starting ~45 threads. An archive's few files load faster in place. */
    options.max_file_opening_threads = 1;
    options.table_properties_collector_factories.push_back(SplitKeyCollectorFactory());
    return options;
}

ArchiveHandle::ArchiveHandle(std::string dir_, std::shared_ptr<Manifest> manifest_)
    : dir(std::move(dir_)), shared_manifest(std::move(manifest_)), manifest(*shared_manifest)
{
}

ArchiveFamily::ArchiveFamily(std::string path, uint64_t entries, std::string dir, std::string name,
                             std::optional<std::string> dictionary_columns)
    : path_(std::move(path)), entries_(entries), dir_(std::move(dir)), name_(std::move(name)),
      dictionary_columns_(std::move(dictionary_columns))
{
    if (path_.empty() && entries_ > 0)
        throw StatusError(rocksdb::Status::Corruption("family " + name_ +
                                                      " has no file, its manifest records " +
                                                      std::to_string(entries_) + " entries"),
                          "archive " + dir_ + " does not match its manifest");
}

rocksdb::SstFileReader *ArchiveFamily::Reader() const
{
    if (reader_ || path_.empty())
        return reader_.get();
    /* built once: every family of every archive reads with them */
    static const auto &options = *new rocksdb::Options(
        []
        {
            rocksdb::Options o = ArchiveDbOptions();
            o.env = TransientFilesEnv(); /* holds no descriptor while cached */
            return o;
        }());
    auto reader = std::make_unique<rocksdb::SstFileReader>(options);
    rocksdb::Status status = reader->Open(path_);
    std::error_code ec;
    if (!status.ok() && !IsOutOfFiles(status) && !fs::exists(path_, ec))
        status = rocksdb::Status::Corruption("the file " + fs::path(path_).filename().string() +
                                             " of family " + name_ + " is missing");
    CheckStatus(status, "could not open archive " + dir_);
    uint64_t held = reader->GetTableProperties()->num_entries;
    if (held != entries_)
        throw StatusError(rocksdb::Status::Corruption(
                              "family " + name_ + " holds " + std::to_string(held) +
                              " entries, its manifest records " + std::to_string(entries_)),
                          "archive " + dir_ + " does not match its manifest");
    CheckDictionaryColumns(*reader->GetTableProperties());
    reader_ = std::move(reader);
    return reader_.get();
}

void ArchiveFamily::CheckDictionaryColumns(const rocksdb::TableProperties &properties) const
{
    std::optional<std::string> recorded = RecordedDictionaryColumns(properties);
    if (!dictionary_columns_ || !recorded || *recorded == *dictionary_columns_)
        return;
    auto text = [](const std::string &columns) { return columns.empty() ? "none" : columns; };
    throw StatusError(rocksdb::Status::Corruption("its rows hold columns " + text(*recorded) +
                                                  " in dictionary form, its manifest records " +
                                                  text(*dictionary_columns_)),
                      "archive " + dir_ + " does not match its manifest");
}

rocksdb::Iterator *ArchiveFamily::NewIterator(const rocksdb::ReadOptions &options) const
{
    rocksdb::SstFileReader *reader = Reader();
    return reader ? reader->NewIterator(options) : rocksdb::NewEmptyIterator();
}

rocksdb::Status ArchiveFamily::VerifyChecksum() const
{
    rocksdb::SstFileReader *reader = Reader();
    return reader ? reader->VerifyChecksum() : rocksdb::Status::OK();
}

std::shared_ptr<const rocksdb::TableProperties> ArchiveFamily::Properties() const
{
    rocksdb::SstFileReader *reader = Reader();
    return reader ? reader->GetTableProperties() : nullptr;
}

bool FamilyLookup::Find(std::string_view key, std::string_view *value)
{
    if (!iter_)
    {
        rocksdb::ReadOptions options;
        options.verify_checksums = true;
        iter_.reset(family_.NewIterator(options));
    }
    rocksdb::Slice target(key.data(), key.size());
    iter_->Seek(target);
    if (!iter_->Valid())
    {
        CheckStatus(iter_->status(), "could not read archive " + dir_);
        return false;
    }
    if (iter_->key() != target)
        return false;
    *value = std::string_view(iter_->value().data(), iter_->value().size());
    return true;
}

bool IsSealed(const std::string &dir)
{
    std::error_code ec;
    return fs::is_regular_file(fs::path(dir) / kManifestFile, ec);
}

std::shared_ptr<Manifest> ArchiveManifest(const std::string &dir)
{
    auto found = manifest_cache.find(dir);
    if (found != manifest_cache.end())
        return found->second;
    if (!IsSealed(dir))
        throw StatusError(rocksdb::Status::NotFound(dir, "no sealed archive (manifest missing)"),
                          "could not open archive");
    auto manifest = std::make_shared<Manifest>(
        ManifestFromJson(ReadWholeFile((fs::path(dir) / kManifestFile).string())));
    manifest_cache.emplace(dir, manifest);
    return manifest;
}

bool FilesFit(size_t files)
{
    return FilesHeld() + files <= FileCapacity();
}

std::shared_ptr<ArchiveHandle> OpenArchive(const std::string &dir)
{
    auto found = handle_index.find(dir);
    if (found != handle_index.end())
    {
        handle_cache.splice(handle_cache.begin(), handle_cache, found->second);
        return handle_cache.front();
    }

    auto handle = std::make_shared<ArchiveHandle>(dir, ArchiveManifest(dir));
    Manifest &m = handle->manifest;
    if (!RecordsFamilyFiles(m))
        LearnFamilyFiles(dir, &m);
    fs::path db_dir = fs::path(dir) / kDbSubdir;
    auto path = [&](const std::string &file)
    { return file.empty() ? std::string() : (db_dir / file).string(); };
    handle->rows =
        ArchiveFamily(path(m.rows.file), m.rows.entries, dir, kRowsFamily, DictionaryColumnsOf(m));
    for (const ManifestFamily &index : m.indexes)
        handle->indexes.emplace_back(path(index.file), index.entries, dir, index.cf);
    if (HasDictionary(m))
        handle->dictionary =
            ArchiveFamily(path(m.dictionary_file), m.dictionary_entries, dir, kDictionaryFamily);

    handle_cache.push_front(handle);
    handle_index[dir] = handle_cache.begin();
    if (handle_cache.size() > kHandleCacheSize)
    {
        handle_index.erase(handle_cache.back()->dir);
        handle_cache.pop_back();
    }
    return handle;
}

void CloseAllArchives()
{
    handle_index.clear();
    handle_cache.clear();
    manifest_cache.clear();
}

size_t CachedArchives()
{
    return handle_cache.size();
}

void ForgetArchive(const std::string &dir)
{
    auto found = handle_index.find(dir);
    if (found != handle_index.end())
    {
        handle_cache.erase(found->second);
        handle_index.erase(found);
    }
    manifest_cache.erase(dir);
}

std::vector<std::string>
BuildArchiveDb(const std::string &db_dir,
               const std::vector<std::pair<std::string, std::string>> &families)
{
    FileReservation reservation(families.size() + kBuildOtherFiles);
    rocksdb::Options options = ArchiveDbOptions();
    LimitOpenFiles(&options, families.size());
    options.create_if_missing = true;
    options.error_if_exists = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, options);
    for (const auto &f : families)
        descriptors.emplace_back(f.first, options);
    options.create_missing_column_families = true;

    SignalBlocker blocker;
    rocksdb::DB *raw = nullptr;
    std::vector<rocksdb::ColumnFamilyHandle *> handles;
    CheckStatus(rocksdb::DB::Open(rocksdb::DBOptions(options), db_dir, descriptors, &handles, &raw),
                "could not create archive database " + db_dir);
    std::unique_ptr<rocksdb::DB> db(raw);
    rocksdb::Status status;
    for (size_t i = 0; i < families.size() && status.ok(); i++)
    {
        if (families[i].second.empty())
            continue;
        rocksdb::IngestExternalFileOptions ingest;
        ingest.move_files = true;
        status = db->IngestExternalFile(handles[i + 1], {families[i].second}, ingest);
    }
    if (status.ok())
        status = db->FlushWAL(true);
    std::vector<std::string> names(families.size());
    for (size_t i = 0; i < families.size() && status.ok(); i++)
        names[i] = FamilyFile(db.get(), handles[i + 1]);
    for (auto *h : handles)
        db->DestroyColumnFamilyHandle(h);
    rocksdb::Status close_status = db->Close();
    CheckStatus(status, "could not ingest into archive database " + db_dir);
    CheckStatus(close_status, "could not close archive database " + db_dir);
    return names;
}

void SealArchive(const std::string &dir, const std::string &manifest_json)
{
    SyncTree(dir);
    std::string tmp = (fs::path(dir) / (std::string(kManifestFile) + ".tmp")).string();
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << manifest_json;
        out.close();
        if (!out)
            throw StatusError(rocksdb::Status::IOError(tmp, "write failed"),
                              "could not write manifest");
    }
    SyncPath(tmp, false);
    /* sealed files are never written again: make them read-only */
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec))
    {
        std::error_code perm_ec;
        if (it->is_regular_file(perm_ec))
            fs::permissions(it->path(), fs::perms::owner_read, fs::perm_options::replace, perm_ec);
    }
    fs::rename(tmp, fs::path(dir) / kManifestFile, ec);
    if (ec)
        throw StatusError(rocksdb::Status::IOError(tmp, ec.message()), "could not seal archive");
    SyncPath(dir, true);
}

std::string ReadWholeFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw StatusError(rocksdb::Status::IOError(path, "cannot open"), "could not read");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

uint64_t DirectoryBytes(const std::string &dir)
{
    uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec))
        if (it->is_regular_file(ec))
            total += it->file_size(ec);
    return total;
}

void SyncTree(const std::string &dir)
{
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec))
        SyncPath(it->path().string(), it->is_directory(ec));
    SyncPath(dir, true);
}

} // namespace permanode::fdw
