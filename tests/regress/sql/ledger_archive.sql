-- The ledger's cold tier (sql/permanode/code/70_archive.sql): archive whole milestone ranges of every
-- ledger table, and the same queries give the same rows before, while and after they are cold.
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test, archive_test CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;

-- Chunks of 1000 milestones: the fixtures 17339-17341 are range 17, 2418187 range 2418.
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1000) FROM ledger_tables) s;
\getenv fixtures PERMANODE_FIXTURES
\getenv abs_srcdir PG_ABS_SRCDIR
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
\o /dev/null
\i :fixtures_sql
\o
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;

\set ledger_queries_sql :abs_srcdir '/sql/include/ledger_queries.sql'
\i :ledger_queries_sql
CREATE TABLE archive_test.results (run text, name text, row text);
CREATE FUNCTION archive_test.run(run text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO archive_test.results SELECT $1, a.name, a.row FROM archive_test.answers() a;
    RETURN (SELECT count(*) FROM archive_test.results r WHERE r.run = $1);
END
$$;
-- The result of two runs differ in no row (as multisets).
CREATE FUNCTION archive_test.differences(a text, b text) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM ((SELECT name, row FROM archive_test.results WHERE run = a
                           EXCEPT ALL SELECT name, row FROM archive_test.results WHERE run = b)
                          UNION ALL
                          (SELECT name, row FROM archive_test.results WHERE run = b
                           EXCEPT ALL SELECT name, row FROM archive_test.results WHERE run = a)) d
$$;

SELECT archive_test.run('hot') > 0 AS hot_run_has_rows;
-- queries that return no rows: the fixtures hold no such keys (the rest prove something)
SELECT q.name AS query_without_rows FROM archive_test.queries q
WHERE NOT EXISTS (SELECT 1 FROM archive_test.results r WHERE r.run = 'hot' AND r.name = q.name)
ORDER BY 1;

-- Ranges ingest may still write are refused: 2418 holds the newest milestone.
SELECT * FROM archive(17, 2419);
SELECT * FROM archive(5, 5);

-- Archive range 17 of every ledger table but sync (quietly: partial indexes are not archived).
SET client_min_messages = warning;
SELECT table_name, archive, rows FROM archive(0, 2418) ORDER BY 1;
RESET client_min_messages;
-- Again: nothing hot is left there.
SELECT count(*) AS archived_again FROM archive(0, 2418);
SELECT table_name, from_range, to_range, tier, partition, rows, bytes > 0 AS has_bytes
FROM status WHERE from_range <> pending_range() ORDER BY table_name, from_range;

SELECT archive_test.run('cold') > 0 AS cold_run_has_rows;
SELECT archive_test.differences('hot', 'cold') AS differences_hot_cold;
-- Lookups read only the entries they return from the cold range. Point lookups: the ID columns are
-- domains over the extension's types (block_id over hash32) compared with their base type's
-- operators, and those conditions reach the archive's row key and ID indexes. Shown on the
-- archived partition itself: through the parent, the Range Scan runs this query through SPI.
CREATE FUNCTION archive_test.entries_read(statement text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || statement
        INTO plan;
    RETURN format('%s entries read, %s rows',
                  jsonb_path_query_first(plan, 'strict $.**."Archive Entries Read"'),
                  plan->0->'Plan'->>'Actual Rows');
END
$$;
CREATE FUNCTION archive_test.cold_partition(parent name) RETURNS regclass
LANGUAGE sql AS $$
    SELECT partition FROM permanode.status
    WHERE table_name = parent AND tier = 'cold' AND from_range = 17
$$;
SELECT lookup, archive_test.entries_read(format('SELECT * FROM %s WHERE %I = %L',
                                                archive_test.cold_partition(t), c, k)) AS cold
FROM (VALUES ('messages by message_id', 'messages'::name, 'message_id', :'msg'),
             ('transactions by transaction_id', 'transactions', 'transaction_id', :'tx'),
             ('basic_outputs by output_id', 'basic_outputs', 'output_id', :'out'),
             ('spent_outputs by output_id', 'spent_outputs', 'output_id', :'spent'),
             -- a partial index (WHERE address IS NOT NULL), archived with the rows it holds
             ('basic_outputs by address', 'basic_outputs', 'address', :'addr'))
     AS q(lookup, t, c, k)
ORDER BY 1;
-- A first page by address, newest first, reads a page's worth of entries.
SELECT archive_test.cold_partition('basic_outputs') AS cold_outputs \gset
SELECT archive_test.entries_read(format(
    'SELECT output_id FROM %s WHERE address = %L
     ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 2',
    :'cold_outputs', :'addr')) AS first_page;
-- The same through a parameter of the domain's type in a generic plan, as the HTTP API asks.
SELECT archive_test.cold_partition('messages') AS cold_messages \gset
-- An IN list of block IDs (a domain) reads one entry per ID it finds.
SELECT archive_test.entries_read(format(
    'SELECT message_id FROM %s WHERE message_id IN (%L, %L, %L)', :'cold_messages', :'msg',
    (SELECT max(message_id) FROM permanode.messages WHERE ms_range_id = 17),
    '0x0000000000000000000000000000000000000000000000000000000000000000')) AS in_list;
PREPARE cold_block(block_id) AS SELECT * FROM :cold_messages WHERE message_id = $1;
SET plan_cache_mode = force_generic_plan;
SELECT archive_test.entries_read(format('EXECUTE cold_block(%L)', :'msg')) AS generic_plan;
RESET plan_cache_mode;
DEALLOCATE cold_block;
-- Ordered by an ID column (a domain): read in the archive's order, backwards, with no sort.
EXPLAIN (COSTS OFF) SELECT message_id FROM :cold_messages ORDER BY message_id DESC LIMIT 3;
-- A cursor WITH HOLD over a lookup of the cold range goes on after its transaction commits (the
-- Range Scan's cursor on the archive is gone then, and is opened again past the rows read): the
-- two fetches (the first reaching into the cold range) give the query's rows once each, in order.
CREATE TEMP TABLE held_reference AS
SELECT row_number() OVER () AS n, output_id FROM (
    SELECT output_id FROM basic_outputs_by_address WHERE address = :'addr'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC) q;
SELECT count(*) AS reference_rows FROM held_reference;
BEGIN;
DECLARE held CURSOR WITH HOLD FOR
    SELECT output_id FROM basic_outputs_by_address WHERE address = :'addr'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC;
FETCH 4 FROM held;
COMMIT;
FETCH ALL FROM held;
CLOSE held;
SELECT n, output_id FROM held_reference ORDER BY n;
DROP TABLE held_reference;
-- The same queries as a reader (the HTTP API's role): a cold partition read through its parent
-- needs no rights of its own, as a hot one does not.
GRANT USAGE ON SCHEMA archive_test TO permanode_reader;
GRANT SELECT ON archive_test.queries TO permanode_reader;
GRANT SELECT, INSERT ON archive_test.results TO permanode_reader;
SET ROLE permanode_reader;
SELECT archive_test.run('cold reader') > 0 AS cold_reader_run_has_rows;
-- A block by ID as the HTTP API asks for it: a generic plan, whose Permanode Range Scan takes
-- the key from the parameter and reads the cold partition it finds through SPI.
PREPARE block_by_id(block_id) AS
    SELECT message_id, milestone_index FROM messages WHERE message_id = $1 ORDER BY ms_range_id LIMIT 1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE block_by_id(:'msg');
EXECUTE block_by_id(:'msg');
RESET plan_cache_mode;
DEALLOCATE block_by_id;
RESET ROLE;
SELECT archive_test.differences('hot', 'cold reader') AS differences_hot_cold_reader;

-- Writes to an archived range fail with the wrapper's error.
INSERT INTO ms_analytics VALUES (17, 17999, 0, 0, 0);
-- Ingest still works: the next range, and milestones already present in the archived one.
SELECT count(*) AS partitions_made FROM (SELECT premake(17000, 17999, 0)) s WHERE premake > 0;
SELECT milestone, already_ingested FROM ingest_test.ingest(17340);

-- Restore: every archive overlapping the range, whole.
SELECT table_name, archive, from_archived, to_archived, rows FROM restore(17, 18) ORDER BY 1;
SELECT tier, count(*) FROM status GROUP BY tier ORDER BY 1;
SELECT archive_test.run('restored') > 0 AS restored_run_has_rows;
SELECT archive_test.differences('hot', 'restored') AS differences_hot_restored;

-- The policy: archive_older_than in settings, applied by maintain(): range 17 goes cold again.
INSERT INTO settings VALUES ('archive_older_than', '10');
SET client_min_messages = warning;
SELECT * FROM maintain();
RESET client_min_messages;
-- It also rolled up the complete days (all but the newest) as /api/analytics/v2/daily counts them.
SELECT (SELECT count(*) FROM date_cache) AS days_held, count(*) AS days_rolled_up,
       count(*) FILTER (WHERE d.total_addresses <> (SELECT count(*) FROM metrics_cache m
                        WHERE m.date = d.date AND m.variant = 'address' AND m.metric = 'sent_or_received')) AS differing
FROM daily_analytics d;
SELECT tier, count(*) FROM status GROUP BY tier ORDER BY 1;
SELECT archive_test.run('policy') > 0 AS policy_run_has_rows;
SELECT archive_test.differences('hot', 'policy') AS differences_hot_policy;
SELECT count(*) AS archives_restored, sum(rows) AS rows_restored FROM restore(0, 2418);
-- (at least the 22 this test left behind; earlier tests of this database may leave more)
SELECT count(*) >= 22 AS archive_dirs_removed FROM archive_gc();
SELECT count(*) AS archives_left FROM archive_status;

-- Rights: maintenance for permanode_admin only; status for readers.
SELECT p.proname, has_function_privilege('permanode_admin', p.oid, 'EXECUTE') AS admin,
       has_function_privilege('permanode_reader', p.oid, 'EXECUTE') AS reader, p.prosecdef
FROM pg_proc p WHERE p.pronamespace = 'permanode'::regnamespace
  AND p.proname IN ('archive', 'restore', 'maintain', 'partition_rows')
ORDER BY 1, 2;
SELECT has_table_privilege('permanode_reader', 'permanode.status', 'SELECT') AS reader_reads_status;
SET ROLE permanode_reader;
SELECT count(*) > 0 AS reader_sees_status FROM status;
SELECT * FROM archive(10);
RESET ROLE;

DROP SCHEMA ingest_test, archive_test CASCADE;
