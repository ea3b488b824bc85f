/*
 * known_hints.cpp
 *	  See known_hints.hpp. The transaction callbacks run inside PostgreSQL's commit and abort
 *	  processing, where nothing may throw: a failed allocation there forgets keys, which only
 *	  sends their rows once more.
 */
#include "ledger/known_hints.hpp"
#include "ledger/session_cache.hpp"

extern "C"
{
#include "catalog/namespace.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
}

#include <cstring>

namespace permanode::ledger
{
namespace
{

KnownHints<AddressHintKey> address_hints;
KnownHints<TagHintKey> tag_hints;
// The hint tables whose rows this backend knows; InvalidOid: look them up again.
Oid address_relid = InvalidOid, tag_relid = InvalidOid;

void ForgetAll() noexcept
{
    address_hints.Forget();
    tag_hints.Forget();
    address_relid = tag_relid = InvalidOid;
}

void OnCommit() noexcept
{
    address_hints.Commit();
    tag_hints.Commit();
}

// An abort of the transaction or of a subtransaction (which one wrote what is not tracked), or a
// PREPARE (the transaction may roll back after this backend has moved on).
void OnAbort() noexcept
{
    address_hints.Abort();
    tag_hints.Abort();
}

void OnRelcache(Oid relid) noexcept
{
    if (relid == InvalidOid || relid == address_relid || relid == tag_relid)
        ForgetAll();
}

const SessionCache kKnownHintsCache = {OnCommit, OnAbort, OnAbort, OnAbort, OnRelcache};

// Locks the hint table named `name` as ingest's INSERT would: invalidations of it sent before
// are processed by then (OnRelcache). Returns its OID.
Oid LockHintTable(const char *name)
{
    Oid schema = get_namespace_oid("permanode", false);
    Oid relid = get_relname_relid(name, schema);
    if (!OidIsValid(relid))
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                        errmsg("relation \"permanode.%s\" does not exist", name)));
    LockRelationOid(relid, RowExclusiveLock);
    return relid;
}

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

template <typename Key> void KnownHints<Key>::Commit() noexcept
{
    try
    {
        if (known_.size() + written_.size() > kMaxKnownHints)
            known_.clear();
        for (Key &key : written_)
            known_.insert(std::move(key));
    }
    catch (...)
    {
        known_.clear();
    }
    written_.clear();
}

template class KnownHints<AddressHintKey>;
template class KnownHints<TagHintKey>;

void CheckHintTables()
{
    ListenToTransactions(kKnownHintsCache);
    Oid addresses = LockHintTable("addresses_hints");
    Oid tags = LockHintTable("tag_hints");
    if (addresses != address_relid || tags != tag_relid)
    {
        ForgetAll();
        address_relid = addresses;
        tag_relid = tags;
    }
}

KnownHints<AddressHintKey> &KnownAddressHints()
{
    return address_hints;
}

KnownHints<TagHintKey> &KnownTagHints()
{
    return tag_hints;
}

} // namespace permanode::ledger
