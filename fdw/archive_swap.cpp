/*
 * archive_swap.cpp
 *	  Step 6 of archiving (archive.cpp): heap partitions swapped for the foreign partition over
 *	  their archive, for every archive an archiving call prepared, together at the call's end.
 *
 *	  A swap takes ACCESS EXCLUSIVE locks on a table and its partitions, on which readers hold
 *	  ACCESS SHARE in orders of their own: a query over several ledger tables locks them in its
 *	  order, and permanode.status counts partitions without locking their parent. Swapping table
 *	  after table, each between the copies of the next, held one table's locks while waiting for
 *	  another's; a reader holding the second and waiting for the first made a deadlock, and
 *	  archiving under read load failed every time (bench/soak). So every table is copied first,
 *	  under SHARE locks that readers pass, and the swaps' locks are then taken all at once, all or
 *	  none (LockForSwap): an attempt that is not granted every lock within half of
 *	  deadlock_timeout gives them back, so that no reader waits on a half-locked swap long enough
 *	  to see a deadlock; the next attempt first waits for the lock the last one was not granted,
 *	  holding none of the others (no deadlock there either), then takes the rest. Waiting in the
 *	  lock queue, rather than NOWAIT, keeps new readers behind an attempt, so that a busy table is
 *	  not starved; that first wait is bounded by the same budget, so that readers queued behind it
 *	  are not held for as long as a long query holds the table (bench/soak: HTTP reads waited
 *	  3.5-7 s behind it while analytics ran). Readers wait only for the swaps themselves, not for
 *	  the copies between.
 *
 *	  Deadlocks remain possible, and archiving is the side that gives way (GiveWayInDeadlocks):
 *	  a reader queued behind an attempt may hold a table the attempt goes on to wait for, and a
 *	  writer that spends an output of a range being copied waits for its SHARE lock while
 *	  holding a lock the swap needs (bench/soak: a 409 to an HTTP read, a sync's milestone rolled
 *	  back). PostgreSQL's deadlock check ends the wait of the process whose check finds the cycle
 *	  first, each after its own deadlock_timeout: archiving lowers its own to kGiveWayMs, so it is
 *	  the one. An attempt of LockForSwap that ends in a deadlock gives its locks back like one
 *	  that timed out; kDeadlockAttempts of them in a row (a writer that waits for the copy's
 *	  SHARE locks holds what the swap needs, which no attempt gets) end the archiving, rolled back
 *	  whole with SQLSTATE 40P01, to be run again.
 */
extern "C"
{
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"
}

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "permanode_fdw.hpp"

extern "C"
{
    PG_FUNCTION_INFO_V1(permanode_archive_swap_prepared);
}

namespace permanode::fdw
{

namespace
{

/* A prepared swap and the (sub)transaction level that prepared it. */
struct Held
{
    PreparedSwap swap;
    int nest_level;
    bool swapped = false;
};

/* The swaps of the current transaction, in the order prepared. Never destroyed: a backend that
 * exits has rolled its transaction back first (OnXact), and static destructors at exit must not
 * touch the archive engine's caches, which may be gone by then. */
std::vector<Held> &held = *new std::vector<Held>;

/* Committed: the swapped archives' directories are named by the catalog and stay; the others
 * (prepared, never swapped) go. Aborted: every swap is undone, every directory goes. */
void OnXact(XactEvent event, void *)
{
    if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT)
        for (auto &h : held)
            if (h.swapped)
                h.swap.directory->Keep();
    if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
        event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
        event == XACT_EVENT_PREPARE)
        held.clear();
}

/* A subtransaction rolled back: so did what it prepared and swapped. */
void OnSubXact(SubXactEvent event, SubTransactionId, SubTransactionId, void *)
{
    if (event != SUBXACT_EVENT_ABORT_SUB)
        return;
    int level = GetCurrentTransactionNestLevel();
    held.erase(std::remove_if(held.begin(), held.end(),
                              [&](const Held &h) { return h.nest_level >= level; }),
               held.end());
}

/* The relations every held swap locks: the parents, then the partitions, each by OID. */
std::vector<Oid> RelationsToLock()
{
    std::vector<Oid> parents, partitions;
    for (const auto &h : held)
    {
        if (h.swapped)
            continue;
        parents.push_back(h.swap.parent);
        partitions.insert(partitions.end(), h.swap.partitions.begin(), h.swap.partitions.end());
    }
    for (auto *list : {&parents, &partitions})
    {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    parents.insert(parents.end(), partitions.begin(), partitions.end());
    return parents;
}

/* Attempts before LockForSwap gives up: each waits for the lock the one before was not granted,
 * then at most half of the sessions' deadlock_timeout for the others. */
constexpr int kLockAttempts = 600;
/* Archiving's deadlock_timeout (ms): far below the sessions' (1 s by default). */
constexpr int kGiveWayMs = 100;
/* Attempts in a row that end in a deadlock before archiving gives up (the file's comment). */
constexpr int kDeadlockAttempts = 2;

/* The deadlock_timeout (ms) of every other session: this one's setting before it was lowered.
 * (pg) */
double SessionsDeadlockTimeoutMs()
{
    const char *text = GetConfigOptionResetString("deadlock_timeout");
    int ms = 0;
    if (text == nullptr || !parse_int(text, &ms, GUC_UNIT_MS, nullptr))
        return DeadlockTimeout;
    return ms;
}

/* How an attempt of LockForSwap ended. */
enum class Attempt
{
    kGranted,
    kTimedOut,
    kDeadlocked
};

/* Sets lock_timeout for the rest of the (sub)transaction. (pg) */
void SetLockTimeout(int ms)
{
    char value[32];
    snprintf(value, sizeof(value), "%dms", ms);
    (void)set_config_option("lock_timeout", value, PGC_USERSET, PGC_S_SESSION, GUC_ACTION_LOCAL,
                            true, 0, false);
}

/*
 * One attempt of LockForSwap, in a subtransaction: ACCESS EXCLUSIVE on *contended first, within
 * budget_ms, then on the others within budget_ms in all. kGranted when all are granted (they stay
 * with the transaction); else every lock of the attempt is given back and *contended names the
 * one not granted, in time (kTimedOut) or in a deadlock (kDeadlocked). Other errors propagate.
 * (pg)
 */
Attempt TryLocks(const Oid *relations, int n, double budget_ms, Oid *contended)
{
    MemoryContext context = CurrentMemoryContext;
    ResourceOwner owner = CurrentResourceOwner;
    volatile Oid trying = *contended;
    volatile Attempt outcome = Attempt::kGranted;
    BeginInternalSubTransaction(nullptr);
    PG_TRY();
    {
        if (OidIsValid(trying))
        {
            SetLockTimeout(static_cast<int>(budget_ms));
            LockRelationOid(trying, AccessExclusiveLock);
        }
        TimestampTz began = GetCurrentTimestamp();
        for (int i = 0; i < n; i++)
        {
            if (relations[i] == *contended)
                continue;
            trying = relations[i];
            long left_ms = static_cast<long>(budget_ms - (GetCurrentTimestamp() - began) / 1000.0);
            if (left_ms < 1)
                ereport(ERROR, (errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                                errmsg("the swap's locks were not all granted in time")));
            SetLockTimeout(static_cast<int>(left_ms));
            LockRelationOid(relations[i], AccessExclusiveLock);
        }
        ReleaseCurrentSubTransaction();
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(context);
        ErrorData *edata = CopyErrorData();
        FlushErrorState();
        RollbackAndReleaseCurrentSubTransaction();
        MemoryContextSwitchTo(context);
        CurrentResourceOwner = owner;
        if (edata->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE &&
            edata->sqlerrcode != ERRCODE_T_R_DEADLOCK_DETECTED)
            ReThrowError(edata);
        outcome = edata->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED ? Attempt::kDeadlocked
                                                                     : Attempt::kTimedOut;
        FreeErrorData(edata);
    }
    PG_END_TRY();
    MemoryContextSwitchTo(context);
    CurrentResourceOwner = owner;
    *contended = trying;
    return outcome;
}

/* Takes ACCESS EXCLUSIVE locks on every relation, all or none (the file's header comment), and
 * keeps them to the end of the transaction; lock_timeout is the caller's again after. */
void LockForSwap(const std::vector<Oid> &relations)
{
    const char *kept =
        pg::CallPg([] { return pstrdup(GetConfigOption("lock_timeout", false, false)); });
    double budget_ms = pg::CallPg(SessionsDeadlockTimeoutMs) / 2.0;
    pg::CallPg(GiveWayInDeadlocks);
    Oid contended = InvalidOid;
    int deadlocks = 0; /* in a row */
    for (int attempt = 0; attempt < kLockAttempts; attempt++)
    {
        Attempt outcome = pg::CallPg(
            [&] {
                return TryLocks(relations.data(), static_cast<int>(relations.size()), budget_ms,
                                &contended);
            });
        if (outcome == Attempt::kGranted)
        {
            pg::CallPg(
                [&]
                {
                    (void)set_config_option("lock_timeout", kept, PGC_USERSET, PGC_S_SESSION,
                                            GUC_ACTION_LOCAL, true, 0, false);
                });
            return;
        }
        deadlocks = outcome == Attempt::kDeadlocked ? deadlocks + 1 : 0;
        if (deadlocks == kDeadlockAttempts)
            throw pg::PgError(ERRCODE_T_R_DEADLOCK_DETECTED,
                              "archiving gave way to sessions that wait for it",
                              fmt::format("{} attempts in a row to lock the tables to swap "
                                          "archives in ended in a deadlock with a session that "
                                          "waits for this archiving's locks.",
                                          kDeadlockAttempts),
                              "Archive again: nothing of this archiving was kept.");
    }
    throw pg::PgError(ERRCODE_LOCK_NOT_AVAILABLE,
                      fmt::format("could not lock the tables to swap archives in after {} attempts",
                                  kLockAttempts),
                      "Other sessions held locks on them every time.",
                      "Archive again when the tables are less busy.");
}

} // namespace

void GiveWayInDeadlocks()
{
    if (DeadlockTimeout <= kGiveWayMs)
        return;
    /* deadlock_timeout is superuser-only: set here on archiving's own behalf, to the end of the
     * transaction */
    (void)set_config_option("deadlock_timeout", std::to_string(kGiveWayMs).c_str(), PGC_SUSET,
                            PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0, false);
}

void AddPreparedSwap(PreparedSwap swap)
{
    static bool listening = false;
    if (!listening)
    {
        pg::CallPg(
            []
            {
                RegisterXactCallback(OnXact, nullptr);
                RegisterSubXactCallback(OnSubXact, nullptr);
            });
        listening = true;
    }
    int level = pg::CallPg([] { return GetCurrentTransactionNestLevel(); });
    held.push_back(Held{std::move(swap), level});
}

std::vector<Oid> SwapPrepared()
{
    std::vector<Oid> foreign_tables;
    std::vector<Oid> relations = RelationsToLock();
    if (relations.empty())
        return foreign_tables;
    LockForSwap(relations);
    pg::CallPg([] { CrashPoint("before_swap"); });
    for (auto &h : held)
    {
        if (h.swapped)
            continue;
        pg::CallPg([&] { ExecuteStatements(h.swap.statements); });
        h.swapped = true;
        foreign_tables.push_back(pg::CallPg(
            [&] { return get_relname_relid(h.swap.foreign_table.c_str(), h.swap.namespace_oid); }));
    }
    pg::CallPg([] { CrashPoint("after_swap"); });
    return foreign_tables;
}

} // namespace permanode::fdw

/* permanode.archive_swap_prepared() returns regclass[]: the foreign partitions of the archives
 * this transaction prepared (permanode.archive_prepare), swapped in now. */
extern "C" Datum permanode_archive_swap_prepared(PG_FUNCTION_ARGS)
{
    return permanode::fdw::GuardedArchive(
        nullptr,
        []() -> Datum
        {
            std::vector<Datum> tables;
            for (Oid relid : permanode::fdw::SwapPrepared())
                tables.push_back(ObjectIdGetDatum(relid));
            return permanode::pg::CallPg(
                [&]
                {
                    return PointerGetDatum(
                        construct_array(tables.data(), static_cast<int>(tables.size()), REGCLASSOID,
                                        sizeof(Oid), true, TYPALIGN_INT));
                });
        });
}
