/*
 * build_info.cpp
 *	  permanode.fdw_build_info(): the wrapper's version and the RocksDB library it is linked to,
 *	  read from the library at run time so that a mismatched librocksdb.so shows up here.
 */
#include <string>

#include <fmt/format.h>
#include <rocksdb/version.h>

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "permanode_version.h"

    PG_FUNCTION_INFO_V1(permanode_fdw_build_info);
}

#include "pgcpp/guard.hpp"

/* Returns a jsonb object with the wrapper version and the RocksDB versions (headers and library).
 */
extern "C" Datum permanode_fdw_build_info(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            std::string json = fmt::format(
                R"({{"extension": "permanode_fdw", "version": "{}", "rocksdb_headers": "{}.{}.{}", )"
                R"("rocksdb_library": "{}"}})",
                PERMANODE_VERSION, ROCKSDB_MAJOR, ROCKSDB_MINOR, ROCKSDB_PATCH,
                rocksdb::GetRocksVersionAsString(true));
            return permanode::pg::CallPg(
                [&] { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json.c_str())); });
        });
}
