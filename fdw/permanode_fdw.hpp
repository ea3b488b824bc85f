/*
 * permanode_fdw.hpp
 *	  Shared declarations of permanode_fdw, grouped by the file that defines them; for the files
 *	  of the PostgreSQL side only.
 */
#ifndef PERMANODE_FDW_HPP
#define PERMANODE_FDW_HPP

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

extern "C"
{
#include "postgres.h"

#include "access/tupdesc.h"
#include "commands/explain.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
}

#include "engine/archive_store.hpp"
#include "engine/manifest.hpp"
#include "engine/row_layout.hpp"
#include "engine/value_dictionary.hpp"
#include "pgcpp/guard.hpp"

namespace permanode::fdw
{

/* Key of the advisory lock that keeps archive_gc away from archives being written. */
inline constexpr int64 kArchiveLockKey = 0x7065726d616e6f64; /* "permanod" */

/* in permanode_fdw.cpp */
extern char *archive_root_setting;             /* permanode_fdw.archive_root */
extern char *debug_crash_at_setting;           /* permanode_fdw.debug_crash_at */
extern bool skip_unarchivable_indexes_setting; /* permanode_fdw.skip_unarchivable_indexes */
extern int max_archive_files_setting;          /* permanode_fdw.max_archive_files */
/* Kills (or pauses) the backend when permanode_fdw.debug_crash_at names this step. */
void CrashPoint(const char *step);

/* in file_accounting.cpp */
/* Sizes the archives' file budget and reports its reservations to fd.c. */
void InstallFileAccounting();
/* Raises the soft open-files limit to the hard one (in the postmaster, before fd.c measures it). */
void RaiseOpenFilesLimit();

/* in rocksdb_status.cpp */
/* The SQLSTATE of a RocksDB status. */
int StatusSqlstate(const rocksdb::Status &status);
/* A PostgreSQL error for a failed archive operation on a table. */
pg::PgError ArchiveError(const StatusError &error, const std::string &table);
/*
 * Runs body() like pg::Guarded, turning archive errors (StatusError, KeyFormatError, malformed
 * manifests) into errors that name the table.
 */
template <typename Body> Datum GuardedArchive(const char *table, Body &&body)
{
    return pg::Guarded(
        [&]() -> Datum
        {
            try
            {
                return body();
            }
            catch (const StatusError &e)
            {
                throw ArchiveError(e, table ? table : "?");
            }
            catch (const KeyFormatError &e)
            {
                throw ArchiveError(
                    StatusError(rocksdb::Status::Corruption(e.what()), "invalid archive key"),
                    table ? table : "?");
            }
            catch (const ManifestError &e)
            {
                throw ArchiveError(
                    StatusError(rocksdb::Status::Corruption(e.what()), "invalid archive manifest"),
                    table ? table : "?");
            }
        },
        ERRCODE_FDW_ERROR);
}

/* in option.cpp */
/* One archived index (or the rows family, first) as the planner sees it. */
struct ArchivedIndex
{
    char *cf;            /* column family */
    char *name;          /* PostgreSQL index it mirrors */
    int ncolumns;        /* key columns */
    AttrNumber *attnums; /* foreign table attnums of the key columns */
    bool *desc;          /* per column: descending */
    bool *nulls_first;   /* per column: NULLs sort first */
    bool *not_null;      /* per column: only rows where it is not NULL have entries */
    int ninclude;        /* INCLUDE columns stored with each entry */
    AttrNumber *include_attnums;
};
/* The options of an archived foreign table, parsed. */
struct ArchiveOptions
{
    char *archive;               /* archive directory name under the root */
    double row_count;            /* rows in the archive */
    int64 byte_size;             /* bytes on disk */
    int64 range_from;            /* lowest partition key value (inclusive) */
    int64 range_to;              /* highest partition key value (exclusive) */
    AttrNumber partition_attnum; /* attnum of the partition key column */
    int nindexes;                /* rows family + archived indexes */
    ArchivedIndex *indexes;      /* [0] is the rows family, keyed by the row key */
    char *indexes_text;          /* the "indexes" option as written (IndexesOption) */
};
ArchiveOptions *GetArchiveOptions(Oid foreigntableid);
/* The archive root of this database: <archive_root>/<database oid>. */
std::string ArchiveRootOfDatabase();
/* The directory of a named archive. */
std::string ArchiveDir(const char *archive);

/* in row_codec.cpp */
/* The key encoding of a type, or kNone; fixed_len is set for kFixed. */
KeyKind KeyKindOfType(Oid typid, int *fixed_len);
/* Order-independent checksum term of one stored row. */
uint64 RowHash(std::string_view key, std::string_view value);

/*
 * Encodes rows into archive keys and values and decodes them back, for one manifest. Values are
 * arrays in the manifest's column order. The bytes are parsed by the PostgreSQL-free RowLayout;
 * this side builds the Datums. Functions marked (pg) call PostgreSQL and must run inside
 * pg::CallPg.
 */
class RowCodec
{
  public:
    /* Builds in the caller's frame; throws PgError, or KeyFormatError for a manifest whose
     * keys its column types cannot have. */
    explicit RowCodec(const Manifest &manifest);
    TupleDesc desc() const { return desc_; }
    const Manifest &manifest() const { return manifest_; }
    const RowLayout &layout() const { return *layout_; }

    /* Key of the rows family (index < 0) or of index family `index`. */
    void EncodeKey(int index, const Datum *values, const bool *isnull, std::string &out) const;
    /* Value of an entry of index family `index`: its INCLUDE columns. */
    void EncodeInclude(int index, const Datum *values, const bool *isnull, std::string &out) const;
    /* Decodes the columns an index entry holds (key, suffix, INCLUDE); others are NULL. (pg) */
    void DecodeIndexEntry(int index, std::string_view key, std::string_view value, Datum *values,
                          bool *isnull);
    /* The stored value: a MinimalTuple of every column but the row key's. (pg) */
    void EncodeValue(const Datum *values, const bool *isnull, std::string &out);
    /*
     * Decodes a row; varlenas are palloc'd in CurrentMemoryContext. With needed (per column),
     * only those columns are decoded, and the value is parsed up to deform_natts columns.
     * (pg)
     */
    void DecodeRow(std::string_view rowkey, std::string_view value, Datum *values, bool *isnull,
                   const std::vector<bool> *needed = nullptr, int deform_natts = -1);
    /* The dictionary that EncodeValue encodes dictionary columns with (archive, restore). */
    void SetDictionary(ValueDictionary *dictionary) { dictionary_ = dictionary; }
    /* How DecodeRow reads dictionary entries: fetch(key, &value), false when absent. */
    using DictionaryFetch = std::function<bool(const std::string &key, std::string *value)>;
    void SetDictionaryFetch(DictionaryFetch fetch) { dictionary_fetch_ = std::move(fetch); }

  private:
    /* Turns a dictionary column's stored value into the column's value, in place. (pg) */
    Datum DecodeDictionaryColumn(int column, Datum stored);
    /* A dictionary entry as a varlena, cached for the rest of the row at least. */
    const char *ResolveDictionaryEntry(int column, uint32 id);
    /* Decodes the column at pos of an encoded key into values/isnull[column]. (pg) */
    void DecodeColumn(std::string_view key, size_t pos, const KeyColumn &kc, int column,
                      Datum *values, bool *isnull);
    /* The stored value's first natts columns, parsed, as Datums pointing into value. */
    void DeformValue(std::string_view value, int natts, Datum *values, bool *isnull);
    void EncodeColumns(const std::vector<ManifestKeyColumn> &columns,
                       const std::vector<KeyColumn> &kinds, size_t first, const Datum *values,
                       const bool *isnull, std::string &out) const;

    const Manifest &manifest_;
    TupleDesc desc_;
    std::unique_ptr<RowLayout> layout_; /* keys and stored columns, checked against desc_ */
    std::vector<StoredField> fields_;   /* DeformValue's scratch: the parsed columns */
    std::string scratch_;
    std::vector<uint64> tuple_buffer_;        /* aligned copy of an unaligned value */
    ValueDictionary *dictionary_ = nullptr;   /* encodes them (writers) */
    DictionaryFetch dictionary_fetch_;        /* reads entries (readers) */
    std::vector<Datum> encode_values_;        /* values with dictionary columns replaced */
    std::vector<std::string> encoded_;        /* stored form of each dictionary column */
    std::vector<std::vector<uint64>> stored_; /* ... as aligned varlenas; decoded inline values */
    std::unordered_map<uint64, std::string> resolved_; /* (column, id) -> varlena */
    size_t resolved_bytes_ = 0;
    static constexpr size_t kMaxResolvedBytes = 16 << 20;
};

/* in planner.cpp */
void GetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
void GetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
ForeignScan *GetForeignPlan(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
                            ForeignPath *best_path, List *tlist, List *scan_clauses,
                            Plan *outer_plan);

/* Positions in ForeignScan.fdw_private. */
enum FdwScanPrivateIndex
{
    FdwScanPrivateIndexNumber, /* Integer: family scanned, 0 = rows, n = indexes[n] */
    FdwScanPrivateBackward,    /* Integer: 1 to iterate backward */
    FdwScanPrivateConditions,  /* List of IntLists, parallel to fdw_exprs: see KeyCondition */
    FdwScanPrivateIndexOnly,   /* Integer: 1 when the index entries hold every needed column */
    FdwScanPrivateNeeded,      /* IntList: attnums the scan must fill (others may stay NULL) */
};
/* Positions in each condition IntList. */
enum FdwConditionIndex
{
    FdwConditionColumn,    /* key column position in the family, or -1 (pruning only) */
    FdwConditionAttnum,    /* attnum of the column */
    FdwConditionStrategy,  /* btree strategy, as "column OP value" */
    FdwConditionVarOnLeft, /* 1 if the column is the left operand of the clause */
    FdwConditionValueType, /* type of the value operand (an array's: its element type) */
    FdwConditionArray,     /* 1 for "column = ANY (array)": one key range per element */
    FdwConditionRowMember, /* n for member n of a row comparison (a keyset cursor), else -1 */
};

/* in scan.cpp */
void BeginForeignScan(ForeignScanState *node, int eflags);
TupleTableSlot *IterateForeignScan(ForeignScanState *node);
void ReScanForeignScan(ForeignScanState *node);
void EndForeignScan(ForeignScanState *node);
void ExplainForeignScan(ForeignScanState *node, ExplainState *es);

/* in analyze.cpp */
bool AnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func, BlockNumber *totalpages);

/* in modify.cpp */
void SetModifyCallbacks(FdwRoutine *routine);

/* in archive.cpp */
/* Checksum and row count of heap partitions, encoded as the archive would store them. */
/* Runs SQL statements through SPI in the caller's transaction. (pg) */
void ExecuteStatements(const std::vector<std::string> &statements);

/* Marks the columns worth dictionary-encoding, from the partitions' statistics (runs ANALYZE on
 * partitions never analyzed). Builds in the caller's frame; throws PgError. */
void ChooseDictionaryColumns(Manifest *m, const std::vector<Oid> &relids);

struct HeapDigest
{
    uint64 rows = 0;
    uint64 checksum = 0;
};
/* Builds the archive's values array of a heap row (detoasted), partition attnums mapped. (pg) */
HeapDigest DigestHeapRelations(const std::vector<Oid> &relids, RowCodec &codec);
/* Re-reads a sealed archive: row count and checksum of the rows family; checks index counts. */
HeapDigest DigestArchive(const std::string &dir, bool verify_blocks);

/* in archive_directory.cpp */
/*
 * A fresh, uniquely named archive directory under the database's archive root. An archive that
 * fails before its swap (a full disk, a failed verification, a cancel, a rollback) leaves
 * nothing behind: the directory goes with this object. A crash leaves it to archive_gc(), which
 * removes directories no foreign table names.
 */
class NewArchiveDirectory
{
  public:
    NewArchiveDirectory(const std::string &prefix, int64 from, int64 to);
    ~NewArchiveDirectory();
    NewArchiveDirectory(const NewArchiveDirectory &) = delete;
    NewArchiveDirectory &operator=(const NewArchiveDirectory &) = delete;

    const std::string &name() const { return name_; }
    const std::string &path() const { return path_; }
    /* The catalog names it now, until the transaction ends: it stays. */
    void Keep() { kept_ = true; }

  private:
    std::string name_;
    std::string path_;
    bool kept_ = false;
};

/* in archive_swap.cpp */
/* An archive written, sealed, verified and logged, waiting for its swap (step 6 of archive.cpp):
 * the statements that put it in place of its heap partitions. */
struct PreparedSwap
{
    Oid parent = InvalidOid;
    std::vector<Oid> partitions;
    std::vector<std::string> statements; /* DETACH each heap, CREATE the foreign one, DROP them */
    std::string foreign_table;           /* its name, in the parent's schema */
    Oid namespace_oid = InvalidOid;
    std::unique_ptr<NewArchiveDirectory> directory;
};
/* Holds a swap until SwapPrepared; one the transaction (or the subtransaction that prepared it)
 * does not swap goes with its end, its directory removed. */
void AddPreparedSwap(PreparedSwap swap);
/* Swaps every prepared archive, in the order prepared, under locks taken on all their tables at
 * once, all or none; returns the foreign partitions. */
std::vector<Oid> SwapPrepared();
/* Makes archiving the side that gives way in a deadlock, from here to the transaction's end
 * (archive_swap.cpp). Called before archiving takes its first lock against writers. (pg) */
void GiveWayInDeadlocks();

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_HPP */
