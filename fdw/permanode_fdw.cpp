/*
 * permanode_fdw.cpp
 *	  Module entry point of permanode_fdw: module magic and GUC registration.
 */
extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

    PG_MODULE_MAGIC;

    void _PG_init(void);
}

/* Registers the wrapper's settings; later components add theirs here. */
extern "C" void _PG_init(void)
{
    MarkGUCPrefixReserved("permanode_fdw");
}
