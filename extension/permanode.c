/*
 * permanode.c
 *	  Module entry point of the permanode extension: module magic and settings.
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "lookup/lookup.h"
#include "permanode.h"

PG_MODULE_MAGIC;

void _PG_init(void);

/* permanode.bech32_hrp: the network's human-readable part for address text I/O. */
char *permanode_bech32_hrp = NULL;
/* permanode.range_scan: keyed lookups through the Permanode Range Scan (lookup/). */
bool permanode_range_scan = true;
/* permanode.debug_commit_delay: a test hook, see DelayCommit. */
static int permanode_debug_commit_delay = 0;
/* permanode.debug_remote_pause: a test hook, see permanode.remote_step (71_remote_ranges.sql). */
static char *permanode_debug_remote_pause = NULL;

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
        "permanode.range_scan", "Read keyed lookups on ledger tables range by range at execution.",
        "On, a lookup by a keyed column opens only the partitions holding the key (see "
        "permanode.partition_hints). Turn off only to compare: lookups then probe every partition.",
        &permanode_range_scan, true, PGC_USERSET, 0, NULL, NULL, NULL);
    DefineCustomIntVariable("permanode.debug_commit_delay",
                            "Test hook: sleep between a commit becoming visible and its "
                            "invalidation messages being sent.",
                            NULL, &permanode_debug_commit_delay, 0, 0, 10000, PGC_SUSET,
                            GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
    DefineCustomStringVariable("permanode.debug_remote_pause",
                               "Test hook: pause a move of remote ranges at a step, as "
                               "'step:seconds' (see permanode.remote_step).",
                               NULL, &permanode_debug_remote_pause, "", PGC_SUSET,
                               GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
    RegisterXactCallback(DelayCommit, NULL);
    MarkGUCPrefixReserved("permanode");
    permanode_install_hint_catalog();
    permanode_install_range_scan();
}
