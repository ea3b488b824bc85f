-- Remote ranges' functions and procedures (the catalog is ../schema/71_remote_ranges.sql).
COMMENT ON SCHEMA permanode_remote IS
    'on a node holding ranges for another permanode: one view per range, named like its partition';
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
-- single text value; an error names the node. One connection per server and user serves every
-- call of a move (a new one per call cost ~35 ms: a backend started and its caches filled); a
-- kept connection that fails (the node restarted) is opened anew and the call sent once more,
-- which is safe as every remote call of a move is idempotent.
CREATE OR REPLACE FUNCTION @extschema@.remote_call(server name, sql text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    dblink_schema name := @extschema@.dblink_schema();
    connection text := @extschema@.remote_connection_name(server);
    kept boolean;
    result text;
BEGIN
    FOR attempt IN 1 .. 2 LOOP
        BEGIN
            kept := NULL;
            EXECUTE format('SELECT %L = ANY (coalesce(%I.dblink_get_connections(), ''{}''))', connection, dblink_schema)
                INTO kept;
            IF NOT kept THEN
                EXECUTE format('SELECT %I.dblink_connect(%L, %L)', dblink_schema, connection, server);
            END IF;
            EXECUTE format('SELECT v FROM %I.dblink(%L, %L) AS r(v text)', dblink_schema, connection, sql) INTO result;
            RETURN result;
        EXCEPTION WHEN OTHERS THEN
            PERFORM @extschema@.remote_disconnect(server);
            IF NOT coalesce(kept, false) OR attempt = 2 THEN
                RAISE EXCEPTION 'remote node "%" (%): %', server, @extschema@.remote_address(server), SQLERRM
                    USING ERRCODE = SQLSTATE;
            END IF;
        END;
    END LOOP;
END
$$;

-- The schema of the dblink extension, which remote ranges need.
CREATE OR REPLACE FUNCTION @extschema@.dblink_schema() RETURNS name
LANGUAGE plpgsql STABLE AS $$
DECLARE
    dblink_schema name := (SELECT n.nspname FROM pg_extension e
                           JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink');
BEGIN
    IF dblink_schema IS NULL THEN
        RAISE EXCEPTION 'remote ranges need the dblink extension'
            USING ERRCODE = 'feature_not_supported', HINT = 'CREATE EXTENSION dblink;';
    END IF;
    RETURN dblink_schema;
END
$$;

-- The name of this session's dblink connection to a server's node, for the current user (a
-- connection opened under another role is never reused).
CREATE OR REPLACE FUNCTION @extschema@.remote_connection_name(server name) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT format('permanode %s as %s', server, current_user)
$$;

-- Closes this session's connection to a server's node (to every node: NULL), if open.
CREATE OR REPLACE FUNCTION @extschema@.remote_disconnect(server name DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    dblink_schema name := @extschema@.dblink_schema();
    connection text;
    open text[];
BEGIN
    EXECUTE format('SELECT %I.dblink_get_connections()', dblink_schema) INTO open;
    FOR connection IN SELECT c FROM unnest(open) c
                      WHERE c = @extschema@.remote_connection_name(server)
                         OR (server IS NULL AND c LIKE 'permanode % as %') LOOP
        EXECUTE format('SELECT %I.dblink_disconnect(%L)', dblink_schema, connection);
    END LOOP;
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
    PERFORM @extschema@.remote_disconnect(server);
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
                           (SELECT string_agg(quote_ident(c), ', ') FROM @extschema@.partitioned_tables l, unnest(l.unique_columns) c
                            WHERE l.family = 'ledger' AND l.table_name = runs.table_name));
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
    PERFORM @extschema@.remote_disconnect();
END
$$;
COMMENT ON PROCEDURE @extschema@.detach_remote(text, int, int) IS
    'brings the remote runs of a ledger table (or all) overlapping [from_range, to_range) back into hot partitions';

REVOKE ALL ON FUNCTION @extschema@.relation_checksum(regclass), @extschema@.remote_hold(name, int, boolean),
    @extschema@.remote_hold_run(name, int, int), @extschema@.remote_release(name, int, int),
    @extschema@.remote_call(name, text), @extschema@.dblink_schema(), @extschema@.remote_connection_name(name),
    @extschema@.remote_disconnect(name), @extschema@.remote_step(text),
    @extschema@.remote_move_ranges(text, int, int, int), @extschema@.stage_remote_table(name, name, name),
    @extschema@.remote_address(name) FROM PUBLIC;
REVOKE ALL ON PROCEDURE @extschema@.attach_remote(text, int, int, name, int),
    @extschema@.detach_remote(text, int, int) FROM PUBLIC;
