/*
 * archive_wal.cpp
 *	  Archives travel through the WAL. A custom resource manager logs a sealed archive's files
 *	  (in chunks), then its seal (the manifest), and archive_gc's list of the archives that stay;
 *	  its redo writes the same files on a standby, in crash recovery and in point-in-time
 *	  recovery. The catalog swap commits after these records, so whoever replays the WAL has a
 *	  sealed archive before the foreign table that names it. See DESIGN.md, "Replicas and backups".
 */
extern "C"
{
#include "postgres.h"

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
}

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "archive_wal.hpp"
#include "permanode_fdw.hpp"

namespace fs = std::filesystem;

namespace permanode::fdw
{

namespace
{

/*
 * Custom resource manager IDs are 128..255 (RM_EXPERIMENTAL_ID is 128, for development only);
 * this one is not taken by any extension listed on the PostgreSQL wiki's registry. It is part of
 * the WAL format: never change it.
 */
constexpr RmgrId kArchiveRmgrId = 174;

/* Record kinds (the info byte's high bits). */
constexpr uint8 kFileChunk = 0x00; /* bytes of one file at an offset */
constexpr uint8 kSeal = 0x10;      /* the manifest: the archive is whole */
constexpr uint8 kKeep = 0x20;      /* archive_gc: the database's archives that stay */

/* Files go into the WAL in pieces of this size. */
constexpr size_t kChunkBytes = 1024 * 1024;

/* Every record: this header, then name, path and data bytes. */
struct RecordHeader
{
    Oid dbid;
    uint32 name_len; /* the archive directory's name (empty for kKeep) */
    uint32 path_len; /* the file's path inside it (kFileChunk only) */
    uint32 data_len;
    uint64 offset;
};

struct Record
{
    RecordHeader header;
    std::string_view name, path, data;
};

bool registered = false;

std::string RootOf(Oid dbid)
{
    const char *root =
        archive_root_setting && *archive_root_setting ? archive_root_setting : "permanode_archive";
    return std::string(root) + "/" + std::to_string(dbid);
}

Record Parse(XLogReaderState *state)
{
    Record r;
    const char *data = XLogRecGetData(state);
    size_t len = XLogRecGetDataLen(state);
    if (len < sizeof(RecordHeader))
        throw pg::PgError(ERRCODE_DATA_CORRUPTED, "permanode_fdw WAL record is too short");
    memcpy(&r.header, data, sizeof(RecordHeader));
    const RecordHeader &h = r.header;
    if (sizeof(RecordHeader) + size_t(h.name_len) + h.path_len + h.data_len != len)
        throw pg::PgError(ERRCODE_DATA_CORRUPTED, "permanode_fdw WAL record has a wrong length");
    const char *p = data + sizeof(RecordHeader);
    r.name = std::string_view(p, h.name_len);
    r.path = std::string_view(p + h.name_len, h.path_len);
    r.data = std::string_view(p + h.name_len + h.path_len, h.data_len);
    return r;
}

/* Inserts a record; returns its end. */
XLogRecPtr Insert(uint8 info, const RecordHeader &header, std::string_view name,
                  std::string_view path, std::string_view data)
{
    return pg::CallPg(
        [&]
        {
            XLogBeginInsert();
            XLogRegisterData((char *)&header, sizeof(header));
            for (std::string_view piece : {name, path, data})
                if (!piece.empty())
                    XLogRegisterData(const_cast<char *>(piece.data()), piece.size());
            return XLogInsert(kArchiveRmgrId, info);
        });
}

/*
 * Flushes the WAL up to end. The records carry no transaction ID, so no commit flushes them:
 * archive_gc's would otherwise wait for the WAL writer, and a file's chunks are flushed as it is
 * done, so that standbys follow an archive as it is logged.
 */
void Flush(XLogRecPtr end)
{
    pg::CallPg([&] { XLogFlush(end); });
}

/* Closes a file descriptor on every way out. */
struct FileCloser
{
    int fd;
    ~FileCloser() { close(fd); }
};

[[noreturn]] void ThrowIo(const std::string &what, const std::string &path)
{
    throw StatusError(rocksdb::Status::IOError(path, strerror(errno)), what);
}

/* Writes and fsyncs one chunk; a new file's directory entry is fsynced too. */
void RedoFileChunk(const std::string &dir, const Record &r)
{
    fs::path file = fs::path(dir) / std::string(r.path);
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec)
        throw StatusError(rocksdb::Status::IOError(file.parent_path().string(), ec.message()),
                          "could not create archive directory");
    int fd = open(file.c_str(), O_WRONLY | O_CREAT, 0600);
    if (fd < 0)
        ThrowIo("could not open archive file", file.string());
    FileCloser closer{fd};
    size_t done = 0;
    while (done < r.data.size())
    {
        ssize_t n = pwrite(fd, r.data.data() + done, r.data.size() - done,
                           static_cast<off_t>(r.header.offset + done));
        if (n < 0)
            ThrowIo("could not write archive file", file.string());
        done += static_cast<size_t>(n);
    }
    if (fsync(fd) != 0)
        ThrowIo("could not fsync archive file", file.string());
    if (r.header.offset == 0)
    {
        int dfd = open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
        if (dfd < 0)
            ThrowIo("could not open archive directory", file.parent_path().string());
        FileCloser dir_closer{dfd};
        if (fsync(dfd) != 0)
            ThrowIo("could not fsync archive directory", file.parent_path().string());
    }
}

/* Removes the database's archive directories that the record does not name. */
void RedoKeep(const Record &r)
{
    std::set<std::string> keep;
    size_t start = 0;
    while (start < r.data.size())
    {
        size_t end = r.data.find('\n', start);
        if (end == std::string_view::npos)
            end = r.data.size();
        keep.emplace(r.data.substr(start, end - start));
        start = end + 1;
    }
    std::error_code ec;
    for (auto it = fs::directory_iterator(RootOf(r.header.dbid), ec); !ec && it != fs::end(it);
         it.increment(ec))
    {
        if (keep.count(it->path().filename().string()) != 0)
            continue;
        ForgetArchive(it->path().string());
        std::error_code rm;
        fs::remove_all(it->path(), rm);
        if (rm)
            throw StatusError(rocksdb::Status::IOError(it->path().string(), rm.message()),
                              "could not remove archive directory");
    }
}

void ArchiveRedo(XLogReaderState *state)
{
    uint8 info = XLogRecGetInfo(state) & ~XLR_INFO_MASK;
    GuardedArchive("archive replay",
                   [&]() -> Datum
                   {
                       Record r = Parse(state);
                       std::string dir = RootOf(r.header.dbid) + "/" + std::string(r.name);
                       switch (info)
                       {
                           case kFileChunk:
                               /* replayed again after a crash: a sealed archive is already whole */
                               if (!IsSealed(dir))
                               {
                                   pg::CallPg([] { CrashPoint("redo_chunk"); });
                                   RedoFileChunk(dir, r);
                               }
                               break;
                           case kSeal:
                               if (!IsSealed(dir))
                               {
                                   pg::CallPg([] { CrashPoint("redo_seal"); });
                                   SealArchive(dir, std::string(r.data));
                               }
                               break;
                           case kKeep:
                               RedoKeep(r);
                               break;
                           default:
                               throw pg::PgError(ERRCODE_DATA_CORRUPTED,
                                                 "unknown permanode_fdw WAL record kind");
                       }
                       return (Datum)0;
                   });
}

const char *ArchiveIdentify(uint8 info)
{
    switch (info & ~XLR_INFO_MASK)
    {
        case kFileChunk:
            return "FILE_CHUNK";
        case kSeal:
            return "SEAL";
        case kKeep:
            return "KEEP";
    }
    return nullptr;
}

void ArchiveDesc(StringInfo buf, XLogReaderState *state)
{
    const char *data = XLogRecGetData(state);
    RecordHeader h;
    if (XLogRecGetDataLen(state) < sizeof(h))
        return;
    memcpy(&h, data, sizeof(h));
    const char *p = data + sizeof(h);
    appendStringInfo(buf, "db %u archive %.*s", h.dbid, (int)h.name_len, p);
    if (h.path_len > 0)
        appendStringInfo(buf, " file %.*s offset %llu", (int)h.path_len, p + h.name_len,
                         (unsigned long long)h.offset);
    appendStringInfo(buf, " bytes %u", h.data_len);
}

/* name, redo, desc, identify; no startup, cleanup, mask or logical decoding */
RmgrData kArchiveRmgr = {"permanode_archive",
                         ArchiveRedo,
                         ArchiveDesc,
                         ArchiveIdentify,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr};

/* True when records must be written: some standby, base backup or WAL archive may need them. */
bool WalNeeded()
{
    return XLogIsNeeded();
}

} // namespace

void RegisterArchiveRmgr()
{
    RegisterCustomRmgr(kArchiveRmgrId, &kArchiveRmgr);
    registered = true;
}

void CheckNotInRecovery()
{
    pg::CallPg(
        []
        {
            if (RecoveryInProgress())
                ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                                errmsg("cannot change archives during recovery"),
                                errhint("Archive, restore and collect archives on the primary; "
                                        "standbys replay them from its WAL.")));
        });
}

void CheckArchiveWal()
{
    CheckNotInRecovery();
    pg::CallPg(
        []
        {
            if (WalNeeded() && !registered)
                ereport(ERROR,
                        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                         errmsg("permanode_fdw is not loaded at server start"),
                         errdetail("With wal_level = %s, archives must be written to the WAL, so "
                                   "that standbys and backups hold them.",
                                   wal_level == WAL_LEVEL_LOGICAL ? "logical" : "replica"),
                         errhint("Add permanode_fdw to shared_preload_libraries and restart the "
                                 "server.")));
        });
}

void LogArchive(const std::string &name, const std::string &dir)
{
    if (!WalNeeded())
        return;
    RecordHeader header{};
    header.dbid = MyDatabaseId;
    header.name_len = static_cast<uint32>(name.size());
    std::vector<fs::path> files;
    for (const auto &entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().filename() != kManifestFile)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::string chunk(kChunkBytes, '\0');
    XLogRecPtr end = InvalidXLogRecPtr;
    for (const auto &file : files)
    {
        std::string path = fs::relative(file, dir).string();
        std::ifstream in(file, std::ios::binary);
        if (!in)
            ThrowIo("could not read archive file", file.string());
        header.path_len = static_cast<uint32>(path.size());
        uint64 offset = 0;
        do
        {
            in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
            size_t n = static_cast<size_t>(in.gcount());
            if (in.bad())
                ThrowIo("could not read archive file", file.string());
            header.offset = offset;
            header.data_len = static_cast<uint32>(n);
            /* an empty file is logged too, as one empty chunk */
            if (n > 0 || offset == 0)
                end = Insert(kFileChunk, header, name, path, std::string_view(chunk.data(), n));
            offset += n;
            pg::CallPg([] { CHECK_FOR_INTERRUPTS(); });
        } while (in);
        Flush(end);
        pg::CallPg([] { CrashPoint("wal_file_logged"); });
    }
    std::string manifest = ReadWholeFile((fs::path(dir) / kManifestFile).string());
    header.path_len = 0;
    header.offset = 0;
    header.data_len = static_cast<uint32>(manifest.size());
    Flush(Insert(kSeal, header, name, {}, manifest));
}

void LogKeptArchives(const std::set<std::string> &kept)
{
    if (!WalNeeded() || !registered)
        return; /* without the resource manager, no archive ever reached the WAL */
    std::string data;
    for (const auto &name : kept)
        data += (data.empty() ? "" : "\n") + name;
    RecordHeader header{};
    header.dbid = MyDatabaseId;
    header.data_len = static_cast<uint32>(data.size());
    Flush(Insert(kKeep, header, {}, {}, data));
}

} // namespace permanode::fdw
