/*
 * permanode.c
 *	  Module entry point of the permanode extension: module magic and settings.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include <limits.h>

#include "permanode.h"

PG_MODULE_MAGIC;

void _PG_init(void);

/* permanode.bech32_hrp: the network's human-readable part for address text I/O. */
char *permanode_bech32_hrp = NULL;
/* permanode.defer_hint_counts and permanode.hint_counts_max_delay: see ledger/hint_counts.hpp. */
bool permanode_defer_hint_counts = false;
int permanode_hint_counts_max_delay = 60;

static bool CheckBech32Hrp(char **newval, void **extra, GucSource source)
{
    if (permanode_is_known_hrp(*newval))
        return true;
    GUC_check_errdetail("Known human-readable parts are iota, atoi, smr and rms.");
    return false;
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
    MarkGUCPrefixReserved("permanode");
    permanode_install_partition_hints();
    permanode_install_range_scan();
}
