
-------------------------------------------------------------------------------------------------
-- Initialization and roles.
-------------------------------------------------------------------------------------------------

-- Sets the network of this archive (its bech32 HRP) and puts the permanode schema on the
-- database's search path, so that `WHERE address = 'smr1...'` finds our types and operators.
-- Idempotent; takes effect in new sessions (and in this one).
CREATE OR REPLACE FUNCTION @extschema@.init(network text DEFAULT 'shimmer') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    hrp text := CASE network WHEN 'shimmer' THEN 'smr' WHEN 'iota' THEN 'iota'
                             WHEN 'testnet' THEN 'rms' WHEN 'shimmer-testnet' THEN 'rms'
                             WHEN 'iota-testnet' THEN 'atoi' END;
BEGIN
    IF hrp IS NULL THEN
        RAISE EXCEPTION 'unknown network "%"', network
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Known networks are shimmer, iota, testnet (shimmer testnet) and iota-testnet.';
    END IF;
    INSERT INTO @extschema@.settings VALUES ('network', network), ('bech32_hrp', hrp)
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
    EXECUTE format('ALTER DATABASE %I SET permanode.bech32_hrp = %L', current_database(), hrp);
    EXECUTE format('ALTER DATABASE %I SET search_path = "$user", public, @extschema@', current_database());
    PERFORM set_config('permanode.bech32_hrp', hrp, false);
    PERFORM set_config('search_path', '"$user", public, @extschema@', false);
    RETURN hrp;
END
$$;
COMMENT ON FUNCTION @extschema@.init(text) IS
    'sets the network (bech32 HRP) and the search path of this database; idempotent';

-- Least-privilege roles, shared by the databases of the cluster:
--   permanode_reader  reads everything users read (the HTTP API logs in as a reader)
--   permanode_writer  ingests milestones (through the ingest functions only)
--   permanode_admin   runs maintenance: partitions, chunk sizes, archive, restore, expiry
DO $$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['permanode_reader', 'permanode_writer', 'permanode_admin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        END IF;
    END LOOP;
END
$$;
GRANT permanode_reader TO permanode_writer;
GRANT permanode_reader TO permanode_admin;

GRANT USAGE ON SCHEMA @extschema@, permanode_remote TO permanode_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA @extschema@ TO permanode_reader;

-- A reader adds nothing to the database: PostgreSQL lets every role make large objects (rows
-- that stay), so only the writer and the admin may. (Temporary tables end with the session:
-- readers keep them, for verify() and for BI tools.)
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer),
    pg_catalog.lo_from_bytea(oid, bytea), pg_catalog.lo_import(text),
    pg_catalog.lo_import(text, oid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer),
    pg_catalog.lo_from_bytea(oid, bytea) TO permanode_writer, permanode_admin;

-- Functions that change data or structure run with the extension owner's rights, with a fixed
-- search path, and only for the role that needs them.
DO $$
DECLARE
    f regprocedure;
    grantee text;
BEGIN
    FOR f, grantee IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname LIKE 'ingest%'
                    THEN 'permanode_writer'
                    WHEN p.proname = 'partition_rows' THEN 'permanode_reader' -- for the status view
                    ELSE 'permanode_admin' END
        FROM pg_proc p
        WHERE p.pronamespace = '@extschema@'::regnamespace
          AND p.proname IN ('ingest_milestone', 'premake', 'create_partition', 'ensure_partition',
                            'set_chunk_size',
                            'expire_pending', 'rollup_daily_analytics', 'init', 'archive',
                            'archive_table', 'prepare_table', 'swap_prepared', 'restore',
                            'restore_ranges', 'maintain', 'partition_rows',
                            'book_late_spends')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, grantee);
        IF grantee IN ('permanode_writer', 'permanode_reader') THEN
            NULL;
        ELSIF f::text LIKE '%premake%' OR f::text LIKE '%create_partition%'
              OR f::text LIKE '%ensure_partition%' THEN
            -- ingest makes the partitions of its milestone's range
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO permanode_writer', f);
        END IF;
    END LOOP;
END
$$;
