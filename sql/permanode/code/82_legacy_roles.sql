
-- The legacy era's rights, as the ledger's (80_init_roles.sql): readers read every table, the
-- writer ingests, the admin makes partitions, archives, restores, expires and configures; both
-- roll up the analytics.
GRANT USAGE ON SCHEMA legacy TO permanode_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA legacy TO permanode_reader;
DO $$
DECLARE
    f regprocedure;
    grantees text[];
BEGIN
    FOR f, grantees IN
        SELECT p.oid::regprocedure,
               CASE p.proname WHEN 'ingest' THEN '{permanode_writer}'
                              WHEN 'create_partition' THEN '{permanode_admin,permanode_writer}'
                              WHEN 'rollup_daily_analytics' THEN '{permanode_admin,permanode_writer}'
                              ELSE '{permanode_admin}' END::text[]
        FROM pg_proc p
        WHERE p.pronamespace = 'legacy'::regnamespace
          AND p.proname IN ('ingest', 'create_partition', 'archive', 'restore', 'expire_tags',
                            'configure', 'load_snapshot', 'rollup_daily_analytics')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %s', f,
                       (SELECT string_agg(quote_ident(g), ', ') FROM unnest(grantees) g));
    END LOOP;
END
$$;
