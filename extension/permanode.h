/*
 * permanode.h
 *	  Settings and entry points shared across the permanode extension's files.
 */
#ifndef PERMANODE_H
#define PERMANODE_H

#include "postgres.h"

/* in permanode.c */
extern char *permanode_bech32_hrp;
extern bool permanode_range_scan;

/* in types/address.cpp */
extern bool permanode_is_known_hrp(const char *hrp);

#endif /* PERMANODE_H */
