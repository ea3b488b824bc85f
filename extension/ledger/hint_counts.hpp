/*
 * hint_counts.hpp
 *	  Deferred hint row counts (permanode.defer_hint_counts). Nearly every milestone adds rows for
 *	  the same hot addresses and tags, and each such hint row's count update cost an upsert: about
 *	  a seventh of ingest. With the setting on, a session remembers which hint rows it knows are
 *	  committed; for those, a milestone adds its count to a sum kept by the session instead of
 *	  touching the row, and the sums are written back (sorted with that milestone's own hint rows)
 *	  every 256 milestones, by the first milestone after the oldest sum has waited
 *	  permanode.hint_counts_max_delay (60 s), and by permanode.flush_hint_counts().
 *
 *	  Meanwhile row_count is a lower bound, which is all the planner's pruning needs (it keeps
 *	  ranges until their counts add up to a page, so a count too low only keeps more ranges).
 *	  Hence every failure loses a sum rather than risk applying it twice: an abort of the
 *	  transaction or of a subtransaction drops that transaction's sums; sums taken for a write-back
 *	  go back only when the whole transaction aborts; a hint table truncated or made anew
 *	  (another relfilenode or OID) drops everything; a session that ends without a write-back
 *	  leaves its sums unwritten. A row becomes known when the transaction that wrote it commits,
 *	  and any relcache invalidation of a hint table forgets the known rows, so they are written
 *	  once more. Hint rows are never deleted by permanode.
 */
#pragma once

#include "codec/address.hpp"
#include "codec/types.hpp"

extern "C"
{
#include "postgres.h"
}

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace permanode::ledger
{

// An addresses_hints row's key. The kind and variant are string literals (ledger/hints.cpp and
// the writer's), so keys can outlive the milestone that made them.
struct AddressHintKey
{
    codec::Address address;
    const char *output_kind = "";
    const char *variant = "";
    int32 range = 0;
    bool operator<(const AddressHintKey &o) const;
};

// A tag_hints row's key (the table kind a string literal, as above).
struct TagHintKey
{
    codec::Bytes tag;
    const char *table_kind = "";
    int32 range = 0;
    bool operator<(const TagHintKey &o) const;
};

// Row counts per hint key, in key order: the order in which transactions lock hint rows.
template <typename Key> using HintRows = std::map<Key, int64>;

// One hint table's known rows and deferred counts in this session.
template <typename Key> class HintCounts
{
  public:
    // A milestone's rows of a key: added to `to_write`, or, when deferring and the key's row is
    // known to be committed, to the session's sum.
    void Add(bool defer, Key key, int64 rows, HintRows<Key> &to_write)
    {
        if (defer && Known(key))
            return Defer(key, rows);
        if (defer)
            Written(key);
        to_write[std::move(key)] += rows;
    }
    // The row is committed (as far as this session knows).
    bool Known(const Key &key) const { return known_.count(key) > 0; }
    // This transaction wrote the row: known once it commits.
    void Written(const Key &key) { written_.push_back(key); }
    // The row lacks `rows` more once this transaction commits.
    void Defer(const Key &key, int64 rows) { pending_.emplace_back(key, rows); }
    // Takes every committed sum, to be written in this transaction.
    HintRows<Key> Take();
    std::size_t Deferred() const { return deferred_.size(); }
    // Whether this transaction took sums to write back.
    bool Taking() const { return !taken_.empty(); }

    void Commit() noexcept;
    void Abort() noexcept;
    void AbortSubtransaction() noexcept;
    void ForgetKnown() noexcept;
    void ForgetAll() noexcept;

  private:
    std::set<Key> known_;
    HintRows<Key> deferred_; // committed sums not yet written
    HintRows<Key> taken_;    // sums being written by this transaction
    std::vector<Key> written_;
    std::vector<std::pair<Key, int64>> pending_;
};

HintCounts<AddressHintKey> &AddressHintCounts();
HintCounts<TagHintKey> &TagHintCounts();

// Call in a transaction before using the two above: registers the transaction callbacks, and
// drops everything when a hint table is no longer the one whose rows this session knows.
void CheckHintTables();
// CheckHintTables, then whether this session defers counts (in this milestone's transaction).
bool DeferHintCounts();
// Whether the sums are due to be written back: enough milestones or keys have gathered, or the
// oldest sum has waited long enough.
bool HintCountsDue();

} // namespace permanode::ledger
