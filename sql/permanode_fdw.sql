-- permanode_fdw install script (copied to permanode_fdw--<version>.sql at build time).
\echo Use "CREATE EXTENSION permanode_fdw" to load this file. \quit

CREATE FUNCTION @extschema@.fdw_build_info() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_fdw_build_info'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.fdw_build_info() IS 'version of permanode_fdw and of the RocksDB library it runs on';
