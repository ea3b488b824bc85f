/*
 * archive_writer.hpp
 *	  Writes the families of an archive: heap rows are encoded, then each family is sorted by
 *	  key (within maintenance_work_mem, spilling beyond it) and written with SstFileWriter by
 *	  its own helper thread, and the files are ingested into a fresh database. Include after
 *	  postgres.h.
 */
#ifndef PERMANODE_FDW_ARCHIVE_WRITER_HPP
#define PERMANODE_FDW_ARCHIVE_WRITER_HPP

#include "engine/entry_sorter.hpp"
#include "permanode_fdw.hpp"

namespace permanode::fdw
{

class ArchiveWriter
{
  public:
    /* Starts writing the archive of manifest m into dir (which exists and is empty). */
    ArchiveWriter(std::string dir, const Manifest &m, RowCodec &codec);

    /* Adds every row of a locked heap partition; returns how many. */
    uint64 AddRelation(Oid relid);

    /* Order-independent checksum of the rows added so far. */
    uint64 checksum() const { return checksum_; }

    /* Writes the SSTs and the database; records each family's entry count in m. */
    void Finish(Manifest *m);

  private:
    /* Sorts and writes every family's SST, in threads, within the file budget. */
    void SortAndWrite();
    /* Writes the dictionary's SST (entries are in key order); records count and checksum. */
    std::string WriteDictionary(Manifest *m);

    std::string dir_;           /* archive directory */
    const Manifest &manifest_;  /* layout being written */
    RowCodec &codec_;           /* encodes rows */
    std::string staging_;       /* SSTs and spilled runs, removed at the end */
    FileReservation own_files_; /* the file this thread writes at a time */
    std::vector<std::unique_ptr<EntrySorter>> sorters_; /* one per family: rows, then indexes */
    std::unique_ptr<ValueDictionary> dictionary_;       /* grows with the rows, or null */
    std::string key_;                                   /* scratch: row key */
    std::string value_;                                 /* scratch: stored value */
    std::string index_key_;                             /* scratch: index key */
    std::string include_; /* scratch: INCLUDE columns of an index entry */
    uint64 rows_ = 0;     /* rows added */
    uint64 checksum_ = 0; /* sum of RowHash over the rows added */
};

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ARCHIVE_WRITER_HPP */
