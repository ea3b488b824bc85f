-- ingest_test.empty_ledger(): truncates every table of the ledger (not its catalog), so that a
-- test can ingest again from nothing. Expects the ingest_test schema (fixtures.sql).
CREATE FUNCTION ingest_test.empty_ledger() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    t text;
BEGIN
    FOR t IN SELECT c.relname FROM pg_class c
             WHERE c.relnamespace = 'permanode'::regnamespace AND c.relkind IN ('r', 'p')
               AND NOT c.relispartition
               AND c.relname NOT IN ('ledger_tables', 'settings', 'partition_hints') LOOP
        EXECUTE format('TRUNCATE permanode.%I', t);
    END LOOP;
END
$$;
