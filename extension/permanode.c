/*
 * permanode.c
 *	  Module entry point of the permanode extension: module magic and GUC registration.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void _PG_init(void);

/* Registers the extension's settings; later components add theirs here. */
void _PG_init(void)
{
    MarkGUCPrefixReserved("permanode");
}
