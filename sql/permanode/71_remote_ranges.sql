
-------------------------------------------------------------------------------------------------
-- Remote ranges: old milestone ranges moved to another PostgreSQL node that runs permanode, and
-- served back from there as postgres_fdw foreign partitions. The other node holds each range it
-- keeps for us in its own ledger table (hot, or archived into its own cold tier) and shows it as
-- the view permanode_remote.<partition name>, which our foreign partition reads; sync, hints and
-- locators stay here, so a keyed lookup reads a remote range only when the hints name it.
--
-- A move runs as a procedure, one range at a time, in steps that each commit, so a crash of
-- either node leaves every row readable exactly once and the move can be run again:
--   1. the other node makes the range's partition and its view (remote_hold) and says what it
--      holds: rows and checksum (relation_checksum);
--   2. unless it holds exactly our rows already (a move that died after this step), the rows are
--      copied to it through postgres_fdw; the copy commits on both nodes or on neither, but for a
--      crash between the two commits, which leaves a copy there that nothing here reads;
--   3. rows and checksums compared again, our partition is swapped for the foreign one in one
--      transaction.
-- Bringing a range back runs the same steps the other way, then drops the other node's copy.
-- Needs the postgres_fdw and dblink extensions (PostgreSQL's own) and a user mapping for the
-- server whose role may make partitions there; superuser only.
-------------------------------------------------------------------------------------------------

-- Where a node shows the ranges it holds for another: a view per range, named like the partition.
CREATE SCHEMA permanode_remote;
COMMENT ON SCHEMA permanode_remote IS
    'on a node holding ranges for another permanode: one view per range, named like its partition';

CREATE TABLE @extschema@.remote_ranges (
    table_name name NOT NULL,
    ms_range_id int NOT NULL,
    server name NOT NULL,
    rows bigint NOT NULL,      -- counted on both nodes at the move
    checksum text NOT NULL,    -- relation_checksum on both nodes at the move
    bytes bigint,              -- the range's partition on the other node, at the move
    moved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, ms_range_id)
);
COMMENT ON TABLE @extschema@.remote_ranges IS
    'ranges moved to other nodes by attach_remote: server, rows, checksum and bytes at the move';
-- (a fresh install grants it with every table in 80_init_roles.sql; an upgrade here)
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'permanode_reader') THEN
        GRANT USAGE ON SCHEMA permanode_remote TO permanode_reader;
        GRANT SELECT ON @extschema@.remote_ranges TO permanode_reader;
    END IF;
END
$$;
SELECT pg_extension_config_dump('@extschema@.remote_ranges', '');

-- Rows and a checksum of a relation's rows, independent of their order: "rows:sum of a 64-bit
-- hash of each row's text". Equal on two nodes of the same permanode version for the same rows.
CREATE OR REPLACE FUNCTION @extschema@.relation_checksum(rel regclass) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    result text;
BEGIN
    EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(hashtextextended(t::text, 0)), 0) FROM %s t', rel)
        INTO result;
    RETURN result;
END
$$;

-- On the node that holds a range for another: makes the range's partition (if missing) and its
-- view; with `empty`, first removes rows left by an earlier move. Returns the view's checksum.
CREATE OR REPLACE FUNCTION @extschema@.remote_hold(table_name name, ms_range_id int, empty boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    part name := @extschema@.partition_name(table_name, ms_range_id);
    held regclass;
BEGIN
    PERFORM @extschema@.create_partition(table_name, ms_range_id);
    IF empty THEN
        held := to_regclass(format('@extschema@.%I', part));
        IF held IS NULL OR (SELECT relkind FROM pg_class WHERE oid = held) <> 'r' THEN
            RAISE EXCEPTION 'range % of % is not hot on this node: cannot replace its rows', ms_range_id, table_name
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        EXECUTE format('TRUNCATE %s', held);
    END IF;
    EXECUTE format('CREATE OR REPLACE VIEW permanode_remote.%I AS SELECT * FROM @extschema@.%I WHERE ms_range_id = %s',
                   part, table_name, ms_range_id);
    -- the other node's user mapping may log in as a reader
    EXECUTE format('GRANT SELECT ON permanode_remote.%I TO permanode_reader', part);
    RETURN @extschema@.relation_checksum(format('permanode_remote.%I', part)::regclass);
END
$$;

-- On the node that held a range for another, once it is back there: drops the view and the
-- range's partition (an archived one stays: restore or drop it here by hand).
CREATE OR REPLACE FUNCTION @extschema@.remote_release(table_name name, ms_range_id int)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    part name := @extschema@.partition_name(table_name, ms_range_id);
    held regclass := to_regclass(format('@extschema@.%I', part));
BEGIN
    EXECUTE format('DROP VIEW IF EXISTS permanode_remote.%I', part);
    IF held IS NOT NULL AND (SELECT relkind FROM pg_class WHERE oid = held) = 'r' THEN
        EXECUTE format('DROP TABLE %s', held);
        RETURN 'dropped';
    END IF;
    RETURN CASE WHEN held IS NULL THEN 'absent' ELSE 'kept (archived)' END;
END
$$;

-- Runs `sql` on the server's node (through dblink, as the user mapping says) and returns its
-- single text value; an error names the node.
CREATE OR REPLACE FUNCTION @extschema@.remote_call(server name, sql text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    dblink_schema name := (SELECT n.nspname FROM pg_extension e
                           JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink');
    result text;
BEGIN
    IF dblink_schema IS NULL THEN
        RAISE EXCEPTION 'remote ranges need the dblink extension'
            USING ERRCODE = 'feature_not_supported', HINT = 'CREATE EXTENSION dblink;';
    END IF;
    EXECUTE format('SELECT v FROM %I.dblink(%L, %L) AS r(v text)', dblink_schema, server, sql) INTO result;
    RETURN result;
EXCEPTION WHEN OTHERS THEN
    RAISE EXCEPTION 'remote node "%" (%): %', server, @extschema@.remote_address(server), SQLERRM
        USING ERRCODE = SQLSTATE;
END
$$;

-- A server's host, port and database, for messages.
CREATE OR REPLACE FUNCTION @extschema@.remote_address(server name) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(o.option_name || '=' || o.option_value, ' ' ORDER BY o.option_name), 'no address')
    FROM pg_foreign_server s CROSS JOIN LATERAL pg_options_to_table(s.srvoptions) o
    WHERE s.srvname = $1 AND o.option_name IN ('host', 'port', 'dbname')
$$;

-- Test hook: with permanode.debug_remote_pause = 'step:seconds', a move logs "paused at step"
-- with its process ID and sleeps that long there (a test kills a node meanwhile).
CREATE OR REPLACE FUNCTION @extschema@.remote_step(step text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    pause text := current_setting('permanode.debug_remote_pause', true);
BEGIN
    IF split_part(pause, ':', 1) = step THEN
        RAISE LOG 'permanode: paused at % (pid %)', step, pg_backend_pid();
        PERFORM pg_sleep(split_part(pause, ':', 2)::float8);
    END IF;
END
$$;

-- The ranges a move works on: each ledger table's (all but sync, or the one named) partitions of
-- the given tier in [from_range, to_range), checked like archive() checks them.
CREATE OR REPLACE FUNCTION @extschema@.remote_move_ranges(table_or_all text, from_range int, to_range int,
                                                          tier text)
RETURNS TABLE (table_name name, ms_range_id int, server name)
LANGUAGE plpgsql AS $$
DECLARE
    newest int;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR from_range < 0 OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Ranges are ms_range_id values, from_range included, to_range excluded.';
    END IF;
    IF table_or_all IS DISTINCT FROM 'all' AND NOT EXISTS (
            SELECT 1 FROM @extschema@.ledger_tables l WHERE l.table_name = table_or_all AND l.table_name <> 'sync') THEN
        RAISE EXCEPTION '"%" is not a ledger table that can move', table_or_all
            USING ERRCODE = 'undefined_table',
                  HINT = 'Name a table of permanode.ledger_tables other than sync, or ''all''.';
    END IF;
    FOR table_name IN SELECT l.table_name FROM @extschema@.ledger_tables l
                      WHERE l.table_name <> 'sync' AND table_or_all IN ('all', l.table_name) LOOP
        newest := @extschema@.newest_archivable_range(table_name);
        IF tier = 'hot' AND (newest IS NULL OR to_range - 1 > newest) THEN
            RAISE EXCEPTION 'cannot move range % of %: ingest may still write it', to_range - 1, table_name
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Move only ranges below the range of the newest synced milestone.';
        END IF;
    END LOOP;
    RETURN QUERY
    SELECT l.table_name, p.ms_range_id, p.server
    FROM @extschema@.ledger_tables l
    JOIN @extschema@.partitions p ON p.table_name = format('@extschema@.%I', l.table_name)::regclass
    WHERE l.table_name <> 'sync' AND table_or_all IN ('all', l.table_name) AND p.tier = remote_move_ranges.tier
      AND p.ms_range_id >= from_range AND p.ms_range_id < to_range
      AND p.ms_range_id <> @extschema@.pending_range()
    ORDER BY l.table_name, p.ms_range_id;
END
$$;

-- (Re)makes permanode_remote.<partition>, the foreign table reading a range's view on the
-- server's node: the target of the copy, and the partition once swapped in. Rows travel in
-- batches of 1000 and come back 128 at a time, the first batch of a Range Scan's read.
CREATE OR REPLACE FUNCTION @extschema@.stage_remote_table(table_name name, ms_range_id int, server name)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    part name := @extschema@.partition_name(table_name, ms_range_id);
    parent regclass := format('@extschema@.%I', table_name)::regclass;
    c record;
BEGIN
    IF to_regclass(format('permanode_remote.%I', part)) IS NOT NULL THEN
        EXECUTE format('DROP FOREIGN TABLE permanode_remote.%I', part);
    END IF;
    EXECUTE format('CREATE FOREIGN TABLE permanode_remote.%I (%s) SERVER %I OPTIONS (schema_name %L, table_name %L, batch_size %L, fetch_size %L)',
                   part,
                   (SELECT string_agg(format('%I %s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                                             CASE WHEN a.attnotnull THEN ' NOT NULL' END), ', ' ORDER BY a.attnum)
                    FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum > 0 AND NOT a.attisdropped),
                   server, 'permanode_remote', part, '1000', '128');
    -- a partition carries its parent's checks (on a foreign table, a promise the planner trusts)
    FOR c IN SELECT k.conname, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k
             WHERE k.conrelid = parent AND k.contype = 'c' LOOP
        EXECUTE format('ALTER FOREIGN TABLE permanode_remote.%I ADD CONSTRAINT %I %s', part, c.conname, c.def);
    END LOOP;
END
$$;

-- Moves the hot ranges [from_range, to_range) of one ledger table (or 'all' but sync) to the
-- node of `server` (a postgres_fdw server) and attaches them as foreign partitions. Empty ranges
-- stay. Re-runnable: ranges already moved are skipped, a move cut short is finished.
CREATE OR REPLACE PROCEDURE @extschema@.attach_remote(table_or_all text, from_range int, to_range int,
                                                      server name)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    part name;
    staged text;
    extensions text;
    here text;
    there text;
    bytes bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
                   WHERE s.srvname = server AND w.fdwname = 'postgres_fdw') THEN
        RAISE EXCEPTION 'server "%" is not a postgres_fdw server', server
            USING ERRCODE = 'undefined_object',
                  HINT = 'CREATE EXTENSION postgres_fdw; CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw; and a user mapping.';
    END IF;
    -- postgres_fdw sends our types' operators to the other node only for extensions it names
    SELECT o.option_value INTO extensions FROM pg_foreign_server s, pg_options_to_table(s.srvoptions) o
    WHERE s.srvname = server AND o.option_name = 'extensions';
    IF extensions IS NULL THEN
        EXECUTE format('ALTER SERVER %I OPTIONS (ADD extensions %L)', server, 'permanode');
    ELSIF NOT 'permanode' = ANY (string_to_array(replace(extensions, ' ', ''), ',')) THEN
        EXECUTE format('ALTER SERVER %I OPTIONS (SET extensions %L)', server, extensions || ',permanode');
    END IF;
    FOR r IN SELECT * FROM @extschema@.remote_move_ranges(table_or_all, from_range, to_range, 'hot') LOOP
        part := @extschema@.partition_name(r.table_name, r.ms_range_id);
        staged := format('permanode_remote.%I', part);
        here := @extschema@.relation_checksum(format('@extschema@.%I', part)::regclass);
        CONTINUE WHEN here LIKE '0:%';
        IF (SELECT chunk_size FROM @extschema@.ledger_tables l WHERE l.table_name = r.table_name)::text
           <> @extschema@.remote_call(server, format('SELECT chunk_size::text FROM permanode.ledger_tables WHERE table_name = %L', r.table_name)) THEN
            RAISE EXCEPTION 'the chunk size of % differs on server "%"', r.table_name, server
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Give both nodes the same chunk sizes (permanode.set_chunk_size).';
        END IF;
        -- 1. the other node's partition and view
        there := @extschema@.remote_call(server, format('SELECT permanode.remote_hold(%L, %s)', r.table_name, r.ms_range_id));
        PERFORM @extschema@.remote_step('held');
        -- 2. the copy, unless it is there already
        IF there <> here THEN
            IF there NOT LIKE '0:%' THEN
                there := @extschema@.remote_call(server, format('SELECT permanode.remote_hold(%L, %s, true)', r.table_name, r.ms_range_id));
            END IF;
            PERFORM @extschema@.stage_remote_table(r.table_name, r.ms_range_id, server);
            EXECUTE format('INSERT INTO %s SELECT * FROM @extschema@.%I', staged, part);
            PERFORM @extschema@.remote_step('copied');
            COMMIT;
            PERFORM @extschema@.remote_step('committed');
        END IF;
        -- 3. compared again, under a lock that keeps our rows as they are, and swapped
        EXECUTE format('LOCK TABLE @extschema@.%I IN SHARE MODE', part);
        here := @extschema@.relation_checksum(format('@extschema@.%I', part)::regclass);
        there := @extschema@.remote_call(server, format('SELECT permanode.relation_checksum(%L)', staged));
        IF there <> here THEN
            RAISE EXCEPTION 'range % of % differs on server "%" after the copy', r.ms_range_id, r.table_name, server
                USING ERRCODE = 'data_corrupted',
                      DETAIL = format('Here %s, there %s (rows:checksum).', here, there),
                      HINT = 'Run attach_remote again: it copies the range anew.';
        END IF;
        bytes := @extschema@.remote_call(server, format('SELECT pg_total_relation_size(%L)', 'permanode.' || quote_ident(part)))::bigint;
        PERFORM @extschema@.stage_remote_table(r.table_name, r.ms_range_id, server);
        EXECUTE format('ALTER TABLE @extschema@.%I DETACH PARTITION @extschema@.%I', r.table_name, part);
        EXECUTE format('DROP TABLE @extschema@.%I', part);
        EXECUTE format('ALTER FOREIGN TABLE %s SET SCHEMA @extschema@', staged);
        EXECUTE format('ALTER TABLE @extschema@.%I ATTACH PARTITION @extschema@.%I FOR VALUES FROM (%s) TO (%s)',
                       r.table_name, part, r.ms_range_id, r.ms_range_id + 1);
        INSERT INTO @extschema@.remote_ranges (table_name, ms_range_id, server, rows, checksum, bytes)
        VALUES (r.table_name, r.ms_range_id, server, split_part(here, ':', 1)::bigint, here, bytes);
        PERFORM @extschema@.remote_step('swapped');
        COMMIT;
        RAISE NOTICE 'range % of % (% rows) now on server "%"', r.ms_range_id, r.table_name, split_part(here, ':', 1), server;
    END LOOP;
END
$$;
COMMENT ON PROCEDURE @extschema@.attach_remote(text, int, int, name) IS
    'moves hot ranges [from_range, to_range) of a ledger table (or all) to a postgres_fdw server''s permanode node and attaches them as foreign partitions';

-- Brings the remote ranges [from_range, to_range) of one ledger table (or 'all') back into hot
-- partitions, then drops the other node's copies. Re-runnable like attach_remote.
CREATE OR REPLACE PROCEDURE @extschema@.detach_remote(table_or_all text, from_range int, to_range int)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    part name;
    incoming text;
    here text;
    there text;
    released text;
BEGIN
    FOR r IN SELECT * FROM @extschema@.remote_move_ranges(table_or_all, from_range, to_range, 'remote') LOOP
        part := @extschema@.partition_name(r.table_name, r.ms_range_id);
        incoming := format('permanode_remote.%I', part || '_incoming');
        there := @extschema@.remote_call(r.server, format('SELECT permanode.relation_checksum(%L)', 'permanode_remote.' || quote_ident(part)));
        -- 1. the copy, into a table beside the ledger, unless it is there already
        EXECUTE format('CREATE TABLE IF NOT EXISTS %s (LIKE @extschema@.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                       incoming, r.table_name);
        IF @extschema@.relation_checksum(incoming::regclass) <> there THEN
            EXECUTE format('TRUNCATE %s', incoming);
            EXECUTE format('INSERT INTO %s SELECT * FROM ONLY @extschema@.%I', incoming, part);
            PERFORM @extschema@.remote_step('copied');
            COMMIT;
            PERFORM @extschema@.remote_step('committed');
        END IF;
        -- 2. compared again and swapped
        here := @extschema@.relation_checksum(incoming::regclass);
        there := @extschema@.remote_call(r.server, format('SELECT permanode.relation_checksum(%L)', 'permanode_remote.' || quote_ident(part)));
        IF there <> here THEN
            RAISE EXCEPTION 'range % of % differs here after the copy from server "%"', r.ms_range_id, r.table_name, r.server
                USING ERRCODE = 'data_corrupted',
                      DETAIL = format('Here %s, there %s (rows:checksum).', here, there),
                      HINT = 'Run detach_remote again: it copies the range anew.';
        END IF;
        EXECUTE format('ALTER TABLE @extschema@.%I DETACH PARTITION @extschema@.%I', r.table_name, part);
        EXECUTE format('DROP FOREIGN TABLE @extschema@.%I', part);
        EXECUTE format('ALTER TABLE %s SET SCHEMA @extschema@', incoming);
        EXECUTE format('ALTER TABLE @extschema@.%I RENAME TO %I', part || '_incoming', part);
        EXECUTE format('CREATE UNIQUE INDEX %I ON @extschema@.%I (%s)', part || '_key', part,
                       (SELECT string_agg(quote_ident(c), ', ') FROM @extschema@.ledger_tables l, unnest(l.unique_columns) c
                        WHERE l.table_name = r.table_name));
        EXECUTE format('ALTER TABLE @extschema@.%I ATTACH PARTITION @extschema@.%I FOR VALUES FROM (%s) TO (%s)',
                       r.table_name, part, r.ms_range_id, r.ms_range_id + 1);
        DELETE FROM @extschema@.remote_ranges m WHERE m.table_name = r.table_name AND m.ms_range_id = r.ms_range_id;
        PERFORM @extschema@.remote_step('swapped');
        COMMIT;
        -- 3. the other node's copy
        PERFORM @extschema@.remote_step('back');
        BEGIN
            released := @extschema@.remote_call(r.server, format('SELECT permanode.remote_release(%L, %s)', r.table_name, r.ms_range_id));
        EXCEPTION WHEN OTHERS THEN
            RAISE WARNING 'range % of % is back, but its copy on server "%" was not dropped: %', r.ms_range_id, r.table_name, r.server, SQLERRM
                USING HINT = format('On that node: SELECT permanode.remote_release(%L, %s);', r.table_name, r.ms_range_id);
        END;
        RAISE NOTICE 'range % of % (% rows) back from server "%" (its copy there: %)', r.ms_range_id, r.table_name,
            split_part(here, ':', 1), r.server, coalesce(released, 'left');
    END LOOP;
END
$$;
COMMENT ON PROCEDURE @extschema@.detach_remote(text, int, int) IS
    'brings remote ranges [from_range, to_range) of a ledger table (or all) back into hot partitions';

REVOKE ALL ON FUNCTION @extschema@.relation_checksum(regclass), @extschema@.remote_hold(name, int, boolean),
    @extschema@.remote_release(name, int), @extschema@.remote_call(name, text),
    @extschema@.remote_step(text), @extschema@.remote_move_ranges(text, int, int, text),
    @extschema@.stage_remote_table(name, int, name), @extschema@.remote_address(name) FROM PUBLIC;
REVOKE ALL ON PROCEDURE @extschema@.attach_remote(text, int, int, name),
    @extschema@.detach_remote(text, int, int) FROM PUBLIC;
