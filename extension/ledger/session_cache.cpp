/*
 * session_cache.cpp
 *	  See session_cache.hpp.
 */
#include "ledger/session_cache.hpp"

extern "C"
{
#include "access/xact.h"
#include "utils/inval.h"
}

#include "pgcpp/guard.hpp"

#include <algorithm>
#include <array>

namespace permanode::ledger
{
namespace
{

// As many caches as the extension has; a fixed array, so that no event allocates.
std::array<const SessionCache *, 4> caches{};
std::size_t cache_count = 0;

void OnXact(XactEvent event, void *)
{
    for (std::size_t i = 0; i < cache_count; ++i)
    {
        const SessionCache &cache = *caches[i];
        if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT)
            cache.commit();
        else if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
            cache.abort();
        else if (event == XACT_EVENT_PREPARE)
            cache.prepare();
    }
}

void OnSubXact(SubXactEvent event, SubTransactionId, SubTransactionId, void *)
{
    if (event != SUBXACT_EVENT_ABORT_SUB)
        return;
    for (std::size_t i = 0; i < cache_count; ++i)
        caches[i]->abort_subtransaction();
}

void OnRelcache(Datum, Oid relid)
{
    for (std::size_t i = 0; i < cache_count; ++i)
        caches[i]->relcache(relid);
}

} // namespace

void ListenToTransactions(const SessionCache &cache)
{
    if (std::find(caches.begin(), caches.begin() + cache_count, &cache) !=
        caches.begin() + cache_count)
        return;
    if (cache_count == caches.size())
        throw pg::PgError(ERRCODE_INTERNAL_ERROR, "permanode: too many session caches");
    if (cache_count == 0)
        pg::CallPg(
            []
            {
                RegisterXactCallback(OnXact, nullptr);
                RegisterSubXactCallback(OnSubXact, nullptr);
                CacheRegisterRelcacheCallback(OnRelcache, (Datum)0);
            });
    caches[cache_count++] = &cache;
}

} // namespace permanode::ledger
