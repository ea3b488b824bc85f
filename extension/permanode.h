/*
 * permanode.h
 *	  Settings and entry points shared across the permanode extension's files.
 */
#ifndef PERMANODE_H
#define PERMANODE_H

#include "access/attnum.h"

/* in permanode.c */
extern char *permanode_bech32_hrp;
extern bool permanode_defer_hint_counts;
extern int permanode_hint_counts_max_delay;

/* in partition_hints.c */
extern bool permanode_partition_hints;
extern void permanode_install_partition_hints(void);
extern bool permanode_in_hint_query(void);
extern bool permanode_hint_lookup(Oid relid, AttrNumber attnum, AttrNumber *range_attnum);
extern bool permanode_hints_for(Oid relid);
extern int32 *permanode_hint_ranges_page(Oid relid, AttrNumber attnum, Datum value, bool descending,
                                         int64 after, int limit, int *n);

/* in range_scan.c */
extern bool permanode_range_scan;
extern void permanode_install_range_scan(void);

/* in types/address.cpp */
extern bool permanode_is_known_hrp(const char *hrp);

#endif /* PERMANODE_H */
