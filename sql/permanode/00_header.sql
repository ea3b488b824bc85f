-- permanode install script (sql/permanode/*.sql joined into permanode--<version>.sql by sql/CMakeLists.txt).
\echo Use "CREATE EXTENSION permanode CASCADE" to load this file. \quit

COMMENT ON SCHEMA @extschema@ IS 'permanode: IOTA ledger archive';

CREATE FUNCTION @extschema@.build_info() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_build_info'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.build_info() IS 'version and build details of the permanode extension';
