/*
 * permanode.h
 *	  Settings and entry points shared across the permanode extension's files.
 */
#ifndef PERMANODE_H
#define PERMANODE_H

/* in permanode.c */
extern char *permanode_bech32_hrp;


/* in partition_hints.c */
extern bool permanode_partition_hints;
extern void permanode_install_partition_hints(void);

/* in types/address.cpp */
extern bool permanode_is_known_hrp(const char *hrp);

#endif /* PERMANODE_H */
