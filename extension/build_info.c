/*
 * build_info.c
 *	  permanode.build_info(): what was built, against what, so that operators and bug
 *	  reports can tell which binary a database is running.
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "permanode_version.h"

PG_FUNCTION_INFO_V1(permanode_build_info);

/* Returns a jsonb object with the extension version and the PostgreSQL it was compiled for. */
Datum permanode_build_info(PG_FUNCTION_ARGS)
{
    StringInfoData buf;

    initStringInfo(&buf);
    appendStringInfo(&buf,
                     "{\"extension\": \"permanode\", \"version\": \"%s\", "
                     "\"pg_version_num\": %d, \"pg_major\": %d, \"compiler\": \"%s\"}",
                     PERMANODE_VERSION, PG_VERSION_NUM, PG_VERSION_NUM / 10000, PERMANODE_COMPILER);
    PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
