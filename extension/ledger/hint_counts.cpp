/*
 * hint_counts.cpp
 *	  See hint_counts.hpp. The transaction callbacks run inside PostgreSQL's commit and abort
 *	  processing, where nothing may throw: a failed allocation there drops what it was moving,
 *	  which only leaves counts lower or rows to write again.
 */
#include "ledger/hint_counts.hpp"
#include "ledger/session_cache.hpp"

extern "C"
{
#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "permanode.h"
}

#include <cstring>

namespace permanode::ledger
{
namespace
{

// Known rows kept per table; past it they are forgotten and written once more.
constexpr std::size_t kMaxKnown = 200000;
// Write the sums back after this many milestones that deferred some, or this many keys.
constexpr int kDueMilestones = 256;
constexpr std::size_t kDueKeys = 50000;

HintCounts<AddressHintKey> address_counts;
HintCounts<TagHintKey> tag_counts;
int milestones_deferred = 0;   // committed ones since the last write-back
TimestampTz oldest_sum_at = 0; // when the oldest unwritten sum was committed; 0: none
bool deferred_this_transaction = false;

// The hint tables whose rows this session knows: relid and relfilenode of each.
struct TableIdentity
{
    Oid relid = InvalidOid;
    Oid relfilenode = InvalidOid;
    bool operator==(const TableIdentity &o) const
    {
        return relid == o.relid && relfilenode == o.relfilenode;
    }
};
TableIdentity address_table, tag_table;
bool recheck_tables = true;

TableIdentity IdentityOf(const char *name)
{
    TableIdentity identity;
    Oid schema = get_namespace_oid("permanode", true);
    identity.relid = OidIsValid(schema) ? get_relname_relid(name, schema) : InvalidOid;
    if (!OidIsValid(identity.relid))
        return identity;
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(identity.relid));
    if (HeapTupleIsValid(tuple))
    {
        identity.relfilenode = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relfilenode;
        ReleaseSysCache(tuple);
    }
    return identity;
}

void ForgetAll() noexcept
{
    address_counts.ForgetAll();
    tag_counts.ForgetAll();
    milestones_deferred = 0;
    oldest_sum_at = 0;
    deferred_this_transaction = false;
}

void OnCommit() noexcept
{
    bool wrote_back = address_counts.Taking() || tag_counts.Taking();
    if (wrote_back)
        milestones_deferred = 0;
    address_counts.Commit();
    tag_counts.Commit();
    if (deferred_this_transaction)
        ++milestones_deferred;
    // The sums left after a write-back are this transaction's: they start waiting now.
    if (address_counts.Deferred() + tag_counts.Deferred() == 0)
        oldest_sum_at = 0;
    else if (wrote_back || oldest_sum_at == 0)
        oldest_sum_at = GetCurrentTimestamp();
    deferred_this_transaction = false;
}

void OnAbort() noexcept
{
    address_counts.Abort();
    tag_counts.Abort();
    deferred_this_transaction = false;
}

// Which sums a rolled-back subtransaction added is not tracked: all of the transaction's go.
void OnAbortSubtransaction() noexcept
{
    address_counts.AbortSubtransaction();
    tag_counts.AbortSubtransaction();
}

// A prepared transaction may commit or roll back after this session has moved on: its sums and
// rows are dropped either way (lower counts, rows written again).
void OnPrepare() noexcept
{
    OnAbortSubtransaction();
    deferred_this_transaction = false;
}

// ANALYZE and VACUUM invalidate too: known rows are only forgotten (cheap to learn again); the
// sums are dropped only when DeferHintCounts finds another table (TRUNCATE, DROP and CREATE).
void OnRelcache(Oid relid) noexcept
{
    if (relid == InvalidOid || relid == address_table.relid || relid == tag_table.relid)
    {
        address_counts.ForgetKnown();
        tag_counts.ForgetKnown();
        recheck_tables = true;
    }
}

const SessionCache kHintCountsCache = {OnCommit, OnAbort, OnPrepare, OnAbortSubtransaction,
                                       OnRelcache};

} // namespace

bool AddressHintKey::operator<(const AddressHintKey &o) const
{
    if (address != o.address)
        return address < o.address;
    if (int c = std::strcmp(output_kind, o.output_kind))
        return c < 0;
    if (int c = std::strcmp(variant, o.variant))
        return c < 0;
    return range < o.range;
}

bool TagHintKey::operator<(const TagHintKey &o) const
{
    if (tag != o.tag)
        return tag < o.tag;
    if (int c = std::strcmp(table_kind, o.table_kind))
        return c < 0;
    return range < o.range;
}

template <typename Key> HintRows<Key> HintCounts<Key>::Take()
{
    for (auto &[key, rows] : deferred_)
        taken_[key] += rows;
    HintRows<Key> rows = std::move(deferred_);
    deferred_.clear();
    return rows;
}

template <typename Key> void HintCounts<Key>::Commit() noexcept
{
    try
    {
        taken_.clear(); // written
        for (auto &[key, rows] : pending_)
            deferred_[key] += rows;
        pending_.clear();
        if (known_.size() + written_.size() > kMaxKnown)
            known_.clear();
        for (Key &key : written_)
            known_.insert(std::move(key));
        written_.clear();
    }
    catch (...)
    {
        taken_.clear();
        pending_.clear();
        written_.clear();
    }
}

template <typename Key> void HintCounts<Key>::Abort() noexcept
{
    try
    {
        // The write-back rolled back: the sums wait for the next one.
        for (auto &[key, rows] : taken_)
            deferred_[key] += rows;
    }
    catch (...)
    {
    }
    taken_.clear();
    pending_.clear();
    written_.clear();
}

template <typename Key> void HintCounts<Key>::AbortSubtransaction() noexcept
{
    // The write-back may have been in the rolled-back part or before it: dropping its sums is
    // the side that cannot count twice.
    taken_.clear();
    pending_.clear();
    written_.clear();
}

template <typename Key> void HintCounts<Key>::ForgetKnown() noexcept
{
    known_.clear();
}

template <typename Key> void HintCounts<Key>::ForgetAll() noexcept
{
    known_.clear();
    deferred_.clear();
    taken_.clear();
    written_.clear();
    pending_.clear();
}

template class HintCounts<AddressHintKey>;
template class HintCounts<TagHintKey>;

HintCounts<AddressHintKey> &AddressHintCounts()
{
    return address_counts;
}

HintCounts<TagHintKey> &TagHintCounts()
{
    return tag_counts;
}

void CheckHintTables()
{
    ListenToTransactions(kHintCountsCache);
    if (recheck_tables)
    {
        TableIdentity addresses = IdentityOf("addresses_hints"), tags = IdentityOf("tag_hints");
        if (!(addresses == address_table) || !(tags == tag_table))
            ForgetAll();
        address_table = addresses;
        tag_table = tags;
        recheck_tables = false;
    }
}

bool DeferHintCounts()
{
    CheckHintTables();
    if (permanode_defer_hint_counts)
        deferred_this_transaction = true;
    return permanode_defer_hint_counts;
}

bool HintCountsDue()
{
    std::size_t keys = address_counts.Deferred() + tag_counts.Deferred();
    if (keys == 0)
        return false;
    if (!permanode_defer_hint_counts || milestones_deferred >= kDueMilestones || keys >= kDueKeys)
        return true;
    // Following a node, 256 milestones take some 20 minutes: the delay bounds the lag instead.
    return oldest_sum_at != 0 && TimestampDifferenceExceeds(oldest_sum_at, GetCurrentTimestamp(),
                                                            permanode_hint_counts_max_delay * 1000);
}

} // namespace permanode::ledger
