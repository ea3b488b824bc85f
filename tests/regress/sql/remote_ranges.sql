-- Remote ranges (sql/permanode/code/71_remote_ranges.sql) on a second database of this cluster, reached
-- through postgres_fdw over a real connection: runs of ranges, what a lookup sends there, the
-- checks of a move, and a range brought back. (The TAP test 105_remote_ranges.pl runs three
-- clusters, kills at each step and stopped nodes.)
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test, archive_test CASCADE;
DROP DATABASE IF EXISTS permanode_regress_node;
CREATE DATABASE permanode_regress_node;
CREATE EXTENSION permanode CASCADE;
CREATE EXTENSION IF NOT EXISTS postgres_fdw;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
SET search_path = public, permanode;

-- Chunks of one milestone: the fixtures 17339, 17340, 17341 are three adjacent ranges.
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1) FROM ledger_tables) s;
\getenv fixtures PERMANODE_FIXTURES
\getenv abs_srcdir PG_ABS_SRCDIR
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
\o /dev/null
\i :fixtures_sql
\o
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;
CREATE TABLE ingest_test.before AS
SELECT t.table_name, relation_checksum(format('permanode.%I', t.table_name)::regclass) AS rows
FROM ledger_tables t;

-- The other node: the extension with the same chunk sizes, at this server's address.
SELECT dblink_exec(format('dbname=permanode_regress_node port=%s host=%s user=%s', current_setting('port'),
                          coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1)),
                          current_user),
                   'SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE; '
                   'DO $$ BEGIN PERFORM permanode.set_chunk_size(table_name, 1) FROM permanode.ledger_tables; END $$') AS node_made;
DO $$
BEGIN
    EXECUTE format('CREATE SERVER regress_node FOREIGN DATA WRAPPER postgres_fdw OPTIONS (dbname %L, port %L, host %L)',
                   'permanode_regress_node', current_setting('port'),
                   coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1)));
    EXECUTE format('CREATE USER MAPPING FOR CURRENT_USER SERVER regress_node OPTIONS (user %L)', current_user);
END
$$;

-- Refused: the newest range (ingest may still write it), a table that is not a ledger table, a
-- server that is not postgres_fdw's, a run of no range.
CALL attach_remote('messages', 0, 2418188, 'regress_node');
CALL attach_remote('sync', 0, 17340, 'regress_node');
CALL attach_remote('messages', 0, 17340, 'no_such_server');
CALL attach_remote('messages', 0, 17340, 'regress_node', 0);

-- Runs of at most two ranges: [17339, 17341) and [17341, 17342) of every table that has rows there.
-- (This session's time zone is pg_regress's, the node's the server's: checksums do not depend on it.)
SHOW TimeZone;
CALL attach_remote('all', 0, 17342, 'regress_node', 2);
SELECT table_name, from_range, to_range, tier, partition, rows > 0 AS has_rows, bytes > 0 AS has_bytes, server
FROM status WHERE table_name IN ('messages', 'basic_outputs', 'sync') AND (rows > 0 OR tier = 'remote')
ORDER BY table_name, from_range;
-- The server names our extension, so postgres_fdw sends our types' operators.
SELECT option_value AS extensions FROM pg_foreign_server s, pg_options_to_table(s.srvoptions)
WHERE s.srvname = 'regress_node' AND option_name = 'extensions';
-- Every row once.
SELECT b.table_name FROM ingest_test.before b
WHERE b.rows <> relation_checksum(format('permanode.%I', b.table_name)::regclass);
-- Run again: nothing left to move.
CALL attach_remote('all', 0, 17342, 'regress_node', 2);
SELECT count(*) AS remote_runs FROM remote_ranges;

-- A first page by address: one statement to the node for the hinted ranges of a run, with its
-- WHERE, ORDER BY, LIMIT and OFFSET.
SELECT address AS addr FROM basic_outputs WHERE address IS NOT NULL AND ms_range_id < 17341
GROUP BY address ORDER BY count(DISTINCT ms_range_id) DESC, count(*) DESC, address LIMIT 1 \gset
CREATE FUNCTION ingest_test.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        CONTINUE WHEN line !~ '(Range Scan|Ranges Hinted|Partitions Read|Read:|Remote SQL)';
        RETURN NEXT regexp_replace(line, '(address|output_id) = ''[^'']*''', '\1 = ...', 'g');
    END LOOP;
END
$$;
SELECT ingest_test.plan(format('SELECT output_id FROM basic_outputs_by_address WHERE address = %L ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100', :'addr'));
-- A point lookup by ID.
SELECT output_id AS out FROM basic_outputs WHERE ms_range_id = 17340 ORDER BY output_id LIMIT 1 \gset
SELECT ingest_test.plan(format('SELECT amount FROM basic_outputs WHERE output_id = %L', :'out'));
-- The answers, from the node; the read's own settings (sorts off while planning it) end with it.
BEGIN;
SELECT count(*) AS outputs, sum(amount) AS amount FROM basic_outputs_by_address WHERE address = :'addr';
SHOW enable_sort;
COMMIT;
-- A reader reads the foreign partitions through the parent and may not write them.
SELECT has_table_privilege('permanode_reader', 'permanode.basic_outputs_remote_17339_17341', 'UPDATE') AS reader_may_update;

-- Back: a run comes back whole (a notice says so), the node's copy goes.
SET client_min_messages = notice;
CALL detach_remote('basic_outputs', 17340, 17341);
RESET client_min_messages;
SELECT table_name, from_range, tier, rows FROM status
WHERE table_name = 'basic_outputs' AND (rows > 0 OR tier = 'remote') ORDER BY from_range;
SELECT v AS node_copies FROM dblink('regress_node',
    'SELECT count(*)::text FROM pg_class WHERE relname ~ ''^basic_outputs_(r017339|r017340|remote_17339_17341)$''') AS r(v text);
SELECT v AS node_keeps_the_other_run FROM dblink('regress_node',
    'SELECT string_agg(relname, '' '' ORDER BY relname) FROM pg_class WHERE relname ~ ''^basic_outputs_(r017341|remote_17341_17342)$''') AS r(v text);
-- The rest back too, and every row once.
CALL detach_remote('all', 0, 17342);
SELECT count(*) AS remote_runs FROM remote_ranges;
SELECT count(*) AS remote_partitions FROM partitions WHERE tier = 'remote';
SELECT b.table_name FROM ingest_test.before b
WHERE b.rows <> relation_checksum(format('permanode.%I', b.table_name)::regclass);

DROP SERVER regress_node CASCADE;
SET client_min_messages = warning;
DROP DATABASE permanode_regress_node;
DROP SCHEMA ingest_test CASCADE;
