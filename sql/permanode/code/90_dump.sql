
-- Between pg_restore's pre-data section (which runs CREATE EXTENSION, filling these tables with
-- their defaults) and its data section (which holds their dumped rows): empties them, so the
-- dump's rows are the only ones (the dumped sequences' values come with them). Refuses a database
-- that holds a ledger.
CREATE OR REPLACE FUNCTION @extschema@.prepare_restore() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    tables text;
    n int;
BEGIN
    IF EXISTS (SELECT 1 FROM @extschema@.sync) THEN -- (archived ranges may not be readable yet)
        RAISE EXCEPTION 'database "%" already holds a ledger', current_database()
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Restore a dump into a new database, after its pre-data section only.';
    END IF;
    SELECT string_agg(c.oid::regclass::text, ', '), count(*) INTO tables, n
    FROM pg_extension e CROSS JOIN LATERAL unnest(e.extconfig) cfg JOIN pg_class c ON c.oid = cfg
    WHERE e.extname = 'permanode' AND c.relkind IN ('r', 'p');
    IF n > 0 THEN
        EXECUTE 'TRUNCATE ' || tables; -- regclass output: quoted, schema-qualified names
    END IF;
    RETURN n;
END
$$;
COMMENT ON FUNCTION @extschema@.prepare_restore() IS
    'empty the extension''s own tables between pg_restore''s pre-data and data sections';
REVOKE ALL ON FUNCTION @extschema@.prepare_restore() FROM PUBLIC;
