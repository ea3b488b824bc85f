/*
 * permanode.c
 *	  Module entry point of the permanode extension: module magic and settings.
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include <limits.h>

#include "permanode.h"

PG_MODULE_MAGIC;

void _PG_init(void);

/* permanode.bech32_hrp: the network's human-readable part for address text I/O. */
char *permanode_bech32_hrp = NULL;
/* permanode.defer_hint_counts and permanode.hint_counts_max_delay: see ledger/hint_counts.hpp. */
bool permanode_defer_hint_counts = false;
int permanode_hint_counts_max_delay = 60;
/* permanode.debug_commit_delay: a test hook, see DelayCommit. */
static int permanode_debug_commit_delay = 0;

static bool CheckBech32Hrp(char **newval, void **extra, GucSource source)
{
    if (permanode_is_known_hrp(*newval))
        return true;
    GUC_check_errdetail("Known human-readable parts are iota, atoi, smr and rms.");
    return false;
}

/*
 * A test hook: a committing transaction sleeps permanode.debug_commit_delay milliseconds after
 * its commit became visible to other sessions and before it sends its invalidation messages
 * (transaction callbacks run in between), which holds open the moment in which another session
 * can find a new partition that its partition descriptor still lacks. Interrupts are held while
 * committing, so the sleep is bounded by the setting's maximum.
 */
static void DelayCommit(XactEvent event, void *arg)
{
    TimestampTz end;
    TimestampTz now;

    if (event != XACT_EVENT_COMMIT || permanode_debug_commit_delay <= 0)
        return;
    /* a signal (a latch set, a catchup request) cuts pg_usleep short */
    end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), permanode_debug_commit_delay);
    while ((now = GetCurrentTimestamp()) < end)
        pg_usleep(end - now);
}

void _PG_init(void)
{
    DefineCustomStringVariable(
        "permanode.bech32_hrp", "Human-readable part of bech32 addresses (the network).",
        "permanode.init() sets it on the database: smr for Shimmer, iota "
        "for IOTA, rms and atoi for their test networks.",
        &permanode_bech32_hrp, "smr", PGC_USERSET, 0, CheckBech32Hrp, NULL, NULL);
    DefineCustomBoolVariable(
        "permanode.partition_hints",
        "Use the hint and locator tables to prune partitions of keyed lookups.",
        "Turn off only to compare plans: lookups then probe every partition.",
        &permanode_partition_hints, true, PGC_USERSET, 0, NULL, NULL, NULL);
    DefineCustomBoolVariable("permanode.range_scan",
                             "Read keyed lookups on ledger tables range by range at execution.",
                             "Off: hints are applied at plan time instead, per key (custom plans).",
                             &permanode_range_scan, true, PGC_USERSET, 0, NULL, NULL, NULL);
    DefineCustomBoolVariable(
        "permanode.defer_hint_counts",
        "Let ingest_milestone add a hint's row count to a sum kept by this session instead of "
        "updating the hint row, when the row is known to exist.",
        "The sums are written back every 256 milestones, once the oldest has waited "
        "permanode.hint_counts_max_delay, and by permanode.flush_hint_counts(); until then "
        "row_count is a lower bound. permanode ingest turns it on.",
        &permanode_defer_hint_counts, false, PGC_USERSET, 0, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "permanode.hint_counts_max_delay",
        "How long a deferred hint row count may wait before ingest writes it back.",
        "The next milestone ingested after the oldest sum has waited this long writes the sums "
        "back: it bounds how far behind row_count lags while ingest follows a node.",
        &permanode_hint_counts_max_delay, 60, 0, INT_MAX / 1000, PGC_USERSET, GUC_UNIT_S, NULL,
        NULL, NULL);
    DefineCustomIntVariable("permanode.debug_commit_delay",
                            "Test hook: sleep between a commit becoming visible and its "
                            "invalidation messages being sent.",
                            NULL, &permanode_debug_commit_delay, 0, 0, 10000, PGC_SUSET,
                            GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
    RegisterXactCallback(DelayCommit, NULL);
    MarkGUCPrefixReserved("permanode");
    permanode_install_partition_hints();
    permanode_install_range_scan();
}
