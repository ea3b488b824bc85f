-- permanode 0.9.0 -> 0.10.0: remote ranges (old ranges on other permanode nodes, served back as
-- postgres_fdw foreign partitions) and the tier `remote` in permanode.partitions and
-- permanode.status; schema access (seed 001: delegations, subscriptions, consumers) and its
-- expiry in maintain(). This script is generated (sql/CMakeLists.txt): this part, then the install
-- script's parts that make what 0.10.0 adds or changes.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.10.0'" to load this file. \quit

-------------------------------------------------------------------------------------------------
-- Remote ranges: old milestone ranges moved to another PostgreSQL node that runs permanode, and
-- served back from there as postgres_fdw foreign partitions. Like an archive, one foreign
-- partition serves a run of adjacent ranges, so a keyed lookup sends one query to the node for
-- the hinted ranges it holds. The other node holds the ranges in its own ledger table (hot, or
-- archived into its own cold tier) and shows them as views in schema permanode_remote: one per
-- range (what a move copies and compares) and one per run (what our foreign partition reads).
-- Sync, hints and locators stay here, so a keyed lookup reads a remote range only when the hints
-- name it.
--
-- A move runs as a procedure, in steps that each commit, so that a crash of either node leaves
-- every row readable exactly once and the move can be run again:
--   1. the other node makes a range's partition and view (remote_hold) and says what it holds:
--      rows and checksum (relation_checksum);
--   2. unless it holds exactly our rows already (a move that died after this step), the range's
--      rows are copied to it through postgres_fdw; the copy commits on both nodes or on neither,
--      but for a crash between the two commits, which leaves a copy there that nothing here reads;
--   3. once every range of a run is there, rows and checksums are compared again and the run's
--      partitions are swapped for one foreign partition, in one transaction.
-- Bringing a run back runs the same steps the other way, then drops the other node's copy.
-- Needs the postgres_fdw and dblink extensions (PostgreSQL's own) and a user mapping for the
-- server whose role may make partitions there; superuser only.
-------------------------------------------------------------------------------------------------

-- Where a node shows the ranges it holds for another: a view per range, named like the partition.
CREATE SCHEMA permanode_remote;
COMMENT ON SCHEMA permanode_remote IS
    'on a node holding ranges for another permanode: one view per range, named like its partition';

CREATE TABLE @extschema@.remote_ranges (
    table_name name NOT NULL,
    range_from int NOT NULL,   -- the run of ranges [range_from, range_to)
    range_to int NOT NULL,
    server name NOT NULL,
    foreign_table name NOT NULL, -- here, and the run's view there (schema permanode_remote)
    rows bigint NOT NULL,      -- counted on both nodes at the move
    checksum text NOT NULL,    -- relation_checksum of each range, on both nodes at the move
    bytes bigint,              -- the run's partitions on the other node, at the move
    moved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, range_from)
);
COMMENT ON TABLE @extschema@.remote_ranges IS
    'runs of ranges moved to other nodes by attach_remote: server, foreign table, rows, checksum and bytes at the move';
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
-- hash of each row's text". Equal on two nodes of the same permanode version for the same rows:
-- the settings that shape a row's text are fixed here, not taken from the session.
CREATE OR REPLACE FUNCTION @extschema@.relation_checksum(rel regclass) RETURNS text
LANGUAGE plpgsql STABLE
SET TimeZone = 'UTC' SET DateStyle = 'ISO, YMD' SET IntervalStyle = 'postgres'
SET extra_float_digits = 3 SET bytea_output = 'hex' SET permanode.bech32_hrp = 'smr' AS $$
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

-- On the node that holds a run of ranges for another: the run's view, read by the other node's
-- foreign partition. `= ANY` names the ranges, so this node's Range Scan leaves the read to
-- PostgreSQL's plan over them (this node has no hints for rows it holds for another).
CREATE OR REPLACE FUNCTION @extschema@.remote_hold_run(table_name name, range_from int, range_to int)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    run name := @extschema@.remote_run_name(table_name, range_from, range_to);
BEGIN
    EXECUTE format('CREATE OR REPLACE VIEW permanode_remote.%I AS SELECT * FROM @extschema@.%I WHERE ms_range_id = ANY (%L::int[])',
                   run, table_name, (SELECT array_agg(r) FROM generate_series(range_from, range_to - 1) r));
    EXECUTE format('GRANT SELECT ON permanode_remote.%I TO permanode_reader', run);
    RETURN (SELECT coalesce(sum(pg_total_relation_size(p.partition)), 0) FROM @extschema@.partitions p
            WHERE p.table_name = format('@extschema@.%I', remote_hold_run.table_name)::regclass
              AND p.ms_range_id >= range_from AND p.ms_range_id < range_to);
END
$$;

-- On the node that held a run of ranges for another, once it is back there: drops the views and
-- the ranges' partitions (archived ones stay: restore or drop them here by hand).
CREATE OR REPLACE FUNCTION @extschema@.remote_release(table_name name, range_from int, range_to int)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r int;
    part name;
    held regclass;
    kept int := 0;
BEGIN
    EXECUTE format('DROP VIEW IF EXISTS permanode_remote.%I', @extschema@.remote_run_name(table_name, range_from, range_to));
    FOR r IN range_from .. range_to - 1 LOOP
        part := @extschema@.partition_name(table_name, r);
        held := to_regclass(format('@extschema@.%I', part));
        EXECUTE format('DROP VIEW IF EXISTS permanode_remote.%I', part);
        IF held IS NOT NULL AND (SELECT relkind FROM pg_class WHERE oid = held) = 'r' THEN
            EXECUTE format('DROP TABLE %s', held);
        ELSIF held IS NOT NULL THEN
            kept := kept + 1;
        END IF;
    END LOOP;
    RETURN CASE WHEN kept = 0 THEN 'dropped' ELSE format('dropped but %s archived ranges', kept) END;
END
$$;

-- The name of the foreign partition of a run of remote ranges (and of its view on the other node).
CREATE OR REPLACE FUNCTION @extschema@.remote_run_name(table_name name, range_from int, range_to int)
RETURNS name LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT format('%s_remote_%s_%s', table_name, range_from, range_to)::name
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

-- The hot ranges of each ledger table (all but sync, or the one named) in [from_range, to_range)
-- that hold rows, checked like archive() checks them, with the run of adjacent ranges each is in
-- (at most run_ranges long).
CREATE OR REPLACE FUNCTION @extschema@.remote_move_ranges(table_or_all text, from_range int, to_range int,
                                                          run_ranges int)
RETURNS TABLE (table_name name, ms_range_id int, run_from int)
LANGUAGE plpgsql AS $$
DECLARE
    newest int;
    has_rows boolean;
    r record;
    previous_table name;
    previous_range int;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR from_range < 0 OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Ranges are ms_range_id values, from_range included, to_range excluded.';
    END IF;
    IF run_ranges IS NULL OR run_ranges < 1 THEN
        RAISE EXCEPTION 'invalid run length %: a run holds at least one range', run_ranges
            USING ERRCODE = 'invalid_parameter_value';
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
        IF newest IS NULL OR to_range - 1 > newest THEN
            RAISE EXCEPTION 'cannot move range % of %: ingest may still write it', to_range - 1, table_name
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Move only ranges below the range of the newest synced milestone.';
        END IF;
    END LOOP;
    FOR r IN SELECT l.table_name AS t, p.ms_range_id AS m, p.partition
             FROM @extschema@.ledger_tables l
             JOIN @extschema@.partitions p ON p.table_name = format('@extschema@.%I', l.table_name)::regclass
             WHERE l.table_name <> 'sync' AND table_or_all IN ('all', l.table_name) AND p.tier = 'hot'
               AND p.ms_range_id >= from_range AND p.ms_range_id < to_range
               AND p.ms_range_id <> @extschema@.pending_range()
             ORDER BY l.table_name, p.ms_range_id LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', r.partition) INTO has_rows;
        CONTINUE WHEN NOT has_rows; -- (an empty range splits a run, as for archives)
        table_name := r.t;
        ms_range_id := r.m;
        IF previous_table IS DISTINCT FROM r.t OR previous_range <> r.m - 1 OR r.m - run_from >= run_ranges THEN
            run_from := r.m;
        END IF;
        previous_table := r.t;
        previous_range := r.m;
        RETURN NEXT;
    END LOOP;
END
$$;

-- (Re)makes the foreign table permanode_remote.<name> reading the view of that name on the
-- server's node, with the columns and checks of a ledger table: the target of a range's copy, and
-- a run's partition. Rows travel in batches of 1000 and come back 128 at a time, the first batch
-- of a Range Scan's read.
CREATE OR REPLACE FUNCTION @extschema@.stage_remote_table(table_name name, foreign_name name, server name)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent regclass := format('@extschema@.%I', table_name)::regclass;
    c record;
BEGIN
    IF to_regclass(format('permanode_remote.%I', foreign_name)) IS NOT NULL THEN
        EXECUTE format('DROP FOREIGN TABLE permanode_remote.%I', foreign_name);
    END IF;
    EXECUTE format('CREATE FOREIGN TABLE permanode_remote.%I (%s) SERVER %I OPTIONS (schema_name %L, table_name %L, batch_size %L, fetch_size %L)',
                   foreign_name,
                   (SELECT string_agg(format('%I %s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                                             CASE WHEN a.attnotnull THEN ' NOT NULL' END), ', ' ORDER BY a.attnum)
                    FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum > 0 AND NOT a.attisdropped),
                   server, 'permanode_remote', foreign_name, '1000', '128');
    -- a partition carries its parent's checks (on a foreign table, a promise the planner trusts)
    FOR c IN SELECT k.conname, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k
             WHERE k.conrelid = parent AND k.contype = 'c' LOOP
        EXECUTE format('ALTER FOREIGN TABLE permanode_remote.%I ADD CONSTRAINT %I %s', foreign_name, c.conname, c.def);
    END LOOP;
END
$$;

-- Moves the hot ranges [from_range, to_range) of one ledger table (or 'all' but sync) to the
-- node of `server` (a postgres_fdw server) and attaches each run of adjacent ranges as one
-- foreign partition. Empty ranges stay. A run holds at most run_ranges ranges (a keyed read
-- names the hinted ones to the other node, which has no hints; a read without a key reads them
-- all). Re-runnable: ranges already moved are left alone, a move cut short is finished.
CREATE OR REPLACE PROCEDURE @extschema@.attach_remote(table_or_all text, from_range int, to_range int,
                                                      server name, run_ranges int DEFAULT 16)
LANGUAGE plpgsql AS $$
DECLARE
    runs record;
    r int;
    part name;
    run name;
    extensions text;
    here text;
    there text;
    sums text;
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
    FOR runs IN SELECT m.table_name, m.run_from, max(m.ms_range_id) + 1 AS run_to
                FROM @extschema@.remote_move_ranges(table_or_all, from_range, to_range, run_ranges) m
                GROUP BY m.table_name, m.run_from ORDER BY m.table_name, m.run_from LOOP
        IF (SELECT chunk_size FROM @extschema@.ledger_tables l WHERE l.table_name = runs.table_name)::text
           <> @extschema@.remote_call(server, format('SELECT chunk_size::text FROM permanode.ledger_tables WHERE table_name = %L', runs.table_name)) THEN
            RAISE EXCEPTION 'the chunk size of % differs on server "%"', runs.table_name, server
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Give both nodes the same chunk sizes (permanode.set_chunk_size).';
        END IF;
        FOR r IN runs.run_from .. runs.run_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            -- 1. the other node's partition and view of the range
            here := @extschema@.relation_checksum(format('@extschema@.%I', part)::regclass);
            there := @extschema@.remote_call(server, format('SELECT permanode.remote_hold(%L, %s)', runs.table_name, r));
            PERFORM @extschema@.remote_step('held');
            -- 2. the copy, unless it is there already
            CONTINUE WHEN there = here;
            IF there NOT LIKE '0:%' THEN
                PERFORM @extschema@.remote_call(server, format('SELECT permanode.remote_hold(%L, %s, true)', runs.table_name, r));
            END IF;
            PERFORM @extschema@.stage_remote_table(runs.table_name, part, server);
            EXECUTE format('INSERT INTO permanode_remote.%I SELECT * FROM @extschema@.%I', part, part);
            PERFORM @extschema@.remote_step('copied');
            COMMIT;
            PERFORM @extschema@.remote_step('committed');
        END LOOP;
        -- 3. compared again, under locks that keep our rows as they are, and swapped
        sums := '';
        FOR r IN runs.run_from .. runs.run_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            EXECUTE format('LOCK TABLE @extschema@.%I IN SHARE MODE', part);
            here := @extschema@.relation_checksum(format('@extschema@.%I', part)::regclass);
            there := @extschema@.remote_call(server, format('SELECT permanode.relation_checksum(%L)', 'permanode_remote.' || quote_ident(part)));
            IF there <> here THEN
                RAISE EXCEPTION 'range % of % differs on server "%" after the copy', r, runs.table_name, server
                    USING ERRCODE = 'data_corrupted',
                          DETAIL = format('Here %s, there %s (rows:checksum).', here, there),
                          HINT = 'Run attach_remote again: it copies the range anew.';
            END IF;
            sums := sums || CASE WHEN sums = '' THEN '' ELSE ' ' END || here;
        END LOOP;
        run := @extschema@.remote_run_name(runs.table_name, runs.run_from, runs.run_to);
        bytes := @extschema@.remote_call(server, format('SELECT permanode.remote_hold_run(%L, %s, %s)', runs.table_name, runs.run_from, runs.run_to))::bigint;
        PERFORM @extschema@.stage_remote_table(runs.table_name, run, server);
        FOR r IN runs.run_from .. runs.run_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            EXECUTE format('ALTER TABLE @extschema@.%I DETACH PARTITION @extschema@.%I', runs.table_name, part);
            EXECUTE format('DROP TABLE @extschema@.%I', part);
            IF to_regclass(format('permanode_remote.%I', part)) IS NOT NULL THEN
                EXECUTE format('DROP FOREIGN TABLE permanode_remote.%I', part);
            END IF;
        END LOOP;
        EXECUTE format('ALTER FOREIGN TABLE permanode_remote.%I SET SCHEMA @extschema@', run);
        EXECUTE format('ALTER TABLE @extschema@.%I ATTACH PARTITION @extschema@.%I FOR VALUES FROM (%s) TO (%s)',
                       runs.table_name, run, runs.run_from, runs.run_to);
        INSERT INTO @extschema@.remote_ranges (table_name, range_from, range_to, server, foreign_table, rows, checksum, bytes)
        VALUES (runs.table_name, runs.run_from, runs.run_to, server, run,
                (SELECT sum(split_part(c, ':', 1)::bigint) FROM unnest(string_to_array(sums, ' ')) c), sums, bytes);
        PERFORM @extschema@.remote_step('swapped');
        COMMIT;
        RAISE NOTICE 'ranges [%, %) of % now on server "%"', runs.run_from, runs.run_to, runs.table_name, server;
    END LOOP;
END
$$;
COMMENT ON PROCEDURE @extschema@.attach_remote(text, int, int, name, int) IS
    'moves hot ranges [from_range, to_range) of a ledger table (or all) to a postgres_fdw server''s permanode node and attaches each run of them as a foreign partition';

-- Brings the remote runs of one ledger table (or 'all') that overlap [from_range, to_range) back
-- into hot partitions, then drops the other node's copies. A run comes back whole, so ranges
-- outside the given ones may come back too (a notice says which). Re-runnable like attach_remote.
CREATE OR REPLACE PROCEDURE @extschema@.detach_remote(table_or_all text, from_range int, to_range int)
LANGUAGE plpgsql AS $$
DECLARE
    runs record;
    r int;
    part name;
    incoming name;
    here text;
    there text;
    released text;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR runs IN SELECT * FROM @extschema@.remote_ranges m
                WHERE table_or_all IN ('all', m.table_name) AND m.range_from < to_range AND m.range_to > from_range
                ORDER BY m.table_name, m.range_from LOOP
        IF runs.range_from < from_range OR runs.range_to > to_range THEN
            RAISE NOTICE 'server "%" holds ranges [%, %) of % as one run: bringing all of them back',
                runs.server, runs.range_from, runs.range_to, runs.table_name;
        END IF;
        -- 1. each range's copy, into a table beside the ledger, unless it is there already
        FOR r IN runs.range_from .. runs.range_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            incoming := part || '_incoming';
            there := @extschema@.remote_call(runs.server, format('SELECT permanode.relation_checksum(%L)', 'permanode_remote.' || quote_ident(part)));
            EXECUTE format('CREATE TABLE IF NOT EXISTS permanode_remote.%I (LIKE @extschema@.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                           incoming, runs.table_name);
            CONTINUE WHEN @extschema@.relation_checksum(format('permanode_remote.%I', incoming)::regclass) = there;
            EXECUTE format('TRUNCATE permanode_remote.%I', incoming);
            EXECUTE format('INSERT INTO permanode_remote.%I SELECT * FROM ONLY @extschema@.%I WHERE ms_range_id = %s',
                           incoming, runs.foreign_table, r);
            PERFORM @extschema@.remote_step('copied');
            COMMIT;
            PERFORM @extschema@.remote_step('committed');
        END LOOP;
        -- 2. compared again and swapped
        FOR r IN runs.range_from .. runs.range_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            incoming := part || '_incoming';
            here := @extschema@.relation_checksum(format('permanode_remote.%I', incoming)::regclass);
            there := @extschema@.remote_call(runs.server, format('SELECT permanode.relation_checksum(%L)', 'permanode_remote.' || quote_ident(part)));
            IF there <> here THEN
                RAISE EXCEPTION 'range % of % differs here after the copy from server "%"', r, runs.table_name, runs.server
                    USING ERRCODE = 'data_corrupted',
                          DETAIL = format('Here %s, there %s (rows:checksum).', here, there),
                          HINT = 'Run detach_remote again: it copies the range anew.';
            END IF;
        END LOOP;
        EXECUTE format('ALTER TABLE @extschema@.%I DETACH PARTITION @extschema@.%I', runs.table_name, runs.foreign_table);
        EXECUTE format('DROP FOREIGN TABLE @extschema@.%I', runs.foreign_table);
        FOR r IN runs.range_from .. runs.range_to - 1 LOOP
            part := @extschema@.partition_name(runs.table_name, r);
            incoming := part || '_incoming';
            EXECUTE format('ALTER TABLE permanode_remote.%I SET SCHEMA @extschema@', incoming);
            EXECUTE format('ALTER TABLE @extschema@.%I RENAME TO %I', incoming, part);
            EXECUTE format('CREATE UNIQUE INDEX %I ON @extschema@.%I (%s)', part || '_key', part,
                           (SELECT string_agg(quote_ident(c), ', ') FROM @extschema@.ledger_tables l, unnest(l.unique_columns) c
                            WHERE l.table_name = runs.table_name));
            EXECUTE format('ALTER TABLE @extschema@.%I ATTACH PARTITION @extschema@.%I FOR VALUES FROM (%s) TO (%s)',
                           runs.table_name, part, r, r + 1);
        END LOOP;
        DELETE FROM @extschema@.remote_ranges m WHERE m.table_name = runs.table_name AND m.range_from = runs.range_from;
        PERFORM @extschema@.remote_step('swapped');
        COMMIT;
        -- 3. the other node's copy
        PERFORM @extschema@.remote_step('back');
        released := NULL;
        BEGIN
            released := @extschema@.remote_call(runs.server, format('SELECT permanode.remote_release(%L, %s, %s)',
                                                                    runs.table_name, runs.range_from, runs.range_to));
        EXCEPTION WHEN OTHERS THEN
            RAISE WARNING 'ranges [%, %) of % are back, but their copy on server "%" was not dropped: %',
                runs.range_from, runs.range_to, runs.table_name, runs.server, SQLERRM
                USING HINT = format('On that node: SELECT permanode.remote_release(%L, %s, %s);',
                                    runs.table_name, runs.range_from, runs.range_to);
        END;
        RAISE NOTICE 'ranges [%, %) of % (% rows) back from server "%" (its copy there: %)', runs.range_from,
            runs.range_to, runs.table_name, runs.rows, runs.server, coalesce(released, 'left');
    END LOOP;
END
$$;
COMMENT ON PROCEDURE @extschema@.detach_remote(text, int, int) IS
    'brings the remote runs of a ledger table (or all) overlapping [from_range, to_range) back into hot partitions';

REVOKE ALL ON FUNCTION @extschema@.relation_checksum(regclass), @extschema@.remote_hold(name, int, boolean),
    @extschema@.remote_hold_run(name, int, int), @extschema@.remote_release(name, int, int),
    @extschema@.remote_call(name, text), @extschema@.remote_step(text),
    @extschema@.remote_move_ranges(text, int, int, int), @extschema@.stage_remote_table(name, name, name),
    @extschema@.remote_address(name) FROM PUBLIC;
REVOKE ALL ON PROCEDURE @extschema@.attach_remote(text, int, int, name, int),
    @extschema@.detach_remote(text, int, int) FROM PUBLIC;

-------------------------------------------------------------------------------------------------
-- Where each range of the ledger is: hot (a heap partition here), cold (a RocksDB archive here,
-- 70_archive.sql) or remote (a partition on another node, 71_remote_ranges.sql). CREATE OR
-- REPLACE: the upgrade to 0.10.0 runs this file again.
-------------------------------------------------------------------------------------------------

-- The partitions of the ledger tables: range, tier, the server of a remote one, rows and bytes.
CREATE OR REPLACE VIEW @extschema@.partitions AS
SELECT p.inhparent::regclass AS table_name,
       c.oid::regclass AS partition,
       CASE WHEN c.relname ~ '_pending$' THEN @extschema@.pending_range()
            ELSE substring(c.relname from '_r([0-9]+)$')::int END AS ms_range_id,
       CASE WHEN c.relkind <> 'f' THEN 'hot' WHEN w.fdwname = 'permanode_fdw' THEN 'cold'
            ELSE 'remote' END AS tier,
       c.reltuples::bigint AS estimated_rows,
       CASE c.relkind WHEN 'f' THEN NULL ELSE pg_total_relation_size(c.oid) END AS bytes,
       CASE WHEN w.fdwname <> 'permanode_fdw' THEN s.srvname END AS server
FROM pg_inherits p
JOIN pg_class c ON c.oid = p.inhrelid
JOIN @extschema@.ledger_tables t ON p.inhparent = format('@extschema@.%I', t.table_name)::regclass
LEFT JOIN pg_foreign_table f ON f.ftrelid = c.oid
LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
LEFT JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw;

-- Each ledger table's ranges: tier, rows and bytes on disk (hot: the partition with its
-- indexes; cold: the archive, which may hold several ranges; remote: a run of ranges on another
-- node, as counted when it moved there, and that node's server). ms_range_id 2147483647 is the
-- pending tier.
CREATE OR REPLACE VIEW @extschema@.status AS
SELECT h.table_name, h.from_range, h.to_range, 'hot'::text AS tier, h.partition,
       @extschema@.partition_rows(h.partition) AS rows, pg_total_relation_size(h.partition) AS bytes,
       NULL::name AS server
-- OFFSET 0 keeps the caller's filters on rows out of the catalog scans below
FROM (SELECT l.table_name, p.ms_range_id AS from_range,
             CASE WHEN p.ms_range_id = @extschema@.pending_range() THEN NULL
                  ELSE p.ms_range_id + 1 END AS to_range,
             p.partition
      FROM @extschema@.ledger_tables l
      JOIN @extschema@.partitions p ON p.table_name = format('@extschema@.%I', l.table_name)::regclass
      WHERE p.tier = 'hot' OFFSET 0) h
UNION ALL
SELECT l.table_name, s.range_from::int, s.range_to::int, 'cold', s.foreign_table, s.rows, s.bytes, NULL
FROM @extschema@.ledger_tables l
JOIN @extschema@.archive_status s ON s.parent_table = format('@extschema@.%I', l.table_name)::regclass
UNION ALL
SELECT m.table_name, m.range_from, m.range_to, 'remote', format('@extschema@.%I', m.foreign_table)::regclass,
       m.rows, m.bytes, m.server
FROM @extschema@.remote_ranges m;
COMMENT ON VIEW @extschema@.status IS
    'per ledger table and range [from_range, to_range): tier (hot, cold or remote), rows and bytes on disk, the server of a remote range';

-------------------------------------------------------------------------------------------------
-- The maintenance job: applies the archiving policies (settings keys archive_older_than, in
-- milestones, and legacy_archive_older_than, in months; no row, no archiving), expires pending
-- rows, the legacy tags' months past their TTL (legacy_tag_ttl) and expired delegations, and makes the partitions of
-- the next range ahead of ingest. `permanode ingest` calls it after each file it finishes.
-- SECURITY DEFINER: it runs as the extension owner for permanode_admin (80_init_roles.sql).
CREATE OR REPLACE FUNCTION @extschema@.maintain()
RETURNS TABLE (task text, done bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    older_than int := (SELECT s.value::int FROM @extschema@.settings s WHERE s.key = 'archive_older_than');
    legacy_older_than int := (SELECT s.value::int FROM @extschema@.settings s
                              WHERE s.key = 'legacy_archive_older_than');
    newest int := (SELECT max(s.milestone_index) FROM @extschema@.sync s);
    newest_month int := (SELECT max(p.month_id) FROM legacy.partitions p
                         WHERE p.table_name = 'legacy.transactions'::regclass);
BEGIN
    IF older_than IS NOT NULL THEN
        task := 'archived rows';
        SELECT coalesce(sum(a.rows), 0) INTO done FROM @extschema@.archive(older_than) a;
        RETURN NEXT;
    END IF;
    IF legacy_older_than IS NOT NULL AND newest_month IS NOT NULL THEN
        task := 'archived legacy rows';
        SELECT coalesce(sum(a.rows), 0) INTO done
        FROM legacy.archive(0, newest_month - legacy_older_than) a;
        RETURN NEXT;
    END IF;
    task := 'expired pending rows';
    done := @extschema@.expire_pending();
    RETURN NEXT;
    task := 'expired legacy tag months';
    done := legacy.expire_tags();
    RETURN NEXT;
    task := 'expired delegations';
    done := access.expire_delegations();
    RETURN NEXT;
    IF newest IS NOT NULL THEN
        task := 'partitions made';
        done := @extschema@.premake(newest, newest, 1);
        RETURN NEXT;
    END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.maintain() IS
    'archives by the policies in settings (archive_older_than, legacy_archive_older_than), expires pending rows, legacy tag months and delegations, premakes the next range';

-------------------------------------------------------------------------------------------------
-- Who may read a hosted archive (seed 001): w3infra's delegations, subscriptions and consumers
-- tables on PostgreSQL, in schema access, with the seed's table and field names ("insertedAt"
-- and "updatedAt" quoted, as the seed spells them).
--
-- Each DynamoDB global secondary index is a btree index that serves its query in key order, so
-- every list reads a page with a keyset cursor (the `cursor` column of its last row, passed back
-- as `after`) and pages to the end; counts are exact; "updatedAt" changes whenever a row does;
-- expired delegations are never returned and access.expire_delegations() (run by
-- permanode.maintain()) removes them. Beyond the seed: a consumer's subscription must exist (a
-- foreign key), and a space consumes a provider through one subscription (unique consumer and
-- provider), so get(provider, consumer) has one answer.
-- The HTTP server (serve --auth ucan) checks UCAN proof chains against these tables and counts
-- requests per consumer and day in access.requests.
-------------------------------------------------------------------------------------------------
CREATE SCHEMA access;
COMMENT ON SCHEMA access IS 'permanode: who may read a hosted archive (seed 001): delegations, subscriptions, consumers';

-- UCAN delegations by their CID; expiration is the UCAN's exp (unix seconds; NULL: never).
CREATE TABLE access.delegations (
    link text PRIMARY KEY CHECK (link <> ''),
    cause text,
    audience text NOT NULL CHECK (audience <> ''),
    issuer text NOT NULL CHECK (issuer <> ''),
    expiration bigint,
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now()
);
-- GSI audience (projection link): find(audience), in link order, expired ones skipped in the index.
CREATE INDEX delegations_audience ON access.delegations (audience, link) INCLUDE (expiration);
-- What maintenance removes.
CREATE INDEX delegations_expiration ON access.delegations (expiration) WHERE expiration IS NOT NULL;

-- A customer's subscription to a provider; the provider chooses the subscription key.
CREATE TABLE access.subscriptions (
    subscription text NOT NULL CHECK (subscription <> ''),
    provider text NOT NULL CHECK (provider <> ''),
    cause text,
    customer text NOT NULL CHECK (customer <> ''),
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscription, provider)
);
-- GSI customer (customer:provider, projection cause, subscription).
CREATE INDEX subscriptions_customer ON access.subscriptions (customer, provider, subscription) INCLUDE (cause);
-- GSI provider (projection customer): the customers of a provider (provisional in the seed).
CREATE INDEX subscriptions_provider ON access.subscriptions (provider, customer, subscription);

-- A space (consumer) consuming a provider through a subscription.
CREATE TABLE access.consumers (
    subscription text NOT NULL,
    provider text NOT NULL,
    cause text,
    consumer text NOT NULL CHECK (consumer <> ''),
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscription, provider),
    FOREIGN KEY (subscription, provider) REFERENCES access.subscriptions
);
-- GSI consumer (projection provider, subscription): the providers of a consumer.
CREATE UNIQUE INDEX consumers_consumer ON access.consumers (consumer, provider) INCLUDE (subscription);
-- GSI provider (projection consumer): the consumers of a provider (provisional in the seed).
CREATE INDEX consumers_provider ON access.consumers (provider, consumer);

-- Authorised HTTP requests per consumer and day (UTC).
CREATE TABLE access.requests (
    consumer text NOT NULL,
    day date NOT NULL,
    requests bigint NOT NULL,
    PRIMARY KEY (consumer, day)
);

-- A logical dump keeps their rows (95_dump_tables.sql in a fresh install; here for an upgrade).
SELECT pg_extension_config_dump('access.delegations', '');
SELECT pg_extension_config_dump('access.subscriptions', '');
SELECT pg_extension_config_dump('access.consumers', '');
SELECT pg_extension_config_dump('access.requests', '');

-- The page size every list takes: 1 to 1000.
CREATE OR REPLACE FUNCTION access.check_page_size(page_size int) RETURNS int
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF page_size IS NULL OR page_size < 1 OR page_size > 1000 THEN
        RAISE EXCEPTION 'page size % is out of range', coalesce(page_size::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'A page holds 1 to 1000 rows.';
    END IF;
    RETURN page_size;
END
$$;

-- The cursor of a list ordered by two keys: a JSON array of both.
CREATE OR REPLACE FUNCTION access.cursor_part(after text, i int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF after IS NULL THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(after::jsonb) <> 'array' OR jsonb_array_length(after::jsonb) <> 2 THEN
        RAISE EXCEPTION 'invalid cursor "%"', after USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN after::jsonb ->> i;
EXCEPTION WHEN invalid_text_representation THEN
    RAISE EXCEPTION 'invalid cursor "%"', after USING ERRCODE = 'invalid_parameter_value';
END
$$;

-------------------------------------------------------------------------------------------------
-- Delegations.
-------------------------------------------------------------------------------------------------

-- Stores delegations given as a JSON array of {link, audience, issuer, expiration, cause}; a link
-- held already is overwritten (and its "updatedAt" set); of a link given twice, the last counts.
-- Returns how many were written.
CREATE OR REPLACE FUNCTION access.delegations_put_many(delegations jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    bad record;
    written bigint;
BEGIN
    IF delegations IS NULL OR jsonb_typeof(delegations) <> 'array' THEN
        RAISE EXCEPTION 'delegations must be a JSON array' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT i, field INTO bad
    FROM jsonb_array_elements(delegations) WITH ORDINALITY AS d(v, i)
    CROSS JOIN LATERAL (VALUES ('link'), ('audience'), ('issuer')) f(field)
    WHERE jsonb_typeof(d.v) <> 'object' OR coalesce(d.v ->> f.field, '') = ''
    ORDER BY i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'delegation % has no %', bad.i, bad.field
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'A delegation is {"link", "audience", "issuer", "expiration", "cause"}.';
    END IF;
    INSERT INTO access.delegations AS t (link, cause, audience, issuer, expiration)
    SELECT DISTINCT ON (d.v ->> 'link') d.v ->> 'link', d.v ->> 'cause', d.v ->> 'audience',
           d.v ->> 'issuer', (d.v ->> 'expiration')::bigint
    FROM jsonb_array_elements(delegations) WITH ORDINALITY AS d(v, i)
    ORDER BY d.v ->> 'link', d.i DESC
    ON CONFLICT (link) DO UPDATE
        SET cause = EXCLUDED.cause, audience = EXCLUDED.audience, issuer = EXCLUDED.issuer,
            expiration = EXCLUDED.expiration, "updatedAt" = now();
    GET DIAGNOSTICS written = ROW_COUNT;
    RETURN written;
END
$$;

-- Whether a delegation has expired at this time: its exp is not after now.
CREATE OR REPLACE FUNCTION access.expired(expiration bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT expiration IS NOT NULL AND expiration <= extract(epoch FROM now())
$$;

-- The delegations to an audience that have not expired, a page in link order after `after`.
CREATE OR REPLACE FUNCTION access.delegations_find(audience text, after text DEFAULT NULL, page_size int DEFAULT 1000)
RETURNS TABLE (link text, cause text, issuer text, expiration bigint, "insertedAt" timestamptz,
               "updatedAt" timestamptz, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT d.link, d.cause, d.issuer, d.expiration, d."insertedAt", d."updatedAt", d.link
    FROM access.delegations d
    WHERE d.audience = delegations_find.audience AND (after IS NULL OR d.link > after)
      AND NOT access.expired(d.expiration)
    ORDER BY d.link
    LIMIT access.check_page_size(page_size)
$$;

-- The delegation of a link, unless it has expired (the HTTP server's check of a proof).
CREATE OR REPLACE FUNCTION access.delegations_get(link text)
RETURNS TABLE (audience text, issuer text, expiration bigint)
LANGUAGE sql STABLE AS $$
    SELECT d.audience, d.issuer, d.expiration FROM access.delegations d
    WHERE d.link = delegations_get.link AND NOT access.expired(d.expiration)
$$;

-- How many delegations there are that have not expired, exactly.
CREATE OR REPLACE FUNCTION access.delegations_count() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM access.delegations d WHERE NOT access.expired(d.expiration)
$$;

-- Removes the expired delegations; returns how many.
CREATE OR REPLACE FUNCTION access.expire_delegations() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    removed bigint;
BEGIN
    DELETE FROM access.delegations d WHERE d.expiration <= extract(epoch FROM now());
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

-------------------------------------------------------------------------------------------------
-- Subscriptions.
-------------------------------------------------------------------------------------------------

-- Adds a customer's subscription to a provider; one held already for the key is a conflict
-- (SQLSTATE 23505) naming its customer and provider.
CREATE OR REPLACE FUNCTION access.subscriptions_add(provider text, subscription text, customer text,
                                                    cause text DEFAULT NULL)
RETURNS access.subscriptions LANGUAGE plpgsql AS $$
DECLARE
    added access.subscriptions;
BEGIN
    INSERT INTO access.subscriptions AS s (subscription, provider, cause, customer)
    VALUES (subscriptions_add.subscription, subscriptions_add.provider, subscriptions_add.cause,
            subscriptions_add.customer)
    ON CONFLICT DO NOTHING
    RETURNING * INTO added;
    IF added IS NULL THEN
        SELECT * INTO added FROM access.subscriptions s
        WHERE s.subscription = subscriptions_add.subscription AND s.provider = subscriptions_add.provider;
        RAISE EXCEPTION 'subscription "%" of customer "%" to provider "%" exists already',
                        added.subscription, added.customer, added.provider
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN added;
END
$$;

-- A customer's subscriptions to a provider (the query in use), a page in subscription order.
CREATE OR REPLACE FUNCTION access.subscriptions_find_provider_subscriptions_for_customer(
    customer text, provider text, after text DEFAULT NULL, page_size int DEFAULT 1000)
RETURNS TABLE (subscription text, cause text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.subscription, s.cause, s.subscription
    FROM access.subscriptions s
    WHERE s.customer = subscriptions_find_provider_subscriptions_for_customer.customer
      AND s.provider = subscriptions_find_provider_subscriptions_for_customer.provider
      AND (after IS NULL OR s.subscription > after)
    ORDER BY s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- A subscription by its key (its customer): none if there is none.
CREATE OR REPLACE FUNCTION access.subscriptions_get(provider text, subscription text)
RETURNS SETOF access.subscriptions
LANGUAGE sql STABLE AS $$
    SELECT * FROM access.subscriptions s
    WHERE s.subscription = subscriptions_get.subscription AND s.provider = subscriptions_get.provider
$$;

-- A customer's subscriptions to every provider (provisional), by provider and subscription.
CREATE OR REPLACE FUNCTION access.subscriptions_list_by_customer(customer text, after text DEFAULT NULL,
                                                                 page_size int DEFAULT 1000)
RETURNS TABLE (provider text, subscription text, cause text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.provider, s.subscription, s.cause, jsonb_build_array(s.provider, s.subscription)::text
    FROM access.subscriptions s
    WHERE s.customer = subscriptions_list_by_customer.customer
      AND (after IS NULL
           OR (s.provider, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.provider, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- The customers of a provider (provisional), by customer and subscription.
CREATE OR REPLACE FUNCTION access.subscriptions_list_by_provider(provider text, after text DEFAULT NULL,
                                                                 page_size int DEFAULT 1000)
RETURNS TABLE (customer text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.customer, s.subscription, jsonb_build_array(s.customer, s.subscription)::text
    FROM access.subscriptions s
    WHERE s.provider = subscriptions_list_by_provider.provider
      AND (after IS NULL
           OR (s.customer, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.customer, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-------------------------------------------------------------------------------------------------
-- Consumers.
-------------------------------------------------------------------------------------------------

-- Adds a consumer of a provider through a subscription (which must exist). The same consumer
-- added again is accepted (nothing changes); another consumer for the subscription, or the
-- consumer through another subscription of the provider, is a conflict (SQLSTATE 23505).
CREATE OR REPLACE FUNCTION access.consumers_add(provider text, subscription text, consumer text,
                                                cause text DEFAULT NULL)
RETURNS access.consumers LANGUAGE plpgsql AS $$
DECLARE
    added access.consumers;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM access.subscriptions s
                   WHERE s.subscription = consumers_add.subscription AND s.provider = consumers_add.provider) THEN
        RAISE EXCEPTION 'subscription "%" to provider "%" does not exist', subscription, provider
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    INSERT INTO access.consumers AS c (subscription, provider, cause, consumer)
    VALUES (consumers_add.subscription, consumers_add.provider, consumers_add.cause, consumers_add.consumer)
    ON CONFLICT DO NOTHING
    RETURNING * INTO added;
    IF added IS NOT NULL THEN
        RETURN added;
    END IF;
    SELECT * INTO added FROM access.consumers c
    WHERE c.subscription = consumers_add.subscription AND c.provider = consumers_add.provider;
    IF added.consumer = consumers_add.consumer THEN
        RETURN added;
    ELSIF added IS NOT NULL THEN
        RAISE EXCEPTION 'subscription "%" to provider "%" is consumed by "%" already',
                        subscription, provider, added.consumer
            USING ERRCODE = 'unique_violation';
    END IF;
    SELECT * INTO added FROM access.consumers c
    WHERE c.consumer = consumers_add.consumer AND c.provider = consumers_add.provider;
    RAISE EXCEPTION 'consumer "%" consumes provider "%" through subscription "%" already',
                    consumer, provider, added.subscription
        USING ERRCODE = 'unique_violation';
END
$$;

-- Whether a consumer consumes any provider.
CREATE OR REPLACE FUNCTION access.consumers_has_storage_provider(consumer text) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM access.consumers c WHERE c.consumer = consumers_has_storage_provider.consumer)
$$;

-- A consumer of a provider, with its subscription and that subscription's customer.
CREATE OR REPLACE FUNCTION access.consumers_get(provider text, consumer text)
RETURNS TABLE (subscription text, customer text, cause text, "insertedAt" timestamptz, "updatedAt" timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT c.subscription, s.customer, c.cause, c."insertedAt", c."updatedAt"
    FROM access.consumers c
    JOIN access.subscriptions s USING (subscription, provider)
    WHERE c.consumer = consumers_get.consumer AND c.provider = consumers_get.provider
$$;

-- The consumers of a customer's subscriptions, by provider and subscription.
CREATE OR REPLACE FUNCTION access.consumers_list_by_customer(customer text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (consumer text, provider text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.consumer, s.provider, s.subscription, jsonb_build_array(s.provider, s.subscription)::text
    FROM access.subscriptions s
    JOIN access.consumers c USING (subscription, provider)
    WHERE s.customer = consumers_list_by_customer.customer
      AND (after IS NULL
           OR (s.provider, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.provider, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- The providers a consumer consumes (the query in use; also its subscriptions), by provider.
CREATE OR REPLACE FUNCTION access.consumers_list_by_consumer(consumer text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (provider text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.provider, c.subscription, c.provider
    FROM access.consumers c
    WHERE c.consumer = consumers_list_by_consumer.consumer AND (after IS NULL OR c.provider > after)
    ORDER BY c.provider
    LIMIT access.check_page_size(page_size)
$$;

-- The consumers of a provider (provisional), by consumer.
CREATE OR REPLACE FUNCTION access.consumers_list_by_provider(provider text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (consumer text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.consumer, c.subscription, c.consumer
    FROM access.consumers c
    WHERE c.provider = consumers_list_by_provider.provider AND (after IS NULL OR c.consumer > after)
    ORDER BY c.consumer
    LIMIT access.check_page_size(page_size)
$$;

-- Provisions a consumer for a customer in one transaction: the customer's subscription to the
-- provider (by default keyed by the customer; one held already for the same customer is used) and
-- the consumer through it.
CREATE OR REPLACE FUNCTION access.provisions_put(provider text, customer text, consumer text,
                                                 cause text DEFAULT NULL, subscription text DEFAULT NULL)
RETURNS access.consumers LANGUAGE plpgsql AS $$
DECLARE
    key text := coalesce(subscription, customer);
    held access.subscriptions;
BEGIN
    SELECT * INTO held FROM access.subscriptions_get(provider, key);
    IF held IS NULL THEN
        PERFORM access.subscriptions_add(provider, key, customer, cause);
    ELSIF held.customer <> customer THEN
        RAISE EXCEPTION 'subscription "%" of customer "%" to provider "%" exists already',
                        key, held.customer, provider
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN access.consumers_add(provider, key, consumer, cause);
END
$$;

-- Counts an authorised request of a consumer today (UTC).
CREATE OR REPLACE FUNCTION access.count_request(consumer text, requests bigint DEFAULT 1) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO access.requests AS r VALUES (consumer, (now() AT TIME ZONE 'UTC')::date, requests)
    ON CONFLICT (consumer, day) DO UPDATE SET requests = r.requests + EXCLUDED.requests
$$;

-------------------------------------------------------------------------------------------------
-- Rights: readers (the HTTP server) read and count requests; the admin writes and expires.
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    f regprocedure;
    grantee text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'permanode_reader') THEN
        RETURN;
    END IF;
    GRANT USAGE ON SCHEMA access TO permanode_reader;
    GRANT SELECT ON ALL TABLES IN SCHEMA access TO permanode_reader;
    FOR f, grantee IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname = 'count_request' THEN 'permanode_reader' ELSE 'permanode_admin' END
        FROM pg_proc p
        WHERE p.pronamespace = 'access'::regnamespace
          AND p.proname IN ('delegations_put_many', 'expire_delegations', 'subscriptions_add',
                            'consumers_add', 'provisions_put', 'count_request')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, access', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, grantee);
    END LOOP;
END
$$;
