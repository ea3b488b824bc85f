-- The extension's schema comment and build information.
COMMENT ON SCHEMA @extschema@ IS 'permanode: IOTA ledger archive';

CREATE OR REPLACE FUNCTION @extschema@.build_info() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_build_info'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.build_info() IS 'version and build details of the permanode extension';
