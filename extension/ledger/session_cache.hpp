/*
 * session_cache.hpp
 *	  What a backend keeps from one transaction to the next about rows it knows are committed
 *	  (ledger/known_hints.hpp, ledger/metrics_seen.hpp) must follow each transaction's outcome and
 *	  forget what a changed table makes stale. One registration of PostgreSQL's transaction,
 *	  subtransaction and relcache callbacks hands those events to every such cache.
 */
#pragma once

extern "C"
{
#include "postgres.h"
}

namespace permanode::ledger
{

// A cache's handlers. They run inside commit and abort processing, where nothing may throw.
struct SessionCache
{
    void (*commit)() noexcept;
    void (*abort)() noexcept;
    // PREPARE TRANSACTION: the transaction may end after this session has moved on.
    void (*prepare)() noexcept;
    // A subtransaction rolled back (which one wrote what is not tracked by the caches).
    void (*abort_subtransaction)() noexcept;
    // A relation's relcache entry was invalidated; InvalidOid: every relation's.
    void (*relcache)(Oid relid) noexcept;
};

// Hands the events to `cache` from now on; calling it again with the same cache does nothing.
void ListenToTransactions(const SessionCache &cache);

} // namespace permanode::ledger
