-- permanode_fdw's build information, handler and validator.
CREATE OR REPLACE FUNCTION @extschema@.fdw_build_info() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_fdw_build_info'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.fdw_build_info() IS 'version of permanode_fdw and of the RocksDB library it runs on';

-- The handler and validator of the wrapper (../schema/20_server.sql).
CREATE OR REPLACE FUNCTION @extschema@.fdw_handler() RETURNS fdw_handler
    AS 'MODULE_PATHNAME', 'permanode_fdw_handler'
    LANGUAGE C STRICT;
CREATE OR REPLACE FUNCTION @extschema@.fdw_validator(text[], oid) RETURNS void
    AS 'MODULE_PATHNAME', 'permanode_fdw_validator'
    LANGUAGE C STRICT;
