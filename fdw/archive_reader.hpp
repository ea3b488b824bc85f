/*
 * archive_reader.hpp
 *	  Reading rows out of a sealed archive: a cursor over one column family between two encoded
 *	  keys, forward or backward, that produces rows in a relation's column layout.
 */
#ifndef PERMANODE_FDW_ARCHIVE_READER_HPP
#define PERMANODE_FDW_ARCHIVE_READER_HPP

#include "permanode_fdw.hpp"
#include "engine/prefetch.hpp"

namespace permanode::fdw
{

class ArchiveCursor
{
  public:
    /* Reads the archive in dir: its manifest now, its files (through the handle cache) when a
     * scan starts. */
    explicit ArchiveCursor(const std::string &dir);
    ~ArchiveCursor();

    /*
     * Maps the archive's columns onto reldesc by name. needed lists the attnums the caller
     * reads (NIL: all; entries below 1 are ignored); the others come back NULL. (pg)
     */
    void Bind(TupleDesc reldesc, List *needed = NIL);

    /*
     * Positions on family (0 = rows, n = index n-1) between lower (inclusive) and upper
     * (exclusive); empty strings are unbounded. Rows whose partition key lies outside
     * [prune_lo, prune_hi] are skipped when the row key holds the partition key.
     */
    void Start(int family, bool backward, std::string lower, std::string upper, int64 prune_lo,
               int64 prune_hi, bool index_only = false);

    /* Advances to the next row; false at the end. Checks for interrupts. */
    bool Next();

    /* Decodes the current row into values/isnull of the bound relation layout. (pg) */
    void Store(Datum *values, bool *isnull);

    /*
     * Releases the iterator and the archive (which stays cached). A scan holds its archive
     * open from Start to its end only, so that a plan over many archives holds one at a time.
     */
    void Close();

    const Manifest &manifest() const { return *manifest_; }
    uint64 entries_read() const { return entries_read_; }
    uint64 rows_returned() const { return rows_returned_; }

  private:
    /* Next() of a scan read ahead by prefetch_. */
    bool NextPrefetched();

    /* Archives with fewer rows are scanned without a helper thread. */
    static constexpr uint64 kPrefetchMinRows = 10000;
    /*
     * File read-ahead of a full scan. A chunk (2 MB of entries) is about 1 MB compressed, and
     * each chunk's iterator reads ahead on its own: larger read-ahead reads past its end.
     */
    static constexpr size_t kFullScanReadahead = 512 << 10;
    /* Threads reading a full scan ahead (in chunks, when the archive has split keys). */
    static constexpr int kFullScanThreads = 2;

    std::string dir_;                         /* the archive's directory */
    std::shared_ptr<Manifest> manifest_;      /* its manifest, shared with its handles */
    std::shared_ptr<ArchiveHandle> handle_;   /* open archive while scanning, else null */
    std::unique_ptr<RowCodec> codec_;         /* decodes keys and values */
    std::unique_ptr<rocksdb::Iterator> iter_; /* current iteration, null when closed */
    std::unique_ptr<Prefetcher> prefetch_;    /* reads iter_ ahead (full scans), or null */
    std::string lower_;                       /* lower bound (inclusive), kept alive for iter_ */
    std::string upper_;                       /* upper bound (exclusive), kept alive for iter_ */
    rocksdb::Slice lower_slice_;              /* slices of the bounds given to ReadOptions */
    rocksdb::Slice upper_slice_;
    int family_ = 0;            /* family iterated: 0 rows, n index n-1 */
    bool backward_ = false;     /* iterate from the last key down */
    bool index_only_ = false;   /* rows come from index entries alone */
    std::string_view key_view_; /* key of the current entry (index-only scans) */
    bool at_entry_ = false;     /* iterator is on an entry not returned yet */
    int64 prune_lo_ = 0;        /* partition key range to keep */
    int64 prune_hi_ = 0;
    std::string rowkey_;           /* row key rebuilt from an index key */
    std::string_view rowkey_view_; /* row key of the current row (in rowkey_ or the entry) */
    std::unique_ptr<FamilyLookup> row_lookup_;        /* finds the rows of index entries */
    std::unique_ptr<FamilyLookup> dictionary_lookup_; /* finds dictionary values */
    std::string_view value_view_;                     /* value of the current row */
    void StoreColumns(Datum *values, bool *isnull);   /* Store, before relabeling arrays */
    std::vector<int> attmap_;  /* per relation attribute: archive column or -1 */
    bool same_layout_ = false; /* attmap_ maps every attribute to itself */
    /* relation attributes whose arrays name their element type by another database's OID (an
     * archive made elsewhere): the attribute, its archive column and this database's type */
    struct RetypedArray
    {
        int attribute;
        int column;
        Oid element;
    };
    std::vector<RetypedArray> retyped_arrays_;
    std::vector<bool> needed_;        /* per archive column: the caller reads it */
    int deform_natts_ = -1;           /* stored columns to deform: up to the last needed */
    bool prune_active_ = false;       /* the prune range excludes part of the archive */
    Datum *archive_values_ = nullptr; /* decoded row in archive layout (palloc'd) */
    bool *archive_nulls_ = nullptr;
    uint64 entries_read_ = 0;  /* keys visited */
    uint64 rows_returned_ = 0; /* rows produced */
};

/*
 * Throws ManifestError unless the manifest's columns are the table's, position by position (a
 * column the table dropped aside, or added since): the table's options name the archived
 * families' columns by position, and a manifest whose columns moved would have its keys read
 * into other columns.
 */
void CheckColumnPositions(const Manifest &m, TupleDesc reldesc);

/* Loads a sealed archive's dictionary (checked against the manifest) into dictionary. */
void LoadDictionary(const ArchiveHandle &handle, ValueDictionary *dictionary);

/* Evaluates a pending interrupt (query cancel, statement_timeout) as a C++ exception. */
inline void CheckInterrupts()
{
    if (unlikely(INTERRUPTS_PENDING_CONDITION()))
        pg::CallPg([] { CHECK_FOR_INTERRUPTS(); });
}

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ARCHIVE_READER_HPP */
