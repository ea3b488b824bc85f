/*
 * known_hints.hpp
 *	  The address and tag hint rows this backend knows are committed, so that ingest sends only
 *	  the others. Nearly every milestone has rows for the same hot addresses and tags, and each
 *	  hint row sent costs an ON CONFLICT probe of the hint table's key.
 *
 *	  A key becomes known when the transaction that wrote (or found) its row commits; an abort,
 *	  of the transaction or of any subtransaction, forgets this transaction's keys. Hint rows are
 *	  never deleted by permanode; a hint table truncated, dropped or made anew (a relcache
 *	  invalidation of it, which ingest sees once it locks the table) forgets every key. At most
 *	  kMaxKnownHints keys are kept per table: past it they are forgotten and sent once more.
 */
#pragma once

#include "codec/address.hpp"
#include "codec/types.hpp"

extern "C"
{
#include "postgres.h"
}

#include <set>
#include <vector>

namespace permanode::ledger
{

constexpr std::size_t kMaxKnownHints = 200000;

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

// Hint rows to write, in key order: the order in which concurrent transactions lock them.
template <typename Key> using HintRows = std::set<Key>;

// One hint table's rows known to this backend.
template <typename Key> class KnownHints
{
  public:
    // Adds key to `to_write` unless its row is known to be committed.
    void Add(Key key, HintRows<Key> &to_write)
    {
        if (known_.count(key) > 0)
            return;
        written_.push_back(key);
        to_write.insert(std::move(key));
    }
    void Commit() noexcept;
    void Abort() noexcept { written_.clear(); }
    void Forget() noexcept
    {
        known_.clear();
        written_.clear();
    }

  private:
    std::set<Key> known_;
    std::vector<Key> written_; // this transaction's
};

// Call in the milestone's transaction before the two below: locks both hint tables (so that a
// TRUNCATE committed meanwhile is seen) and forgets the keys of a table that changed.
void CheckHintTables();
KnownHints<AddressHintKey> &KnownAddressHints();
KnownHints<TagHintKey> &KnownTagHints();

} // namespace permanode::ledger
